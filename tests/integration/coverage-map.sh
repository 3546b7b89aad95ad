#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every source file is covered by a named test: a test names it (its file
# name, or its module name as a word: `pump.c`, `run-tmpdir`), or
# tests/coverage.map lists the registered tests that run it. An entry whose
# source file or tests are gone fails too, so the map stays true.
. "$SLUICE_SRCDIR/tests/lib.sh"

src=$SLUICE_SRCDIR
map=$src/tests/coverage.map
# The test programs and scripts make check runs, as tests/*.am register them.
registered=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$src"/tests/*.am "$src"/Makefile.am |
  sed -n 's/^\(CRITERION_TESTS\|INTEGRATION_TESTS\) *+\?= *//p' | tr ' \t' '\n\n' | grep '^tests/' | sort -u)
# Every test file's text, once (this script's own excepted: it names
# examples).
test_text=$(cd "$src" && find tests -type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.py' \
  -o -name '*.am' \) ! -name coverage-map.sh -exec cat {} +)

unnamed=() stale=() unregistered=()
mapped=0
while IFS= read -r file; do
  base=${file##*/}
  if grep -qF -- "$base" <<<"$test_text" || grep -qw -- "${base%.c}" <<<"$test_text"; then
    continue
  fi
  entry=$(grep "^$file " "$map" 2>/dev/null) || { unnamed+=("$file"); continue; }
  mapped=$((mapped + 1))
  for t in ${entry#* }; do
    grep -qx -- "$t" <<<"$registered" || unregistered+=("$file: $t")
  done
done < <(cd "$src" && find broker common launcher plugins -name '*.c' | sort)
while read -r file _; do
  [ -f "$src/$file" ] || stale+=("$file")
done < <(grep -v '^#' "$map")

[ ${#unnamed[@]} -eq 0 ]
report $? "every source file is named by a test or listed in tests/coverage.map ($mapped listed)" \
  "named by no test and not in tests/coverage.map:" "${unnamed[@]}"
[ ${#unregistered[@]} -eq 0 ]
report $? "the tests tests/coverage.map lists are registered in tests/*.am" "${unregistered[@]}"
[ ${#stale[@]} -eq 0 ]
report $? "tests/coverage.map lists only source files that exist" "${stale[@]}"
