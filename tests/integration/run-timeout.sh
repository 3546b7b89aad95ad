#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Timeouts: exit 124 with the partial output, the text says which limit
# fired, that it was not a crash and what to do; a prompt is recognised;
# nothing the command started outlives it, setsid and double forks included.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

run timeout -k 5 20 "$SLUICE" run --timeout 1500ms -- 'echo partial; sleep 30'
expect "a timeout exits 124 and keeps the partial output" 124 '^partial$'
grep -q '^\[command timed out after 1500ms\]$' <<<"$out"
report $? "the first line says which limit fired" "$out"
grep -q 'not a crash.*slow mode.*background mode' <<<"$out"
report $? "the text says it was not a crash, and the remedy" "$out"
! grep -q 'waiting for input' <<<"$out"
report $? "no prompt hint without a prompt" "$out"

run timeout -k 5 20 "$SLUICE" run --timeout 1500ms -- 'printf "Overwrite config? [y/N] "; sleep 30'
grep -q 'probably waiting for input' <<<"$out"
report $? "a prompt at the end gets the waiting-for-input hint" "$out"

out=$(timeout -k 5 20 "$SLUICE" run --format json --timeout 1500ms -- 'echo x; sleep 30') && rc=0 || rc=$?
[ "$rc" -eq 124 ] && [ "$(json_get "$out" 'd["timedOut"] and d["error"]["kind"] == "timeout" and d["exitCode"] is None and d["signal"] == 15 and d["output"] == "x\n"')" = True ]
report $? "JSON: timedOut, error timeout, the SIGTERM that ended it, partial output" "rc=$rc" "$out"
printf '[broker]\nkill_grace = 100ms\n' >"$TEST_TMP/grace.ini"
out=$(timeout -k 5 20 "$SLUICE" run --config "$TEST_TMP/grace.ini" --format json --timeout 300ms -- 'trap "" TERM; sleep 30') && rc=0 || rc=$?
[ "$rc" -eq 124 ] && [ "$(json_get "$out" 'd["timedOut"] and d["signal"] == 9')" = True ]
report $? "JSON: a shell that ignores SIGTERM is ended by SIGKILL, and says so" "rc=$rc" "$out"

# Escapees: a setsid, a double fork and a child that ignores TERM, each
# named by a mark in its argv, which is what the check below looks for from
# outside: the pids a command prints are its PID namespace's in the
# sandboxed modes, and name other processes (or none) outside. In both an
# unsandboxed run (the broker's own kill) and the default mode's.
esc_mark="escapee-mark-$$-$RANDOM"
(exec -a "$esc_mark-control" sleep 30) &
control=$!
wait_for 5 pgrep -f -- "$esc_mark-control" >/dev/null
report $? "control: a process found by the mark in its argv from outside"
kill "$control" 2>/dev/null
wait "$control" 2>/dev/null
for mode in unrestricted default; do
  sandbox=()
  [ "$mode" = default ] || sandbox=(--sandbox "$mode")
  started="$TEST_TMP/started-$mode"
  run timeout -k 5 20 "$SLUICE" run "${sandbox[@]}" --timeout 500ms -- \
    "setsid bash -c 'exec -a $esc_mark-$mode-1 sleep 300' & echo >>'$started'; (bash -c 'exec -a $esc_mark-$mode-2 sleep 301' & echo >>'$started'); trap '' TERM; bash -c 'exec -a $esc_mark-$mode-3 sleep 302' & echo >>'$started'; wait"
  expect "a tree with escapees times out ($mode)" 124
  left=$(pgrep -a -f -- "$esc_mark-$mode" || true)
  [ "$(wc -l <"$started")" -eq 3 ] && [ -z "$left" ]
  report $? "setsid and double-fork escapees and a TERM-ignoring child are killed at timeout ($mode)" \
    "left: $left" || pkill -9 -f -- "$esc_mark-$mode"
done

run timeout -k 5 20 "$SLUICE" run --mode slow --timeout 400ms -- 'sleep 30'
grep -q 'of slow mode fired' <<<"$out"
report $? "the text names the mode whose limit fired" "$out"

# Processes that fork, exit and start a session of their own in a loop live
# microseconds each, too short for a scan of /proc; as the subreaper's
# orphans they are sluice's children, and those are killed until none is
# left. The hops stop hopping after 2 s and wait, to be found by pgrep.
probe=$SLUICE_BUILDDIR/tests/launcher/probe
mark="hop-mark-$$-$RANDOM"
# the kill starts while they hop (grace.ini: kill_grace = 100ms)
start=$(date +%s%N)
run timeout -k 5 30 "$SLUICE" run --config "$TEST_TMP/grace.ini" --timeout 500ms -- \
  "for i in 1 2 3 4; do '$probe' hop 2 $mark & done; sleep 100"
while [ $((($(date +%s%N) - start) / 1000000)) -lt 3000 ]; do sleep 0.1; done
left=$(pgrep -f -- "$mark" || true)
[ "$rc" -eq 124 ] && [ -z "$left" ] && grep -q 'everything it started were stopped' <<<"$out"
report $? "fork-and-exit chains are killed at timeout, none left" "rc=$rc left: $left" "$out" || pkill -9 -f -- "$mark"
