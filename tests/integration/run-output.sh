#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Output: stdout and stderr separately and combined in arrival order; the
# cap keeps the first and last 4 KiB with a marker, the whole output goes to
# a private file; 100 MB passes; binary output never breaks the JSON.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

out=$(timeout -k 5 20 "$SLUICE" run --format json -- 'echo one; echo two >&2; echo three') && rc=0 || rc=$?
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["stdout"] == "one\nthree\n" and d["stderr"] == "two\n" and sorted(d["output"].split()) == ["one", "three", "two"] and not d["truncated"]')" = True ]
report $? "stdout and stderr apart, and combined" "$out"

out=$(timeout -k 5 60 "$SLUICE" run --format json -- 'head -c 104857600 /dev/zero | tr "\0" "y"; echo; echo THE-END') && rc=0 || rc=$?
file=$(json_get "$out" 'd["outputFile"]')
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["truncated"] and d["outputBytes"] == 104857609 and d["output"].endswith("THE-END\n") and len(d["output"]) < 10000')" = True ]
report $? "100 MB of output: cut to head and tail, every byte counted" "rc=$rc" "$(head -c 600 <<<"$out")"
json_get "$out" 'd["output"]' | grep -q "^\[\.\.\. output truncated: 104857609 bytes produced, over the 128KiB cap.*the whole output is in $file (cut at its size cap)"
report $? "the marker says how much was produced, the cap and the file" "$(json_get "$out" 'd["output"]' | grep -a '^\[' )"
[ -f "$file" ] && [ "$(stat -c %s "$file")" -eq $((64 << 20)) ] && [ "$(stat -c %a "$file")" = 600 ] &&
  [ "$(stat -c %a "$(dirname "$file")")" = 700 ]
report $? "the whole output up to its cap is in a private file" "$file" "$(ls -la "$file" 2>&1)"

out=$(timeout -k 5 20 "$SLUICE" run --format json -- 'seq 1 50000') && rc=0 || rc=$?
file=$(json_get "$out" 'd["outputFile"]')
[ -f "$file" ] && cmp -s "$file" <(seq 1 50000)
report $? "under the disk cap, the file holds exactly the output" "$file"

out=$(timeout -k 5 20 "$SLUICE" run --format json -- 'head -c 300000 /dev/urandom; printf "\xc3"') && rc=0 || rc=$?
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["outputBytes"] == 300001 and d["truncated"]')" = True ]
report $? "binary and invalid UTF-8 output gives valid JSON" "rc=$rc"

out=$(timeout -k 5 20 "$SLUICE" run --format json -- 'echo small') && rc=0 || rc=$?
[ "$(json_get "$out" 'd["outputFile"] is None')" = True ]
report $? "no file when nothing was cut" "$out"
