#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the command-model fuzzer with clang's libFuzzer, ASan and UBSan.
# Usage: fuzz/build.sh SRCDIR BUILDDIR GRAMMARDIR OUT
# BUILDDIR holds config.h (a configured tree); OUT is the fuzzer binary.
set -eu
src=$1 build=$2 grammar=$3 out=$4
cc=${FUZZ_CC:-clang}
mods="util/strbuf shell/shell-tree shell/shell-parse shell/shell-reread shell/shell-words shell/brace-expand
      policy/verdict util/terminal-text"
# every file of the model layer: a new one is linked without a change here
for f in "$src"/broker/model/*.c; do
  f=${f#"$src/broker/"}
  mods="$mods ${f%.c}"
done
files=""
for m in $mods; do files="$files $src/broker/$m.c"; done
# every file of common/ (small, libc only), as fuzz/build-config.sh links
# them: a hand-made list missed a helper the model came to call, twice
for f in "$src"/common/*.c; do files="$files $f"; done
# the grammar is third-party: no warnings, but instrumented like the rest
$cc -c -O1 -g -w -fsanitize=fuzzer-no-link,address,undefined -I"$grammar/src" \
  "$grammar/src/parser.c" -o "$out.parser.o"
$cc -c -O1 -g -w -fsanitize=fuzzer-no-link,address,undefined -I"$grammar/src" \
  "$grammar/src/scanner.c" -o "$out.scanner.o"
# shellcheck disable=SC2086
$cc -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
  -I"$build" -I"$src/common" -I"$src/broker" -I"$src/include" \
  "$src/fuzz/fuzz-command-model.c" $files "$out.parser.o" "$out.scanner.o" \
  $(pkg-config --cflags --libs tree-sitter jansson) -o "$out"
rm -f "$out.parser.o" "$out.scanner.o"
