#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Attacks on the egress proxy ([network] allow, docs/launcher.md "The
# egress proxy") from inside a sandboxed run, against local servers on the
# host's loopback (127.0.0.2 allowed, 127.0.0.3 not) that log every request
# they receive (egress_echo_http.py). Each attack is first sent to the
# server directly, outside the sandbox (the positive control: the server
# does act on it), then through the proxy, where it must not reach a host
# unjudged: a Host header naming another host than the request line
# (fronting), a second request on a kept-alive connection, a request
# smuggled after a body. Then what must keep working: curl with several
# URLs on one connection, bodies of both framings. Then the proxy killed
# while it relays: its connection ends with it, the run with its command.
# Last, another run's proxy in the workspace's shared network: refused
# without that run's credentials.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="attacks on the egress proxy"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
need_host_loopback
ws=$TEST_TMP/ws
mkdir -p "$ws"
port=$(free_port 127.0.0.2)
allowed_log=$TEST_TMP/allowed.log other_log=$TEST_TMP/other.log
touch "$allowed_log" "$other_log"
echo_server=$SLUICE_SRCDIR/tests/integration/egress_echo_http.py
python3 "$echo_server" 127.0.0.2 "$port" "$allowed_log" >/dev/null 2>&1 &
allowed_srv=$!
python3 "$echo_server" 127.0.0.3 "$port" "$other_log" >/dev/null 2>&1 &
other_srv=$!
trap 'kill "$allowed_srv" "$other_srv" 2>/dev/null; tap_end' EXIT
wait_for 30 curl -sf -o /dev/null "http://127.0.0.2:$port/up" &&
  wait_for 30 curl -sf -o /dev/null "http://127.0.0.3:$port/up"
report $? "control: both servers answer on the host's loopback, outside the sandbox"
printf '[network]\nallow = 127.0.0.2:%s\n' "$port" >"$TEST_TMP/allow.ini"

# boxed COMMAND: COMMAND in a sandboxed run with the allowlist, its output
# in output
boxed() {
  run "$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" --format json -- "$1"
  output=$(json_get "$out" 'd["output"]' 2>/dev/null)
}
# raw TEXT: TEXT (Python's escapes) sent over one connection to the proxy
# from inside the sandbox, with the run's credentials (from HTTP_PROXY) put
# after its first line unless RAW_BARE is set, everything the proxy
# answers in output (waiting 5 s, or raw.py's second argument, for more)
cat >"$ws/raw.py" <<'PY'
import base64, os, socket, sys, urllib.parse
proxy = urllib.parse.urlsplit(os.environ["HTTP_PROXY"])
s = socket.create_connection(("127.0.0.1", proxy.port))
text = sys.argv[1].encode().decode("unicode_escape")
if not os.environ.get("RAW_BARE"):
    creds = base64.b64encode(f"{proxy.username}:{proxy.password}".encode()).decode()
    first, sep, rest = text.partition("\r\n")
    text = f"{first}\r\nProxy-Authorization: Basic {creds}\r\n{rest}"
s.sendall(text.encode("latin-1"))
s.settimeout(float(sys.argv[2]) if len(sys.argv) > 2 else 5)
try:
    while data := s.recv(65536):
        sys.stdout.write(data.decode("latin-1"))
except socket.timeout:
    print("(the proxy kept the connection open)")
PY
raw() {
  boxed "python3 raw.py '$1'"
}
# direct TEXT: the same, to the allowed server itself, outside the sandbox
direct() {
  output=$(exec 3<>"/dev/tcp/127.0.0.2/$port" && printf "$1" >&3 && timeout 5 cat <&3)
}
# reached PATH HOST: the allowed server logged a request for PATH with
# Host: HOST
reached() { grep -q "^$1 $2 " "$allowed_log"; }

# --- 1. fronting: the request line names the allowed host, the Host header another
front="GET http://127.0.0.2:$port/front HTTP/1.1\r\nHost: other.example\r\n\r\n"
direct "${front/http:\/\/127.0.0.2:$port/}"
reached /front other.example
report $? "control: sent directly, the server takes the Host header a client writes" "$output"
: >"$allowed_log"
boxed "curl -sS -m 5 -H 'Host: other.example' http://127.0.0.2:$port/front"
! reached /front other.example && reached /front "127.0.0.2:$port"
report $? "a Host header naming another host is replaced by the host the proxy judged" \
  "$output" "$(cat "$allowed_log")"

# --- 2. a second request on a kept-alive connection
second="GET /second HTTP/1.1\r\nHost: other.example\r\n\r\n"
: >"$allowed_log"
direct "GET /first HTTP/1.1\r\nHost: 127.0.0.2\r\n\r\n$second"
reached /second other.example
report $? "control: sent directly, the server answers a second request on the same connection" "$output"
: >"$allowed_log"
raw "GET http://127.0.0.2:$port/first HTTP/1.1\r\nHost: 127.0.0.2:$port\r\nConnection: keep-alive\r\nProxy-Connection: keep-alive\r\n\r\n${second}GET http://127.0.0.3:$port/third HTTP/1.1\r\nHost: 127.0.0.3:$port\r\n\r\n"
reached /first "127.0.0.2:$port" && ! grep -q /second "$allowed_log" && ! grep -q /third "$allowed_log" &&
  ! grep -q /third "$other_log" && [ "$(grep -c '^HTTP/1.1 200' <<<"$output")" = 1 ]
report $? "a second request on the connection reaches no server (the connection closes after the first answer)" \
  "$output" "allowed: $(cat "$allowed_log")" "other: $(cat "$other_log")"

# --- 3. a request smuggled after a body, of either framing
: >"$allowed_log"
raw "POST http://127.0.0.2:$port/body HTTP/1.1\r\nHost: 127.0.0.2:$port\r\nContent-Length: 5\r\n\r\nhello${second}"
reached /body "127.0.0.2:$port" && grep -q '^/body .* 5$' "$allowed_log" && ! grep -q /second "$allowed_log"
report $? "a request after a Content-Length body reaches no server; the body does" \
  "$output" "$(cat "$allowed_log")"
: >"$allowed_log"
raw "POST http://127.0.0.2:$port/chunked HTTP/1.1\r\nHost: 127.0.0.2:$port\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n${second}"
grep -q '^/chunked .* 5$' "$allowed_log" && ! grep -q /second "$allowed_log"
report $? "a request after a chunked body reaches no server; the body does" \
  "$output" "$(cat "$allowed_log")"
raw "POST http://127.0.0.2:$port/both HTTP/1.1\r\nHost: 127.0.0.2:$port\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
! grep -q /both "$allowed_log" && grep -q '400 Bad Request' <<<"$output" &&
  grep -q 'both Content-Length and Transfer-Encoding' <<<"$output"
report $? "a request with two framings (Content-Length and chunked) is refused with 400 naming them" \
  "$output" "$(cat "$allowed_log")"

# --- 3b. headers hidden in the request target: a vertical tab ends the
# target for a server that splits on any white space, a bare LF ends the
# line for one that reads lines by LF
: >"$allowed_log"
direct "GET /vt\vHTTP/1.1\nHost:internal.example\nX: HTTP/1.1\r\n\r\n"
reached /vt internal.example
report $? "control: sent directly, the server reads a Host header hidden after a vertical tab and a bare LF" \
  "$output" "$(cat "$allowed_log")"
: >"$allowed_log"
raw "GET http://127.0.0.2:$port/vt\x0bHTTP/1.1\nHost:internal.example\nX: HTTP/1.1\r\n\r\n"
! grep -q /vt "$allowed_log" && grep -q '400 Bad Request' <<<"$output" &&
  grep -q 'request target holds white space' <<<"$output"
report $? "a request target holding a vertical tab and a bare LF is refused with 400, and reaches no server" \
  "$output" "$(cat "$allowed_log")"

# --- 4. what must keep working
: >"$allowed_log"
head -c 100000 /dev/zero >"$ws/upload"
boxed "curl -sS -m 10 http://127.0.0.2:$port/one http://127.0.0.2:$port/two &&
  curl -sS -m 10 --data-binary @upload http://127.0.0.2:$port/post &&
  curl -sS -m 10 -H 'Transfer-Encoding: chunked' --data-binary @upload http://127.0.0.2:$port/chunked-post"
[ "$(json_get "$out" 'd["exitCode"]')" = 0 ] && grep -q "^/one 127.0.0.2:$port 0" <<<"$output" &&
  grep -q "^/two 127.0.0.2:$port 0" <<<"$output" && grep -q "^/post .* 100000$" <<<"$output" &&
  grep -q "^/chunked-post .* 100000$" <<<"$output"
report $? "curl through the proxy: two URLs in one call, a body of each framing" "$output" "$(cat "$allowed_log")"

# --- 5. the proxy's end: its connections end with it, the run is not disturbed
# A tunnel held open; the proxy (the parent of the process connected to
# the allowed server) killed from outside.
"$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" --format json -- \
  "python3 raw.py 'CONNECT 127.0.0.2:$port HTTP/1.1\r\nHost: 127.0.0.2:$port\r\n\r\n' 60; echo exit=\$?" \
  >"$TEST_TMP/held.json" 2>&1 &
held_run=$!
# connection_pid: the run's process serving a connection: a sluice-launch
# in its parent's process group (the proxy's own), two levels below the
# launcher (run -> launcher -> proxy -> connection). The launcher's init is
# in its parent's group too, but one level below it; before the init has
# forked the command it has no child either, so depth tells them apart.
# Not found by its socket (ss -p): the proxy is not dumpable, so that an
# ordinary user cannot read its /proc/PID/fd.
connection_pid() {
  ps -e -o pid=,ppid=,pgid=,comm= | awk -v root="$held_run" '
    { pid[NR] = $1; ppid[$1] = $2; pgid[$1] = $3; comm[$1] = $4; kids[$2]++ }
    END {
      for (i in pid) {
        p = pid[i]
        proxy = ppid[p]; launcher = ppid[proxy]
        if (comm[p] == "sluice-launch" && pgid[p] == proxy && !kids[p] &&
            comm[launcher] == "sluice-launch" && ppid[launcher] == root) { print p; exit }
      }
    }'
}
connected() { [ -n "$(connection_pid)" ]; }
wait_for 50 connected
connection=$(connection_pid)
proxy=
[ -n "$connection" ] && proxy=$(ps -o ppid= -p "$connection" | tr -d ' ')
[ -n "$proxy" ] && [ "$(ps -o comm= -p "$proxy")" = sluice-launch ] &&
  [ "$(ps -o comm= -p "$connection")" = sluice-launch ]
report $? "control: the tunnel's connection is a child of the proxy, a sluice-launch process" \
  "connection=$connection proxy=$proxy" "$(ps -e -o pid,ppid,pgid,comm 2>&1 | grep sluice)"
t0=$EPOCHREALTIME
[ -n "$proxy" ] && kill -KILL "$proxy"
wait "$held_run"
out=$(cat "$TEST_TMP/held.json")
secs=$(python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.1f}")' "$t0" "$EPOCHREALTIME")
[ -n "$connection" ] && wait_for 5 gone "$connection" && grep -q 'Connection established' <<<"$out" &&
  ! grep -q 'kept the connection open' <<<"$out" &&
  grep -q 'exit=0' <<<"$out" && [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] &&
  [ "$(json_get "$out" 'd["backgroundPids"]')" = "[]" ] &&
  python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < 20 else 1)' "$secs"
report $? "the proxy killed: its connection ends with it, the run ends at once (${secs}s) with the command's own status" \
  "$out" "$([ -n "$connection" ] && ps -o pid,ppid,comm -p "$connection" 2>&1)"

# --- 6. another run's proxy: the runs and jobs of a workspace share its
# network namespace, so a process of one reaches the proxy of another,
# whose allowlist may be wider (a --config of its own) and whose record
# would take the request as its own. Each proxy asks for its run's
# credentials, which only that run's environment holds.
RAW_BARE=1 boxed "RAW_BARE=1 python3 raw.py 'GET http://127.0.0.2:$port/bare HTTP/1.1\r\nHost: 127.0.0.2:$port\r\n\r\n'"
grep -q '^HTTP/1.1 407 ' <<<"$output" && grep -q 'Proxy-Authenticate: Basic' <<<"$output" &&
  [ "$(json_get "$out" '[(c["verdict"], c["reason"]) for c in d["network"]]')" = "[('refused', 'not-this-run')]" ]
report $? "a request without the run's credentials is refused (407), recorded as not-this-run" "$output" "$out"
rm -f "$ws/.proxy" "$ws/.done"
"$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" --format json --timeout 60s -- \
  'echo "$HTTP_PROXY" >.proxy; for i in $(seq 300); do [ -e .done ] && break; sleep 0.1; done' \
  >"$TEST_TMP/other-run.json" 2>&1 &
other_run=$!
wait_for 30 test -s "$ws/.proxy"
other=$(cat "$ws/.proxy")
# the control: with that run's credentials, a run of the workspace without
# the allowlist reaches the host through it
run "$SLUICE" run -C "$ws" --format json -- "curl -sS -m 5 -o /dev/null -w '%{http_code}' -x '$other' http://127.0.0.2:$port/index.html"
[ "$(json_get "$out" 'd["stdout"]')" = 200 ] && reached /index.html "127.0.0.2:$port"
report $? "control: another run's proxy, with its credentials, serves a run of the workspace without the allowlist" "$out"
run "$SLUICE" run -C "$ws" --format json -- \
  "curl -sS -m 5 -o /dev/null -w '%{http_code}' -x 'http://127.0.0.1:${other##*:}' http://127.0.0.2:$port/index.html; curl -sS -m 5 -o /dev/null -w ' %{http_code}' -x 'http://sluice:0123456789abcdef0123456789abcdef@127.0.0.1:${other##*:}' http://127.0.0.2:$port/index.html"
[ "$(json_get "$out" 'd["stdout"]')" = "407 407" ]
report $? "another run's proxy refuses a process without its credentials, or with a guess" "$out"
touch "$ws/.done"
wait "$other_run"
