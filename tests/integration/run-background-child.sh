#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A shell that exits while a child it backgrounded holds the pipe must not
# make `sluice run` wait for the timeout: it returns after the drain window
# and lists the survivors in backgroundPids. Without a PID namespace (the
# unrestricted mode here; sandbox-lifetime.sh has the sandboxed modes,
# where the namespace ends them with the shell).
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

printf '[broker]\nbackground_survivors = leave\n' >"$TEST_TMP/leave.ini"
U=(--sandbox unrestricted --config "$TEST_TMP/leave.ini")

start=$(date +%s%N)
out=$(timeout -k 5 20 "$SLUICE" run "${U[@]}" --format json --timeout 10s -- 'sleep 60 & echo shell done') && rc=0 || rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
pid=$(json_get "$out" 'd["backgroundPids"][0] if d["backgroundPids"] else ""')
if [ "$rc" -eq 0 ] && [ "$ms" -lt 5000 ] && [ -n "$pid" ] &&
  [ "$(json_get "$out" 'd["output"]')" = "shell done" ]; then
  ok "returns after the shell exits (${ms}ms), not at the timeout"
else
  not_ok "returns after the shell exits, not at the timeout" "rc=$rc ${ms}ms" "$out"
fi
[ -n "$pid" ] && alive "$pid" && grep -q '^sleep' "/proc/$pid/cmdline"
report $? "the survivor is listed in backgroundPids and left running (leave)" "pid=$pid"
[ -n "$pid" ] && kill "$pid" 2>/dev/null

run timeout -k 5 20 "$SLUICE" run "${U[@]}" -- 'sleep 60 & echo shell done'
grep -q '^\[still running after the shell exited: [0-9]' <<<"$out"
report $? "the text lists the survivors" "$out"
pid=$(sed -n 's/^\[still running after the shell exited: \([0-9]*\).*/\1/p' <<<"$out")
[ -n "$pid" ] && kill "$pid" 2>/dev/null

out=$(timeout -k 5 20 "$SLUICE" run "${U[@]}" --format json -- 'sleep 60 >/dev/null 2>&1 & echo quick') && rc=0 || rc=$?
pid=$(json_get "$out" 'd["backgroundPids"][0] if d["backgroundPids"] else ""')
[ "$rc" -eq 0 ] && [ -n "$pid" ]
report $? "a backgrounded child without the pipe is listed too" "$out"
[ -n "$pid" ] && kill "$pid" 2>/dev/null

# A timeout that falls in the drain window only ends the window: the shell
# ended in time, so its exit code is the result and what it left running is
# a survivor, not a timed-out command.
printf '[broker]\ndrain_window = 10s\nbackground_survivors = leave\n' >"$TEST_TMP/drain.ini"
out=$(timeout -k 5 20 "$SLUICE" run --sandbox unrestricted --config "$TEST_TMP/drain.ini" --format json --timeout 1s -- \
  'sleep 334 & exit 3') && rc=0 || rc=$?
pid=$(json_get "$out" 'd["backgroundPids"][0] if d["backgroundPids"] else ""')
[ "$rc" -eq 3 ] && [ "$(json_get "$out" '(d["ok"], d["exitCode"], d["timedOut"], d["error"])')" = "(True, 3, False, None)" ] &&
  [ -n "$pid" ] && alive "$pid"
report $? "a timeout in the drain window: the shell's exit code, the survivor listed and left running" "rc=$rc pid=$pid" "$out"
[ -n "$pid" ] && kill "$pid" 2>/dev/null

# background_survivors = kill (the default): the survivors are listed, and
# killed, a setsid escapee included; the text says they were.
printf '[broker]\nbackground_survivors = kill\n' >"$TEST_TMP/kill.ini"
out=$(timeout -k 5 20 "$SLUICE" run --sandbox unrestricted --config "$TEST_TMP/kill.ini" --format json -- \
  'sleep 331 & setsid sleep 332 & echo shell done') && rc=0 || rc=$?
pids=$(json_get "$out" '" ".join(str(p) for p in d["backgroundPids"])')
left=
for p in $pids; do alive "$p" && left="$left $p"; done
[ "$rc" -eq 0 ] && [ "$(wc -w <<<"$pids")" -eq 2 ] && [ -z "$left" ]
report $? "background_survivors = kill: both survivors are listed and killed" "rc=$rc alive:$left" "$out" || for p in $left; do kill -9 "$p"; done
run timeout -k 5 20 "$SLUICE" run --sandbox unrestricted -- 'sleep 333 & echo shell done'
pid=$(sed -n 's/^\[still running after the shell exited, killed: \([0-9]*\).*/\1/p' <<<"$out")
[ -n "$pid" ] && ! alive "$pid"
report $? "background_survivors = kill: the text says the survivors were killed" "$out" || [ -n "$pid" ] && kill "$pid" 2>/dev/null
true
