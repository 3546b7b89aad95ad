#!/bin/sh
# SPDX-License-Identifier: MIT
# Print what failed in the test runs under DIR (make check's, and make
# distcheck's, which a failure leaves in place): the end of each failed
# test's log, then one line per failed result. Called by scripts/test.sh when
# it fails, so that the end of its output names the failure.
# Usage: scripts/test-failures.sh DIR [LINES-PER-LOG]
dir=${1:?usage: test-failures.sh DIR [LINES-PER-LOG]}
lines=${2:-40}
[ -d "$dir" ] || exit 0
failed=$(find "$dir" -name '*.trs' -exec grep -lE '^:test-result: (FAIL|XPASS|ERROR)' {} + 2>/dev/null | sort)
[ -n "$failed" ] || exit 0
for trs in $failed; do
  log=${trs%.trs}.log
  echo "==== the last $lines lines of $log"
  tail -n "$lines" "$log" 2>/dev/null || echo "(no log)"
done
echo "==== what failed"
for trs in $failed; do
  log=${trs%.trs}.log
  # TAP scripts log "ERROR: NAME - why" per result; the others one
  # "FAIL NAME (exit status: N)".
  grep -aE '^(FAIL|XPASS|ERROR)[: ]' "$log" 2>/dev/null || echo "failed: $log"
done
