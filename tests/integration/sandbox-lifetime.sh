#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Nothing a sandboxed command starts outlives its run, and its names are its
# own (launcher/monitor.h, docs/launcher.md "What outlives a run"). Each
# attack runs first where it works (the unrestricted mode with
# background_survivors = leave, or the limit turned off: the positive
# control), then in the default mode, and is checked from outside: a mark
# the survivor writes late, a lock it holds, an abstract socket name an
# outside program binds or connects to, the processes /proc shows, a file
# past the size limit, tasks past the pids limit, a broker killed with
# SIGKILL. Then the fallback where no namespace can be had: what it lacks is
# named, and survivors are still killed.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# the commands must meet the home, repositories and files there.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="what outlives a sandboxed run"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
ws=$TEST_TMP/ws
outside=$TEST_TMP/outside
mkdir -p "$ws" "$outside"
printf '[broker]\nbackground_survivors = leave\n' >"$TEST_TMP/leave.ini"
# a network namespace per run, where a command may make unix sockets (the
# workspace's shared loopback refuses socket(AF_UNIX): sandbox-loopback.sh)
printf '[broker]\nbackground_survivors = leave\n[sandbox]\nworkspace_network_idle = 0\n' >"$TEST_TMP/leave-own-net.ini"
printf '[sandbox]\nrlimit_fsize =\nrlimit_pids =\n' >"$TEST_TMP/nolimits.ini"

# the PID namespace comes with the namespace layer (sandbox-lib.sh)
pidns=$namespace

# A token only a survivor's command line holds, whole: pgrep -f anchored
# on it finds "sleep TOKEN.TAG" and not sluice's own argv, which holds it
# inside a longer command.
token=$((RANDOM + 40000))
survivor() { pgrep -f "^sleep $token\.$1\$" || true; }
# late TAG: the text of a setsid survivor that writes late-mark into the
# working directory once the test has created go there (after the run
# returned: however slow the machine, the write comes after), then sleeps
# as TAG
late() { echo "setsid sh -c 'while [ ! -e \"\$0/go\" ]; do sleep 0.1; done; echo late >\"\$0/late-mark\"; exec sleep $token.$1' \"\$PWD\" >/dev/null 2>&1 &"; }
has_survivor() { [ -n "$(survivor "$1")" ]; }

# --- 1. a setsid survivor writes into the workspace after the run returned
run "$SLUICE" run -C "$ws" --sandbox unrestricted --config "$TEST_TMP/leave.ini" -- "$(late 11) echo returned"
[ "$rc" -eq 0 ] && [ ! -e "$ws/late-mark" ] && touch "$ws/go" && wait_for 10 test -e "$ws/late-mark" &&
  wait_for 10 has_survivor 11
report $? "control (unrestricted, leave): a setsid survivor writes into the workspace after the run returned, and runs on" "rc=$rc" "$out" "$err"
for p in $(survivor 11); do kill "$p"; done
rm -f "$ws/late-mark" "$ws/go"

run "$SLUICE" run -C "$ws" --sandbox workspace-write --config "$TEST_TMP/leave.ini" --format json -- \
  "$(late 12) echo returned"
touch "$ws/go"
sleep 2
left=$(survivor 12)
if [ -z "$pidns" ]; then
  skip "workspace-write: the PID namespace ends a setsid survivor with the run" "no PID namespace here"
else
  [ "$rc" -eq 0 ] && [ -z "$left" ] && [ ! -e "$ws/late-mark" ] &&
    [ "$(json_get "$out" '"pid-namespace" in d["sandbox"]["enforced"]')" = True ]
  report $? "workspace-write (even with leave): the PID namespace ends a setsid survivor with the run; nothing is written late" \
    "rc=$rc alive: $left" "$(ls "$ws")" "$out"
fi
for p in $left; do kill "$p"; done
rm -f "$ws/late-mark" "$ws/go"

# --- 2. a lock on a file outside, held after the run
: >"$outside/lockfile"
lock() { echo "setsid flock '$outside/lockfile' sleep $token.$1 >/dev/null 2>&1 & sleep 0.3"; }
run "$SLUICE" run -C "$ws" --sandbox unrestricted --config "$TEST_TMP/leave.ini" -- "$(lock 21)"
! flock -n "$outside/lockfile" true
report $? "control (unrestricted, leave): a survivor holds a lock on a file outside after the run" "$out" "$err"
for p in $(survivor 21); do kill "$p"; done
wait_for 5 flock -n "$outside/lockfile" true
run "$SLUICE" run -C "$ws" --sandbox workspace-write --config "$TEST_TMP/leave.ini" -- "$(lock 22)"
if [ -z "$pidns" ]; then
  skip "workspace-write: no lock outlives the run" "no PID namespace here"
else
  flock -n "$outside/lockfile" true
  report $? "workspace-write: no lock on a file outside outlives the run" "$out" "$err"
fi
for p in $(survivor 22); do kill "$p"; done

# --- 3. abstract unix socket names: held by the command, reached from outside
name="sluice-lifetime-$token"
cat >"$TEST_TMP/listen.py" <<'PY'
# listen.py NAME SECONDS: bind the abstract NAME, say so, serve for SECONDS
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0" + sys.argv[1])
s.listen(8)
print("bound", flush=True)
s.settimeout(float(sys.argv[2]))
while True:
    try:
        c = s.accept()[0]
    except OSError:
        break  # the time is up
    try:
        c.sendall(b"from-the-sandbox")
    except OSError:
        pass  # a client gone already: the name stays held
    c.close()
PY
# outside_connect NAME: what an outside client gets from NAME (or the error)
outside_connect() {
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect("\0" + sys.argv[1]); print(s.recv(64).decode())
except OSError as e: print("refused", e.errno)' "$1"
}
# outside_bind NAME: whether an outside program (a dbus-daemon) can have NAME
outside_bind() {
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.bind("\0" + sys.argv[1]); print("free")
except OSError as e: print("in-use", e.errno)' "$1"
}
# hold MODE NAME: a run whose command listens on NAME for up to 5 minutes
# (a loaded machine starts each outside check slowly), in the background,
# ended with SIGTERM once checked; waits until it is bound
hold() {
  "$SLUICE" run -C "$ws" --sandbox "$1" --config "$TEST_TMP/leave-own-net.ini" --timeout 5m -- \
    "python3 '$TEST_TMP/listen.py' $2 300 >'$ws/bound-$2' 2>&1" >/dev/null 2>&1 &
  held=$!
  wait_for 10 grep -q bound "$ws/bound-$2"
}
if hold unrestricted "$name-u"; then
  got=$(outside_connect "$name-u") bind=$(outside_bind "$name-u")
  [ "$got" = from-the-sandbox ] && [ "${bind%% *}" = in-use ]
  report $? "control (unrestricted): an outside client reaches the command's abstract listener, and an outside program cannot bind its name" "$got / $bind"
else
  not_ok "control (unrestricted): the command binds an abstract name" "$(cat "$ws/bound-$name-u" 2>/dev/null)"
fi
kill "$held"
wait "$held"
if ! grep -q '"net-namespace"' <<<"$features"; then
  skip "workspace-write: abstract names are the command's own" "no network namespace here"
elif hold workspace-write "$name-w"; then
  got=$(outside_connect "$name-w") bind=$(outside_bind "$name-w")
  [ "${got%% *}" = refused ] && [ "$bind" = free ]
  report $? "workspace-write: the command's abstract name is its own (an outside client is refused, an outside program may bind the name)" "$got / $bind"
else
  not_ok "workspace-write: the command may bind and listen on an abstract name" "$(cat "$ws/bound-$name-w" 2>/dev/null)"
fi
kill "$held"
wait "$held"

# --- 4. the network namespace has the loopback only, up
ifs='tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " " | sort | tr "\n" " "; echo; grep -c "127.0.0.1" /proc/net/fib_trie'
run "$SLUICE" run -C "$ws" --sandbox unrestricted -- "$ifs"
host=$out
run "$SLUICE" run -C "$ws" --sandbox workspace-write -- "$ifs"
if grep -q '"net-namespace"' <<<"$features"; then
  [ "$(head -1 <<<"$host")" != "lo " ] && [ "$(head -1 <<<"$out")" = "lo " ] && [ "$(sed -n 2p <<<"$out")" -gt 0 ]
  report $? "workspace-write: the command sees its own loopback only, and it is up (outside: $(head -1 <<<"$host"))" "$out" "$err"
else
  skip "workspace-write: only the loopback" "no network namespace here"
fi

# --- 5. /proc shows the run's processes only
bash -c "exec -a sluice-lifetime-outside-$token sleep 30" &
bystander=$!
# (the pattern's [e] keeps the command's own command line from matching)
count="grep -l sluice-lifetime-outsid[e]-$token /proc/[0-9]*/cmdline 2>/dev/null | wc -l"
run "$SLUICE" run -C "$ws" --sandbox unrestricted -- "$count"
[ "$out" -ge 1 ]
report $? "control (unrestricted): the command reads another process's command line" "$out"
run "$SLUICE" run -C "$ws" --sandbox workspace-write -- "ls -d /proc/[0-9]* | wc -l; $count"
if [ -n "$pidns" ]; then
  [ "$(sed -n 2p <<<"$out")" = 0 ] && [ "$(sed -n 1p <<<"$out")" -lt 10 ]
  report $? "workspace-write: /proc shows the run's own processes only, not another's command line" "$out" "$err"
else
  skip "workspace-write: a /proc of the run's own" "no PID namespace here"
fi
kill "$bystander"
wait "$bystander" 2>/dev/null

# --- 6. a file past the size limit (sparse: no disk is used)
big='rm -f big; dd if=/dev/zero of=big bs=1 count=1 seek=17G status=none 2>&1; echo "rc=$?"'
run "$SLUICE" run -C "$ws" --sandbox workspace-write --config "$TEST_TMP/nolimits.ini" -- "$big"
[ "$(stat -c %s "$ws/big" 2>/dev/null)" = 18253611009 ]
report $? "control (rlimit_fsize empty): the command writes a file past 16 GiB" "$out" "$err"
rm -f "$ws/big"
run "$SLUICE" run -C "$ws" --sandbox workspace-write -- "$big"
size=$(stat -c %s "$ws/big" 2>/dev/null || echo none)
[ "$size" != 18253611009 ] && grep -q '^rc=[1-9]' <<<"$out"
report $? "default: a file past 16 GiB is refused (rlimit_fsize)" "size $size" "$out" "$err"
rm -f "$ws/big"

# --- 7. tasks past the pids limit (threads with small stacks: cheap)
cat >"$TEST_TMP/threads.py" <<'PY'
# threads.py: start up to 5000 threads; print how many started, and end
# at once (the exit ends the waiting threads with it)
import os, threading
threading.stack_size(65536)
stop = threading.Event()
n = 0
try:
    for _ in range(5000):
        threading.Thread(target=stop.wait, daemon=True).start()
        n += 1
except RuntimeError:
    pass
print(n, flush=True)
os._exit(0)
PY
if grep -q '"pids_limit":true' <<<"$features"; then
  run "$SLUICE" run -C "$ws" --sandbox workspace-write --config "$TEST_TMP/nolimits.ini" --timeout 5m -- "python3 '$TEST_TMP/threads.py'"
  [ "$out" = 5000 ]
  report $? "control (rlimit_pids empty): the command starts 5000 threads" "$out" "$err"
  run "$SLUICE" run -C "$ws" --sandbox workspace-write --format json --timeout 5m -- "python3 '$TEST_TMP/threads.py'"
  n=$(json_get "$out" 'd["stdout"].strip()')
  [ "$n" -ge 4000 ] && [ "$n" -lt 4096 ] &&
    [ "$(json_get "$out" '"pids-limit" in d["sandbox"]["enforced"]')" = True ]
  report $? "default: the run stops at 4096 tasks (rlimit_pids; pids-limit enforced)" "$n" "$out"
else
  run "$SLUICE" run -C "$ws" --sandbox workspace-write --format json -- true
  [ "$(json_get "$out" '"pids-limit" in d["sandbox"]["missing"]')" = True ]
  report $? "without a pid_max of the run's own, pids-limit is named missing" "$out"
fi

# --- 8. sluice run killed with SIGKILL: what the command left running ends too
# killed_run MODE TAG: sluice run in MODE starts a setsid survivor and waits;
# sluice is killed with SIGKILL once the survivor runs; prints what of the
# survivor is left a moment later.
killed_run() {
  "$SLUICE" run -C "$ws" --sandbox "$1" --config "$TEST_TMP/leave.ini" --timeout 60s -- \
    "setsid sleep $token.$2 >/dev/null 2>&1 & sleep 50" >/dev/null 2>&1 &
  local sluice_pid=$!
  wait_for 10 test -n "$(survivor "$2")"
  kill -KILL "$sluice_pid"
  wait "$sluice_pid" 2>/dev/null
  wait_for 5 test -z "$(survivor "$2")"
  survivor "$2"
}
# the control: the launcher alone, without --die-with-parent, killed
"$SLUICE_LAUNCH" --profile unrestricted -- bash -c "setsid sleep $token.80 >/dev/null 2>&1 & sleep 50" &
launcher=$!
wait_for 10 test -n "$(survivor 80)"
kill -KILL "$launcher"
wait "$launcher" 2>/dev/null
sleep 0.5
left=$(survivor 80)
[ -n "$left" ]
report $? "control (a launcher without --die-with-parent, killed): its setsid child is orphaned and runs on" "$left"
for p in $left; do kill "$p"; done
left=$(killed_run unrestricted 81)
[ -z "$left" ]
report $? "unrestricted: sluice run killed with SIGKILL leaves no orphan (the launcher's reaper)" "alive: $left"
for p in $left; do kill "$p"; done
left=$(killed_run workspace-write 82)
[ -z "$left" ]
report $? "workspace-write: sluice run killed with SIGKILL leaves no orphan" "alive: $left"
for p in $left; do kill "$p"; done

# --- 9. the fallback: a child user namespace that allows no further one
if ! fallback_works; then
  skip_rest "the fallback without namespaces" "cannot make a child user namespace here (unshare -U -r, setpriv)"
fi
rm -f "$ws/late-mark" "$ws/go"
run fallback "$SLUICE" run -C "$ws" --sandbox workspace-write --format json -- "$(late 91) echo returned"
touch "$ws/go"
missing=$(json_get "$out" '" ".join(d["sandbox"]["missing"])' 2>/dev/null)
pids=$(json_get "$out" '" ".join(str(p) for p in d["backgroundPids"])' 2>/dev/null)
sleep 2
left=$(survivor 91)
[[ " $missing " == *" pid-namespace "* && " $missing " == *" net-namespace "* ]] && [ -n "$pids" ] &&
  [ -z "$left" ] && [ ! -e "$ws/late-mark" ]
report $? "fallback: pid-namespace and net-namespace named missing; the survivor is listed and killed (background_survivors = kill)" \
  "missing: $missing; listed: $pids; alive: $left" "$out" "$err"
for p in $left; do kill "$p"; done
run fallback "$SLUICE" doctor
grep -q 'pid-namespace' <<<"$out$err"
report $? "fallback: sluice doctor says that survivors are not ended by a PID namespace" "$out" "$err"
