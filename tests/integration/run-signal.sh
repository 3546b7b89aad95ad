#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# SIGINT or SIGTERM to `sluice run` itself kills the command's whole tree,
# escapees included, and sluice exits with 128+N.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

has_lines() { [ "$(wc -l <"$1")" -ge "$2" ]; }

for sig in TERM INT; do
  pids="$TEST_TMP/pids-$sig"
  : >"$pids"
  # Signalled directly, not through timeout(1): that also sends SIGCONT,
  # which can cancel the stop a sanitizer's exit-time leak check waits for.
  # Each child is named by a mark in its argv, found from outside by it:
  # the pids a sandboxed command prints are its PID namespace's.
  mark="signal-mark-$$-$RANDOM-$sig"
  "$SLUICE" run --timeout 20s -- "setsid bash -c 'exec -a $mark-1 sleep 310' & echo >> '$pids'; bash -c 'exec -a $mark-2 sleep 311' & echo >> '$pids'; wait" \
    >"$TEST_TMP/out-$sig" 2>&1 &
  sluice_pid=$!
  # The command has started both children once both pids are written.
  if ! wait_for 10 has_lines "$pids" 2; then
    not_ok "SIG$sig: the command started" "$(cat "$pids")"
    kill -s TERM "$sluice_pid"
    wait "$sluice_pid"
    continue
  fi
  # the control: both are found by their mark while they run
  marked() { [ "$(pgrep -c -f -- "$mark")" -ge 2 ]; }
  wait_for 5 marked && seen=2 || seen=$(pgrep -c -f -- "$mark")
  kill -s "$sig" "$sluice_pid"
  if ! wait_for 10 gone "$sluice_pid"; then
    not_ok "SIG$sig to sluice run: it exits" "still running 10 s after the signal"
    kill -s KILL "$sluice_pid"
  fi
  wait "$sluice_pid" && rc=0 || rc=$?
  want=$((128 + $(kill -l "$sig")))
  survivors=$(pgrep -a -f -- "$mark" || true)
  [ "$seen" = 2 ] && [ "$rc" -eq "$want" ] && [ -z "$survivors" ] && grep -q "interrupted by SIG$sig" "$TEST_TMP/out-$sig"
  report $? "SIG$sig to sluice run kills the whole tree and exits $want" "found by their mark before: $seen" "rc=$rc alive: $survivors" "$(cat "$TEST_TMP/out-$sig")" || pkill -9 -f -- "$mark"
done

# A signal in the drain window (the shell has exited, a child it left holds
# the pipe) still kills the tree; the result keeps the shell's exit code.
# Unrestricted: in a sandboxed mode the PID namespace ends the child with
# the shell, so there is no drain window to signal in.
printf '[broker]\ndrain_window = 20s\n' >"$TEST_TMP/drain.ini"
# signal_in_drain_window FORMAT: prints rc, then the survivor's state, then
# the output; returns 1 when the shell did not start and exit.
signal_in_drain_window() {
  local pids="$TEST_TMP/pids-drain-$1" child shell sluice_pid rc
  "$SLUICE" run --sandbox unrestricted --config "$TEST_TMP/drain.ini" --format "$1" --timeout 20s -- \
    "sleep 313 & echo \$! \$\$ > '$pids'; exit 4" >"$TEST_TMP/out-drain" 2>&1 &
  sluice_pid=$!
  # the shell gone, and its launcher (which exits with it) reaped by sluice
  # (pgrep lists a zombie too): sluice knows the exit code before the signal
  if ! wait_for 10 test -s "$pids" || ! read -r child shell <"$pids" || ! wait_for 10 gone "$shell" ||
    ! wait_for 10 sh -c "! pgrep -P $sluice_pid -x sluice-launch >/dev/null"; then
    kill -s KILL "$sluice_pid"
    wait "$sluice_pid"
    return 1
  fi
  kill -s TERM "$sluice_pid"
  wait_for 10 gone "$sluice_pid" || kill -s KILL "$sluice_pid"
  wait "$sluice_pid" && rc=0 || rc=$?
  echo "$rc"
  if alive "$child"; then
    kill -9 "$child"
    echo "survivor alive"
  else
    echo "survivor killed"
  fi
  cat "$TEST_TMP/out-drain"
}
name="SIGTERM in the drain window: the tree is killed, the shell's exit code kept"
out=$(signal_in_drain_window json) &&
  [ "$(sed -n 1,2p <<<"$out" | tr '\n' ' ')" = "143 survivor killed " ] &&
  [ "$(json_get "$(sed 1,2d <<<"$out")" '(d["ok"], d["exitCode"], d["error"]["kind"])')" = "(False, 4, 'command_failed')" ]
report $? "$name" "$out"
name="SIGTERM in the drain window: the text says the command had exited"
out=$(signal_in_drain_window text) && [ "$(sed -n 1,2p <<<"$out" | tr '\n' ' ')" = "143 survivor killed " ] &&
  grep -qxF '[sluice run was interrupted by SIGTERM after the command exited with code 4: what it left running was killed]' <<<"$out"
report $? "$name" "$out"

# SIGKILL cannot be caught: sluice cannot kill the tree then, but the shell
# it started must not run on with nothing to enforce its timeout. It dies
# with sluice (sluice-launch --die-with-parent).
# The shell is found from outside by the mark it execs under: the pid it
# would print is its PID namespace's, which names another process here.
pidfile="$TEST_TMP/pid-KILL"
mark="signal-mark-$$-$RANDOM-KILL"
"$SLUICE" run --timeout 20s -- "echo started > '$pidfile'; exec -a $mark sleep 312" >/dev/null 2>&1 &
sluice_pid=$!
shell_runs() { pgrep -f -- "^$mark" >/dev/null; }
shell_gone() { ! shell_runs; }
if wait_for 10 test -s "$pidfile" && wait_for 5 shell_runs; then
  kill -s KILL "$sluice_pid"
  wait "$sluice_pid"
  wait_for 5 shell_gone
  report $? "SIGKILL to sluice run: the command's shell dies with it" \
    "still running: $(pgrep -a -f -- "^$mark")" || pkill -9 -f -- "^$mark"
else
  not_ok "SIGKILL to sluice run: the command started" "no pid in $pidfile"
  kill -s KILL "$sluice_pid"
  wait "$sluice_pid"
fi
