#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The egress proxy's connections in the audit line and the JSON result
# ([network] allow, docs/configuration.md "[network]" and "[audit]"): local
# servers on the host's loopback (127.0.0.2 allowed, 127.0.0.3 not). An
# allowed fetch and a refused one in one run, each with its verdict, reason
# and bytes; no key without an allowlist; a tunnel that goes silent after a
# burst and is cut by the run's end still shows the burst. Then the audit channel cannot be
# forged from inside: first the positive control (a record written into the
# channel from outside, through the broker's descriptor, does reach the
# audit line), then a command that writes the same record to every
# descriptor it has and to /proc/self/fd, and does not change it.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the egress proxy's audit records"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
need_host_loopback
ws=$TEST_TMP/ws
mkdir -p "$ws"
token="egress-audit-$RANDOM$RANDOM"
mkdir -p "$TEST_TMP/www"
head -c 20000 /dev/zero | tr '\0' x >"$TEST_TMP/www/big.txt"
echo "$token" >"$TEST_TMP/www/index.html"
serve_on_host_loopback "$TEST_TMP/www"
report $? "control: both servers answer on the host's loopback, outside the sandbox"

audit=$TEST_TMP/audit.log
printf '[sandbox]\nworkspace_network_idle = 0\n[network]\nallow = 127.0.0.2:%s\n[audit]\nfile = %s\n' \
  "$port" "$audit" >"$TEST_TMP/allow.ini"
printf '[audit]\nfile = %s\n' "$audit" >"$TEST_TMP/none.ini"
# last_network EXPR: a Python expression on the last audit line's d
last_line() { json_get "$(tail -n 1 "$audit")" "$1"; }

# --- 1. an allowed fetch and a refused one, in one run
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" --format json -- \
  "curl -sS -m 5 -p -o /dev/null http://127.0.0.2:$port/big.txt; curl -sS -m 5 -p http://127.0.0.3:$port/index.html"
net=$(last_line 'json.dumps(d["network"])')
[ "$(json_get "$net" 'len(d)')" = 2 ] &&
  [ "$(json_get "$net" '[d[0][k] for k in ("host", "port", "kind", "verdict", "reason")]')" = "['127.0.0.2', $port, 'tunnel', 'allowed', None]" ] &&
  [ "$(json_get "$net" 'd[0]["bytesDown"] > 20000 and d[0]["bytesUp"] > 0')" = True ] &&
  [ "$(json_get "$net" '[d[1][k] for k in ("host", "port", "kind", "verdict", "reason", "bytesDown")]')" = "['127.0.0.3', $port, 'tunnel', 'refused', 'not-listed', 0]" ] &&
  [ "$(json_get "$net" 'all(isinstance(c["durationMs"], int) for c in d)')" = True ]
report $? "the audit line lists the allowed fetch (with its bytes) and the refused host (not-listed)" "$net" "$out" "$err"
[ "$(json_get "$out" 'json.dumps(d["network"])')" = "$net" ]
report $? "the JSON result carries the same network list" "$out" "$net"
[ "$(last_line '"networkDropped" in d')" = False ]
report $? "nothing dropped: no networkDropped key" "$(tail -n 1 "$audit")"

# The record before the answer: a client refused ends on its 403 (curl,
# and the command with it), the run then ends and its proxy is killed; the
# record must be written before the answer, or the run finds it missing
# and counts the connection dropped. slow-writes holds every record write
# (pwrite) 600 ms, wider than any machine's gap between the two.
slow_launcher 600
t0=$(date +%s%N)
run env SLUICE_LAUNCH="$TEST_TMP/slow-launch" "$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" \
  --format json -- "curl -sS -m 10 -p http://127.0.0.3:$port/index.html"
ms=$((($(date +%s%N) - t0) / 1000000))
net=$(last_line 'json.dumps(d.get("network"))')
[ "$ms" -ge 600 ] && [ "$(last_line 'd.get("networkDropped")')" = None ] &&
  [ "$(json_get "$net" '[(c["host"], c["verdict"], c["reason"]) for c in d]')" = "[('127.0.0.3', 'refused', 'not-listed')]" ]
report $? "a refused connection's record is written before the client hears why: with record writes held, the run still finds it" \
  "${ms} ms" "$net" "$(tail -n 1 "$audit")" "$out" "$err"
slow_launcher_stop

# plain HTTP, and a request that is not a proxy's (no absolute URI)
# (scripts in files: the policies ask about what they cannot read)
cat >"$ws/bad-request.sh" <<EOS
curl -sS -m 5 -o /dev/null http://127.0.0.2:$port/index.html
exec 3<>/dev/tcp/127.0.0.1/\${HTTP_PROXY##*:} && printf 'GET / HTTP/1.1\r\n\r\n' >&3 && cat <&3
EOS
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" --format json -- "bash bad-request.sh"
net=$(last_line 'json.dumps(d["network"])')
[ "$(json_get "$net" '[(c["kind"], c["verdict"], c["reason"]) for c in d]')" = "[('http', 'allowed', None), ('unknown', 'refused', 'bad-request')]" ]
report $? "a plain-HTTP fetch is recorded as http, a request the proxy cannot read as bad-request" "$net" "$out"

# --- 2. no allowlist, no key
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/none.ini" --format json -- "true"
[ "$(last_line '"network" in d')" = False ] && [ "$(json_get "$out" '"network" in d')" = False ]
report $? "without [network] allow, neither the audit line nor the result has a network key" "$(tail -n 1 "$audit")"

# --- 3. a burst, then silence until the run is cut: the record has the
# burst (an idle tunnel's record is brought up to date, not only when bytes
# pass). The server sends 30,000 bytes at once and holds the connection;
# the command reads them and holds its end open until the run's timeout
# kills it, the proxy and the connection at once.
hold_port=$(free_port 127.0.0.2)
python3 -c '
import socket, sys, threading, time
def serve(c):
    c.sendall(b"x" * 30000); time.sleep(30); c.close()
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.2", int(sys.argv[1]))); s.listen(4)
while True:
    threading.Thread(target=serve, args=(s.accept()[0],), daemon=True).start()
' "$hold_port" &
hold_srv=$!
trap 'kill "$allowed_srv" "$other_srv" "$hold_srv" 2>/dev/null; tap_end' EXIT
printf '[sandbox]\nworkspace_network_idle = 0\n[network]\nallow = 127.0.0.2:%s\n[audit]\nfile = %s\n' \
  "$hold_port" "$audit" >"$TEST_TMP/hold.ini"
cat >"$ws/burst.sh" <<'EOS'
exec 3<>"/dev/tcp/127.0.0.1/${HTTP_PROXY##*:}"
creds=${HTTP_PROXY#http://}
creds=$(printf %s "${creds%@*}" | base64 -w0)
printf 'CONNECT 127.0.0.2:%s HTTP/1.1\r\nHost: 127.0.0.2:%s\r\nProxy-Authorization: Basic %s\r\n\r\n' "$1" "$1" "$creds" >&3
IFS= read -r status <&3 && echo "proxy: $status"
while IFS= read -r line <&3 && [ "$line" != $'\r' ]; do :; done
echo "read $(head -c 30000 <&3 | wc -c) bytes"
sleep 30
EOS
wait_for 20 python3 -c 'import socket,sys; socket.create_connection(("127.0.0.2", int(sys.argv[1])), 1)' "$hold_port" 2>/dev/null
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/hold.ini" --format json --timeout 3s -- "bash burst.sh $hold_port"
net=$(last_line 'json.dumps(d["network"])')
grep -q 'read 30000 bytes' <<<"$out" && [ "$(json_get "$out" 'd["error"]["kind"]')" = timeout ] &&
  [ "$(json_get "$net" '[(c["verdict"], c["reason"], c["bytesDown"] >= 30000) for c in d]')" = "[('allowed', 'unfinished', True)]" ]
report $? "a burst followed by silence until the run's timeout: the record counts the burst (30,000 bytes down)" \
  "$net" "$out" "$err"

# --- 4. forging a record
forged="forged.example.org 443 tunnel allowed - 7 7 7"
# the slot's text: the record, then NUL bytes to 512
printf '%s\n' "$forged" | dd of="$TEST_TMP/forged.slot" bs=512 conv=sync status=none

# positive control: the record written into the channel from outside, by
# the broker's descriptor, over the first connection's slot, reaches the line
rm -f "$ws/fetched" "$ws/go"
"$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" --format json -- \
  "curl -sS -m 5 -p -o /dev/null http://127.0.0.2:$port/index.html; touch fetched; while [ ! -e go ]; do sleep 0.05; done" \
  >"$TEST_TMP/control.json" 2>&1 &
broker=$!
channel=
if wait_for 20 test -e "$ws/fetched"; then
  for fd in /proc/$broker/fd/*; do
    [ "$(readlink "$fd")" = "/memfd:sluice-egress-audit (deleted)" ] && channel=$fd
  done
fi
[ -n "$channel" ] && dd if="$TEST_TMP/forged.slot" of="$channel" bs=512 seek=1 conv=notrunc status=none
touch "$ws/go"
wait "$broker"
[ -n "$channel" ] && [ "$(last_line '[c["host"] for c in d["network"]]')" = "['forged.example.org']" ]
report $? "positive control: a record written into the broker's audit channel from outside reaches the audit line" \
  "channel: ${channel:-not found among $(ls -l /proc/$broker/fd 2>&1)}" "$(tail -n 1 "$audit")" "$(cat "$TEST_TMP/control.json")"

# the attack: from inside, the same record to every descriptor (at its
# offset, and where a write puts it) and /proc/self/fd entry, and a look for
# the channel
cp "$TEST_TMP/forged.slot" "$ws/forged.slot"
cat >"$ws/forge.sh" <<'EOS'
curl -sS -m 5 -p -o /dev/null "http://127.0.0.2:$1/index.html"
for fd in $(seq 3 50) $(ls /proc/self/fd); do
  [ "$fd" -ge 3 ] || continue
  case $(readlink "/proc/self/fd/$fd" 2>/dev/null) in *memfd*) echo "channel found: $fd" ;; esac
  dd if=forged.slot of="/proc/self/fd/$fd" bs=512 seek=1 conv=notrunc status=none 2>/dev/null
  cat forged.slot 2>/dev/null >&"$fd"
done
echo forging done
EOS
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" --format json -- "bash forge.sh $port"
grep -q 'forging done' <<<"$out" && ! grep -q 'channel found' <<<"$out" &&
  [ "$(last_line '[(c["host"], c["verdict"]) for c in d["network"]]')" = "[('127.0.0.2', 'allowed')]" ]
report $? "a command that writes a forged record to every descriptor and /proc/self/fd entry does not change the audit line" \
  "$out" "$(tail -n 1 "$audit")"
