#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A workspace's own loopback (docs/launcher.md "The workspace's network"):
# the sandboxed runs and background jobs of one workspace share one network
# namespace, held by a holder process, so a dev server started as a job is
# reached by the next run. Checked from outside: the server is unreachable
# from the host's loopback and from another workspace's run, the run reaches
# nothing on the host's loopback nor a unix socket outside, the holder
# leaves once idle, a dead holder's socket and another user's holder are
# never joined, and where no holder can be made the run falls back to a
# network of its own and names what is missing.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the workspace's own loopback"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
need_network_namespace
jobs_dir="$XDG_RUNTIME_DIR/sluice/jobs"
ws_a=$TEST_TMP/ws-a ws_b=$TEST_TMP/ws-b
mkdir -p "$ws_a" "$ws_b"
token="loopback-$RANDOM$RANDOM"
echo "$token" >"$ws_a/index.html"
printf '[sandbox]\nworkspace_network_idle = 2s\n' >"$TEST_TMP/short.ini"
printf '[sandbox]\nworkspace_network_idle = 0\n' >"$TEST_TMP/per-run.ini"
# a free port on the host's loopback (the namespaces have their own)
port=$(free_port)
fetch="curl -sS -m 5 http://localhost:$port/index.html"
holders() { pgrep -f -- "--hold-network $jobs_dir/net-" || true; }

# serve WS CONFIG: a background job serving WS on $port; its id in job, its
# output file in job_out; waits until it is listening (or 20 s)
serve() {
  run "$SLUICE" run -C "$1" --config "$2" --mode background --format json -- \
    "exec python3 -u -m http.server $port --bind 127.0.0.1"
  job=$(json_get "$out" 'd["jobId"]' 2>/dev/null) job_out=$(json_get "$out" 'd["outputFile"]' 2>/dev/null)
  wait_for 20 grep -q Serving "$job_out" 2>/dev/null
}

# --- 1. control: a network per run, the next run has nothing to reach
if serve "$ws_a" "$TEST_TMP/per-run.ini"; then
  not_ok "control (a network per run): the job serves" "it listened: $(cat "$job_out")"
else
  run "$SLUICE" run -C "$ws_a" --config "$TEST_TMP/per-run.ini" --format json -- "$fetch"
  [ "$rc" -ne 0 ] && ! grep -q "$token" <<<"$out" &&
    [ "$(json_get "$out" '"workspace-network" in d["sandbox"]["enforced"] + d["sandbox"]["missing"]')" = False ]
  report $? "control (workspace_network_idle = 0): a job's server is not reached by the next run (workspace-network not asked)" "$out" "$(cat "$job_out" 2>/dev/null)"
fi
"$SLUICE" kill "$job" >/dev/null 2>&1

# --- 2. the shared loopback: the job serves, the next run reaches it
serve "$ws_a" "$TEST_TMP/short.ini"
report $? "a background job binds and listens on the workspace's loopback" "$(cat "$job_out" 2>/dev/null)" "$out" "$err"
run "$SLUICE" run -C "$ws_a" --config "$TEST_TMP/short.ini" --format json -- "$fetch"
[ "$rc" -eq 0 ] && grep -q "$token" <<<"$out" &&
  [ "$(json_get "$out" '"workspace-network" in d["sandbox"]["enforced"]')" = True ]
report $? "the next run of the workspace reaches the job's server (curl localhost:PORT), workspace-network enforced" "$out" "$err"

# --- 3. nothing outside reaches it: the host, another workspace
run curl -sS -m 5 "http://127.0.0.1:$port/index.html"
[ "$rc" -ne 0 ] && ! grep -q "$token" <<<"$out"
report $? "the host's loopback does not reach the job's server" "rc=$rc" "$out" "$err"
run "$SLUICE" run -C "$ws_b" --config "$TEST_TMP/short.ini" --format json -- "$fetch"
[ "$rc" -ne 0 ] && ! grep -q "$token" <<<"$out" &&
  [ "$(json_get "$out" '"workspace-network" in d["sandbox"]["enforced"]')" = True ]
report $? "another workspace's run does not reach the job's server (its own network)" "$out" "$err"

# --- 4. it reaches nothing outside: a server on the host's loopback, a unix socket
echo "host-$token" >"$TEST_TMP/host.html"
host_port=$(free_port)
(cd "$TEST_TMP" && exec python3 -m http.server "$host_port" --bind 127.0.0.1 >/dev/null 2>&1) &
host_srv=$!
wait_for 20 curl -sf -o /dev/null "http://127.0.0.1:$host_port/host.html"
report $? "control: the host's loopback server answers outside the sandbox"
run "$SLUICE" run -C "$ws_a" --config "$TEST_TMP/short.ini" -- "curl -sS -m 5 http://127.0.0.1:$host_port/host.html"
[ "$rc" -ne 0 ] && ! grep -q "host-$token" <<<"$out"
report $? "a joined run does not reach a server on the host's loopback" "$out" "$err"
kill "$host_srv"
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8); time.sleep(60)' "$TEST_TMP/outside.sock" &
unix_srv=$!
wait_for 10 test -S "$TEST_TMP/outside.sock"
connect_unix='import socket, sys
try:
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print("connected")
except OSError as e: print("refused", e.errno)'
run python3 -c "$connect_unix" "$TEST_TMP/outside.sock"
[ "$out" = connected ]
report $? "control: a unix socket outside accepts a connection outside the sandbox" "$out"
run "$SLUICE" run -C "$ws_a" --config "$TEST_TMP/short.ini" -- "python3 -c '$connect_unix' '$TEST_TMP/outside.sock'"
[ "${out%% *}" = refused ]
report $? "a joined run connects to no unix socket outside (socket(AF_UNIX) refused)" "$out" "$err"
kill "$unix_srv"
# a datagram socket outside (/dev/log, the journal stand for it) is not
# reached through a datagram socketpair's sendto either (red team 51a, 6);
# a stream pair, which reaches only its other end, still works
python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1]); s.settimeout(20)
print(s.recv(100).decode(), flush=True)' "$TEST_TMP/outside-dgram.sock" >"$TEST_TMP/dgram-got" &
dgram_srv=$!
wait_for 10 test -S "$TEST_TMP/outside-dgram.sock"
send_dgram='import socket, sys
try:
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM); a.sendto(sys.argv[2].encode(), sys.argv[1]); print("sent")
except OSError as e: print("refused", e.errno)
c, d = socket.socketpair(); c.send(b"x"); print("stream pair", d.recv(1).decode())'
run "$SLUICE" run -C "$ws_a" --config "$TEST_TMP/short.ini" -- "python3 -c '$send_dgram' '$TEST_TMP/outside-dgram.sock' forged-in-sandbox"
boxed_out=$out
python3 -c "$send_dgram" "$TEST_TMP/outside-dgram.sock" forged-outside >/dev/null
wait "$dgram_srv"
grep -qx forged-outside "$TEST_TMP/dgram-got" && grep -q '^refused' <<<"$boxed_out" && grep -qx 'stream pair x' <<<"$boxed_out"
report $? "a joined run's datagram socketpair is refused (the datagram socket outside got only the unsandboxed control's), a stream pair works" \
  "$boxed_out" "$(cat "$TEST_TMP/dgram-got")"

# --- 5. the holder stays while the job lives, then leaves once idle
sleep 3
held=$(holders)
[ "$(wc -w <<<"$held")" -eq 1 ]
report $? "past the idle time, ws-b's holder (used by one run) has left, ws-a's (its job alive) stays" "$held"
sock=$(ls "$jobs_dir"/net-*.sock 2>/dev/null | head -1) # ws-a's, for step 6
[ -n "$(holders)" ] && run "$SLUICE" run -C "$ws_a" --config "$TEST_TMP/short.ini" -- "$fetch" && grep -q "$token" <<<"$out"
report $? "the job keeps its workspace's holder past the idle time" "$(holders)" "$out"
"$SLUICE" kill "$job" >/dev/null 2>&1
wait_for 15 test -z "$(holders)"
[ -z "$(holders)" ] && ! ls "$jobs_dir"/net-*.sock >/dev/null 2>&1 &&
  ! ls "$jobs_dir"/net-*.sock.lock >/dev/null 2>&1
report $? "once no job or run uses it, each holder leaves after the idle time and removes its socket and its lock file" "$(holders)" "$(ls "$jobs_dir")"

# --- 6. a dead holder's socket is never joined: a new holder is started
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$sock"
[ -S "$sock" ] && ! python3 -c "$connect_unix" "$sock" | grep -q connected
report $? "control: a dead holder's socket is left, refusing connections" "$sock"
serve "$ws_a" "$TEST_TMP/short.ini" &&
  run "$SLUICE" run -C "$ws_a" --config "$TEST_TMP/short.ini" -- "$fetch" && grep -q "$token" <<<"$out"
report $? "a run after a dead holder starts a new one (its socket replaced) and works" "$out" "$err"
"$SLUICE" kill "$job" >/dev/null 2>&1

# --- 7. another user's holder is never joined (as root: a holder run as sluicedev)
other=$(id -u sluicedev 2>/dev/null || id -u nobody)
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
  skip "another user's holder is not joined" "needs root and setpriv"
else
  # outside TEST_TMP (private to this user), where the other user can bind
  d=$(mktemp -d /tmp/sluice-other-holder.XXXXXX)
  chmod 0777 "$d"
  "$SLUICE_LAUNCH" --hold-network "$d/own.sock" --hold-idle 2s
  # the namespace the command is in, and the launcher's report
  in_net() { "$SLUICE_LAUNCH" --profile workspace-write --workspace "$ws_a" --network-holder "$1" \
    --report-fd 9 -- readlink /proc/self/ns/net 9>"$TEST_TMP/report"; }
  holder_net() { readlink "/proc/$(pgrep -f -- "--hold-network $1" | head -1)/ns/net"; }
  run in_net "$d/own.sock"
  [ "$out" = "$(holder_net "$d/own.sock")" ] && grep -q '"enforced":\[[^]]*"workspace-network"' "$TEST_TMP/report"
  report $? "control: the launcher joins its own user's holder" "$out" "$err" "$(cat "$TEST_TMP/report")"
  setpriv --reuid="$other" --regid="$other" --clear-groups -- "$SLUICE_LAUNCH" --hold-network "$d/other.sock" --hold-idle 2s
  run in_net "$d/other.sock"
  [ "$rc" -eq 0 ] && [ -n "$out" ] && [ "$out" != "$(holder_net "$d/other.sock")" ] &&
    grep -q '"missing":\[[^]]*"workspace-network"' "$TEST_TMP/report"
  report $? "the launcher does not join another user's holder: a network of its own, workspace-network missing" "rc=$rc" "$out" "$err" "$(cat "$TEST_TMP/report")"
  rm -rf "$d"
fi

# --- 8. no user namespaces: the run makes what it can and names what is missing
if ! fallback_works; then
  skip "fallback without user namespaces" "cannot make a child user namespace here (unshare -U -r, setpriv)"
elif ! fallback_err=$(fallback "$SLUICE" run -C "$ws_b" --sandbox unrestricted -- true 2>&1); then
  # e.g. as an ordinary user, the folders above the build show as the
  # overflow uid there, and sluice refuses to trust its plugins
  skip "fallback without user namespaces" "sluice does not run in the child user namespace: $(head -1 <<<"$fallback_err")"
else
  run fallback "$SLUICE" run -C "$ws_b" --config "$TEST_TMP/short.ini" --format json -- "echo ran"
  missing=$(json_get "$out" '" ".join(d["sandbox"]["missing"])' 2>/dev/null)
  [ "$(json_get "$out" 'd["stdout"]' 2>/dev/null)" = ran ] && [[ " $missing " == *" workspace-network "* ]]
  report $? "without user namespaces the run runs, and workspace-network is named missing" "missing: $missing" "$out" "$err"
fi
