#!/bin/sh
# SPDX-License-Identifier: MIT
# Print each Criterion suite's summary and the integration scripts' counts
# from the logs of `make check`, then one closing line
# "tests: N passed, N failed, N skipped". Called by make check (check-local).
passed=0 failed=0 skipped=0
for log in "$@"; do
  [ -f "$log" ] || continue
  synthesis=$(grep -a 'Synthesis:' "$log" | tail -n 1)
  if [ -n "$synthesis" ]; then
    # [====] Synthesis: Tested: 7 | Passing: 7 | Failing: 0 | Crashing: 0
    echo "${log%.log}: ${synthesis#*Synthesis: }"
    p=$(printf '%s\n' "$synthesis" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
    f=$(printf '%s\n' "$synthesis" | sed -n 's/.*Failing: \([0-9]*\).*/\1/p')
    c=$(printf '%s\n' "$synthesis" | sed -n 's/.*Crashing: \([0-9]*\).*/\1/p')
    s=$(printf '%s\n' "$synthesis" | sed -n 's/.*Skipped: \([0-9]*\).*/\1/p')
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0} + ${c:-0}))
    skipped=$((skipped + ${s:-0}))
  elif grep -aqE '^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): ' "$log"; then
    p=$(grep -acE '^(PASS|XFAIL): ' "$log")
    f=$(grep -acE '^(FAIL|XPASS|ERROR): ' "$log")
    s=$(grep -acE '^SKIP: ' "$log")
    echo "${log%.log}: Tested: $((p + f + s)) | Passing: $p | Failing: $f | Skipped: $s"
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  fi
done
echo "tests: $passed passed, $failed failed, $skipped skipped"
