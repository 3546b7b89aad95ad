#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# "Allow HOST for this session": a host not in [network] allow put to the
# approver ([approval] method = program, [network] ask; docs/launcher.md
# "Asking about a host not on the list"). Local servers on the host's
# loopback (127.0.0.2 on the list, 127.0.0.3 not). First the control that
# without an approver the host is refused at once and nobody is asked;
# then that an internal address's IP literal (loopback, link-local,
# private) is never asked about unless [network] ask_internal = yes, while
# a public one is; then, with ask_internal = yes (the local servers are
# internal addresses), an approver that says yes (fetched, recorded "approved", asked once
# for two connections), one that says no (403 naming the host, recorded,
# not asked again), one that never answers (refused at its timeout, and
# at the run's timeout when that comes first, the run not held past it),
# the cap on the questions of a run, [network] ask = no, and a command
# that tries to put a question or an answer of its own. Last, under
# `sluice mcp`, the person at a client that can be asked (elicitation):
# asked even with no approver configured, accept, decline, and a host
# allowed for the rest of the session.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="asking about a host not on the egress allowlist"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
need_host_loopback
ws=$TEST_TMP/ws
mkdir -p "$ws"
token="egress-ask-$RANDOM$RANDOM"
mkdir -p "$TEST_TMP/www"
echo "$token" >"$TEST_TMP/www/index.html"
serve_on_host_loopback "$TEST_TMP/www"
report $? "control: both servers answer on the host's loopback, outside the sandbox"

audit=$TEST_TMP/audit.log
calls=$TEST_TMP/calls
# approver NAME BODY: an approver program that counts its calls in $calls,
# keeps the request it read, then does BODY
approver() {
  printf '#!/bin/sh\ncat >"%s/%s.request"\necho call >>"%s"\n%s\n' \
    "$TEST_TMP" "$1" "$calls" "$2" >"$TEST_TMP/$1"
  chmod 755 "$TEST_TMP/$1"
}
approver yes 'exit 0'
approver no 'exit 1'
approver silent 'exec sleep 600'
# system NAME [INI...]: a system layer in $TEST_TMP/etc-NAME with the list,
# the audit log and the lines given (the approver is a system-only key)
system() {
  local name=$1
  shift
  mkdir -p "$TEST_TMP/etc-$name/sluice"
  printf '[sandbox]\nworkspace_network_idle = 0\n[network]\nallow = 127.0.0.2:%s\n%b[audit]\nfile = %s\n' \
    "$port" "$*" "$audit" >"$TEST_TMP/etc-$name/sluice/sluice.ini"
}
system deny ''
# the local servers are internal addresses: asked about only with ask_internal
internal="ask_internal = yes\n"
system yes "$internal[approval]\nmethod = program\nprogram = $TEST_TMP/yes\n"
system no "$internal[approval]\nmethod = program\nprogram = $TEST_TMP/no\n"
system silent "$internal[approval]\nmethod = program\nprogram = $TEST_TMP/silent\ntimeout = 2s\n"
system silent_long "$internal[approval]\nmethod = program\nprogram = $TEST_TMP/silent\ntimeout = 60s\n"
system guarded "[approval]\nmethod = program\nprogram = $TEST_TMP/no\n"
system forbidden "[network]\nask = no\n[approval]\nmethod = program\nprogram = $TEST_TMP/yes\n"
# as_system NAME CMD...: run sluice with that system layer
as_system() {
  local name=$1
  shift
  SLUICE_SYSCONFDIR="$TEST_TMP/etc-$name" "$@"
}
last_line() { json_get "$(tail -n 1 "$audit")" "$1"; }
fetch_other="curl -sS -m 20 -p http://127.0.0.3:$port/index.html; curl -sS -m 20 http://127.0.0.3:$port/index.html"

# "At once" is under 10 s, half of curl's -m 20 that a held connection would
# wait out: a loaded machine takes seconds for what takes 0.2 s when quiet.
# --- 1. control: no approver ([approval] method = deny, the default): 403 at once, nobody asked
rm -f "$calls"
timed as_system deny "$SLUICE" run -C "$ws" --format json -- "$fetch_other"
! grep -q "$token" <<<"$out" && grep -q "refused 127.0.0.3:$port: it is not in \[network\] allow (an administrator can add it there)\\\\n" <<<"$out" &&
  under 10 && [ ! -e "$calls" ] &&
  [ "$(last_line '[(c["verdict"], c["reason"]) for c in d["network"]]')" = "[('refused', 'not-listed'), ('refused', 'not-listed')]" ] &&
  [ "$(last_line '"networkAsks" in d')" = False ]
report $? "control: without an approver a host not on the list is refused at once (${secs}s) as before, and nobody is asked" \
  "$out" "$err" "$(tail -n 1 "$audit")"

# --- 1b. an internal address's IP literal is not asked about (no ask_internal):
# the host's loopback, the cloud metadata address, IPv6 loopback, a private
# network, an IPv4-mapped spelling; --noproxy '' as a command steered to the
# host's own services would pass (NO_PROXY names 127.0.0.1 and ::1)
rm -f "$calls"
internal_urls="http://127.0.0.3:$port/index.html http://169.254.169.254/latest/meta-data/ http://[::1]:$port/ http://10.1.2.3/ http://[::ffff:127.0.0.3]:$port/index.html"
timed as_system guarded "$SLUICE" run -C "$ws" --format json -- \
  "for u in $internal_urls; do curl -sS -g -m 20 --noproxy '' \$u; done; curl -sS -m 20 -p --noproxy '' http://127.0.0.3:$port/index.html"
! grep -q "$token" <<<"$out" && under 10 && [ ! -e "$calls" ] &&
  grep -q "refused 169.254.169.254:80: it is not in \[network\] allow, and it is an internal address (link-local 169.254.0.0/16 (cloud metadata)), which is never put to the approver: only an administrator can open it, by writing it in \[network\] allow\\\\n" <<<"$out" &&
  grep -q "refused \[::1\]:$port: .* internal address (loopback ::1)" <<<"$out" &&
  grep -q "refused \[::ffff:127.0.0.3\]:$port: .* internal address (loopback 127.0.0.0/8)" <<<"$out" &&
  [ "$(json_get "$out" '[(c["host"], c["kind"], c["verdict"], c["reason"]) for c in d["network"]]')" = "[('127.0.0.3', 'http', 'refused', 'internal-address'), ('169.254.169.254', 'http', 'refused', 'internal-address'), ('::1', 'http', 'refused', 'internal-address'), ('10.1.2.3', 'http', 'refused', 'internal-address'), ('::ffff:127.0.0.3', 'http', 'refused', 'internal-address'), ('127.0.0.3', 'tunnel', 'refused', 'internal-address')]" ] &&
  [ "$(last_line '"networkAsks" in d')" = False ]
report $? "without ask_internal, 127.0.0.3, 169.254.169.254, [::1], 10.1.2.3 and [::ffff:127.0.0.3] are refused at once (${secs}s) as internal addresses only [network] allow opens, and the approver is never called" \
  "$out" "$err" "calls: $(cat "$calls" 2>&1)"
# positive control: the same configuration puts a public address off the
# list to the approver (who says no: nothing is connected to)
rm -f "$calls"
run as_system guarded "$SLUICE" run -C "$ws" --format json -- "curl -sS -m 20 --noproxy '' http://93.184.215.14/"
[ "$(wc -l <"$calls" 2>/dev/null)" = 1 ] &&
  grep -q "refused 93.184.215.14:80: it is not in \[network\] allow (an administrator can add it there); asked to allow it for this session, the approver said no" <<<"$out" &&
  [ "$(json_get "$(cat "$TEST_TMP/no.request")" '(d["kind"], d["host"], d["port"])')" = "('network', '93.184.215.14', 80)" ] &&
  [ "$(json_get "$out" '[(c["host"], c["reason"]) for c in d["network"]]')" = "[('93.184.215.14', 'asked-no')]" ]
report $? "positive control: in the same configuration a public IP address off the list is put to the approver" \
  "$out" "$err" "calls: $(cat "$calls" 2>&1)"
# with ask_internal = yes the cloud metadata address is put to the approver
rm -f "$calls"
run as_system no "$SLUICE" run -C "$ws" --format json -- "curl -sS -m 20 http://169.254.169.254/latest/meta-data/"
[ "$(wc -l <"$calls" 2>/dev/null)" = 1 ] &&
  [ "$(json_get "$out" '[(c["host"], c["reason"]) for c in d["network"]]')" = "[('169.254.169.254', 'asked-no')]" ]
report $? "[network] ask_internal = yes: 169.254.169.254 is put to the approver" "$out" "$err"
# user_layer_refused SYSTEM LINE STDERR_PATTERN: 0 when the user's file
# with [network] LINE added makes a run under that system layer a
# config_error whose message matches the pattern (the file restored after)
user_ini=$XDG_CONFIG_HOME/sluice/sluice.ini
cp "$user_ini" "$TEST_TMP/user.ini.orig"
user_layer_refused() {
  printf '[network]\n%s\n' "$2" >>"$user_ini"
  run as_system "$1" "$SLUICE" run -C "$ws" --format json -- true
  cp "$TEST_TMP/user.ini.orig" "$user_ini"
  [ "$(json_get "$out" 'd["error"]["kind"]')" = config_error ] && grep -q "$3" <<<"$err"
}
# a user layer cannot turn ask_internal on
user_layer_refused guarded 'ask_internal = yes' "'ask_internal' in \[network\] is read only from the system configuration"
report $? "a user layer cannot set [network] ask_internal" "$out" "$err"

# --- 2. an approver that says yes: fetched through the proxy, asked once for both connections
rm -f "$calls"
run as_system yes "$SLUICE" run -C "$ws" --format json -- "$fetch_other"
[ "$(json_get "$out" 'd["exitCode"]')" = 0 ] &&
  [ "$(grep -o "$token" <<<"$(json_get "$out" 'd["stdout"]')" | wc -l)" -eq 2 ] &&
  [ "$(wc -l <"$calls")" -eq 1 ] &&
  [ "$(json_get "$out" '[(c["host"], c["kind"], c["verdict"], c["reason"]) for c in d["network"]]')" = "[('127.0.0.3', 'tunnel', 'approved', 'asked-yes'), ('127.0.0.3', 'http', 'approved', 'asked-yes')]" ]
report $? "an approver that says yes: the host is fetched twice through the proxy (CONNECT and plain HTTP), recorded 'approved', and asked once" \
  "$out" "$err" "calls: $(cat "$calls" 2>&1)"
req=$(cat "$TEST_TMP/yes.request")
[ "$(json_get "$req" '(d["kind"], d["host"], d["port"], d["command"], d["verdict"])')" = "('network', '127.0.0.3', $port, '$fetch_other', 'ask')" ]
report $? "the approver's request says it is a network ask: kind, host, port and the run's command" "$req"
[ "$(last_line '[(a["host"], a["port"], a["answer"], a["by"]) for a in d["networkAsks"]]')" = "[('127.0.0.3', $port, 'asked-yes', 'program')]" ]
report $? "the audit line says who answered the ask" "$(tail -n 1 "$audit")"

# --- 3. an approver that says no: 403 naming the host and the key, not asked again
rm -f "$calls"
run as_system no "$SLUICE" run -C "$ws" --format json -- "$fetch_other"
! grep -q "$token" <<<"$out" && grep -q 'CONNECT tunnel failed, response 403' <<<"$out" &&
  grep -q "refused 127.0.0.3:$port: it is not in \[network\] allow (an administrator can add it there); asked to allow it for this session, the approver said no" <<<"$out" &&
  [ "$(wc -l <"$calls")" -eq 1 ] &&
  [ "$(json_get "$out" '[(c["verdict"], c["reason"]) for c in d["network"]]')" = "[('refused', 'asked-no'), ('refused', 'asked-no')]" ] &&
  [ "$(last_line '[(a["answer"], a["by"]) for a in d["networkAsks"]]')" = "[('asked-no', 'program')]" ]
report $? "an approver that says no: 403 naming the host, [network] allow and the answer, recorded 'asked-no', the second connection not asked again" \
  "$out" "$err" "calls: $(cat "$calls" 2>&1)" "$(tail -n 1 "$audit")"

# --- 4. an approver that never answers: refused at its timeout, the run not held past it
rm -f "$calls"
timed as_system silent "$SLUICE" run -C "$ws" --format json -- "curl -sS -m 30 http://127.0.0.3:$port/index.html; echo after"
! grep -q "$token" <<<"$out" && grep -q 'nobody answered in time' <<<"$out" && grep -q after <<<"$out" &&
  under 15 && [ "$(json_get "$out" 'd["timedOut"]')" = False ] &&
  [ "$(json_get "$out" '[(c["verdict"], c["reason"]) for c in d["network"]]')" = "[('refused', 'ask-timeout')]" ] &&
  [ "$(json_get "$out" 'd["backgroundPids"]')" = "[]" ]
report $? "an approver that never answers: refused at its 2s timeout (run ${secs}s), recorded 'ask-timeout', nothing left behind" \
  "$out" "$err"
# the run's timeout comes before the approver's: the question ends with the run
timed as_system silent_long "$SLUICE" run -C "$ws" --timeout 3s --format json -- "curl -sS -m 30 -p http://127.0.0.3:$port/index.html"
! grep -q "$token" <<<"$out" && under 20 && [ "$(json_get "$out" 'd["timedOut"]')" = True ] &&
  [ "$(json_get "$out" 'd["backgroundPids"]')" = "[]" ] &&
  ! pgrep -f "$TEST_TMP/silent" >/dev/null
report $? "an approver with 60s, a run with 3s: the run ends at its timeout (${secs}s), the approver with it" \
  "$out" "$err" "$(pgrep -af "$TEST_TMP/silent")"

# --- 5. the cap on a run's questions: 8 hosts asked, the 9th refused without asking
rm -f "$calls"
ports=$(python3 -c 'import sys; p = int(sys.argv[1]); print(" ".join(str((p + i) % 60000 + 1024) for i in range(1, 10)))' "$port")
run as_system no "$SLUICE" run -C "$ws" --format json -- \
  "for p in $ports; do curl -s -m 20 -o /dev/null -p http://127.0.0.3:\$p/; done"
[ "$(wc -l <"$calls")" -eq 8 ] &&
  [ "$(json_get "$out" '[c["reason"] for c in d["network"]]')" = "['asked-no', 'asked-no', 'asked-no', 'asked-no', 'asked-no', 'asked-no', 'asked-no', 'asked-no', 'ask-limit']" ]
report $? "nine hosts in one run: eight are put to the approver, the ninth refused 'ask-limit' without asking" \
  "$out" "calls: $(wc -l <"$calls" 2>&1)"

# --- 6. an administrator forbids the ask: [network] ask = no
rm -f "$calls"
timed as_system forbidden "$SLUICE" run -C "$ws" --format json -- "$fetch_other"
! grep -q "$token" <<<"$out" && under 10 && [ ! -e "$calls" ] &&
  [ "$(json_get "$out" '[c["reason"] for c in d["network"]]')" = "['not-listed', 'not-listed']" ]
report $? "[network] ask = no: refused at once (${secs}s) although an approver is configured" "$out" "$err"
# a user layer cannot turn it back on
user_layer_refused forbidden 'ask = yes' "'ask' in \\[network\\] is set by the system configuration ($TEST_TMP/etc-forbidden/sluice/sluice.ini:[0-9]*) and cannot be changed here"
report $? "a user layer cannot set [network] ask once the system layer did" "$out" "$err"

# --- 7. a question or an answer of the command's own
cat >"$TEST_TMP/forge.py" <<'EOS'
import os, socket, sys
# one question, "sluice-egress-ask/1 HOST PORT KIND", with an answer pipe
question = b"sluice-egress-ask/1 forged.example.org 443 tunnel\n"
held = sorted(int(fd) for fd in os.listdir("/proc/self/fd") if int(fd) >= 3)
r, w = os.pipe()
sent = []
for fd in held:
    try:
        s = socket.socket(fileno=os.dup(fd))
    except OSError:
        continue
    try:
        s.sendmsg([question], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, w.to_bytes(4, sys.byteorder))])
        sent.append(fd)
        # an answer of its own, too, on the same descriptor
        s.send(b"asked-yes\n")
    except OSError:
        pass
    s.close()
print("sent on", sent)
EOS
# positive control: the script does put a question on an ask channel it holds
python3 - "$TEST_TMP/forge.py" <<'EOS' >"$TEST_TMP/control.out" 2>&1
import os, socket, subprocess, sys
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
os.dup2(b.fileno(), 9)
subprocess.run([sys.executable, sys.argv[1]], pass_fds=[9], check=True)
msg, anc, flags, addr = a.recvmsg(256, socket.CMSG_SPACE(4))
print("received", msg, len(anc))
EOS
grep -q "sent on \[9\]" "$TEST_TMP/control.out" && grep -q "received b'sluice-egress-ask/1 forged.example.org 443 tunnel" "$TEST_TMP/control.out"
report $? "positive control: the forging script puts a question with its pipe on an ask channel it holds" "$(cat "$TEST_TMP/control.out")"
cp "$TEST_TMP/forge.py" "$ws/forge.py"
rm -f "$calls"
run as_system yes "$SLUICE" run -C "$ws" --format json -- \
  "curl -sS -m 5 -p -o /dev/null http://127.0.0.2:$port/index.html; python3 forge.py; ls -l /proc/self/fd/; curl -sS -m 5 -p -o /dev/null http://127.0.0.3:$port/index.html"
grep -q 'sent on \[\]' <<<"$out" && [ "$(wc -l <"$calls")" -eq 1 ] &&
  ! grep -q forged "$TEST_TMP/yes.request" &&
  [ "$(json_get "$out" '[(c["host"], c["verdict"]) for c in d["network"]]')" = "[('127.0.0.2', 'allowed'), ('127.0.0.3', 'approved')]" ]
report $? "from inside, no descriptor takes a forged question or answer: the approver hears only the proxy's one question" \
  "$out" "$err" "calls: $(cat "$calls" 2>&1)" "$(cat "$TEST_TMP/yes.request" 2>&1)"
# --- the person at an MCP client asked (elicitation), with no approver
# configured ([approval] method = deny): a client that declared form
# elicitation gets an elicitation/create naming the host; accept fetches,
# decline refuses, the box ("remember") allows that host for the rest of
# the server's life. Control: a client that cannot be asked is refused at
# once, as before; [network] ask = no asks nobody.
system mcp "$internal"
system mcp_forbidden "$internal[network]\nask = no\n"
cat >"$TEST_TMP/mcp_ask.py" <<'PY'
# sluice ROOT FETCH TOKEN CAPABILITIES ANSWER...: one bash call of FETCH per
# ANSWER (the client's reply to each elicitation/create: accept, decline,
# remember), a JSON line each: what was asked, how often TOKEN was fetched.
import json, sys
from mcp_client import Server
sluice, root, fetch, token, caps, *answers = sys.argv[1:]
init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": json.loads(caps),
                   "clientInfo": {"name": "t", "version": "1"}}}
srv = Server(sluice, root, init=json.dumps(init))
reply = {"accept": {"action": "accept", "content": {"remember": False}},
         "remember": {"action": "accept", "content": {"remember": True}},
         "decline": {"action": "decline"}}
for i, answer in enumerate(answers, 1):
    srv.call(i, fetch)
    msg, asked = srv.read(), []
    while msg.get("method") == "elicitation/create":
        p = msg["params"]
        asked.append([p["message"].splitlines()[2],
                      p["requestedSchema"]["properties"]["remember"]["title"]])
        srv.send({"jsonrpc": "2.0", "id": msg["id"], "result": reply[answer]})
        msg = srv.read()
    text = msg["result"]["content"][0]["text"]
    print(json.dumps({"asked": asked, "fetched": text.count(token), "text": text}))
print(json.dumps({"status": srv.close()}))
PY
# mcp_ask SYSTEM CAPABILITIES ANSWER...: the session's lines in $out
mcp_ask() {
  local sys=$1
  shift
  out=$(SLUICE_SYSCONFDIR="$TEST_TMP/etc-$sys" PYTHONPATH="$SLUICE_SRCDIR/tests/integration" \
    timeout -k 5 120 python3 "$TEST_TMP/mcp_ask.py" "$SLUICE" "$ws" "$fetch_other" "$token" "$@" 2>&1)
}
# call N EXPR: EXPR of call N's line (d), or the status line's (N = status)
call() {
  local line
  if [ "$1" = status ]; then line=$(tail -n 1 <<<"$out"); else line=$(sed -n "$1p" <<<"$out"); fi
  json_get "$line" "$2"
}
host_line="Host: 127.0.0.3 port $port"
mcp_ask mcp '{}' accept
[ "$(call 1 'len(d["asked"])')" = 0 ] && [ "$(call 1 'd["fetched"]')" = 0 ] &&
  grep -q "refused 127.0.0.3:$port: it is not in \[network\] allow" <<<"$out" &&
  [ "$(call status 'd["status"]')" = 0 ] &&
  [ "$(last_line '"networkAsks" in d')" = False ] &&
  [ "$(last_line '[(c["verdict"], c["reason"]) for c in d["network"]]')" = "[('refused', 'not-listed'), ('refused', 'not-listed')]" ]
report $? "control (MCP): a client that cannot be asked is not; with no approver the host is refused" \
  "$out" "$(tail -n 1 "$audit")"
mcp_ask mcp '{"elicitation": {"form": {}}}' accept decline remember accept
[ "$(call 1 'd["asked"]')" = "[['$host_line', 'Allow this host for the rest of the session']]" ] &&
  [ "$(call 1 'd["fetched"]')" = 2 ] &&
  [ "$(call 2 'len(d["asked"])')" = 1 ] && [ "$(call 2 'd["fetched"]')" = 0 ] &&
  [ "$(call 3 'len(d["asked"])')" = 1 ] && [ "$(call 3 'd["fetched"]')" = 2 ] &&
  [ "$(call 4 'len(d["asked"])')" = 0 ] && [ "$(call 4 'd["fetched"]')" = 2 ] &&
  [ "$(call status 'd["status"]')" = 0 ] &&
  [ "$(tail -n 4 "$audit" | python3 -c 'import json, sys; print([[(a["answer"], a["by"]) for a in json.loads(l)["networkAsks"]] for l in sys.stdin])')" = \
    "[[('asked-yes', 'mcp-client')], [('asked-no', 'mcp-client')], [('asked-yes', 'mcp-client')], [('asked-yes', 'mcp-client')]]" ]
report $? "MCP: the client's person is asked (elicitation/create names the host): accept fetches, decline refuses, the box allows the host for the session" \
  "$out" "$(tail -n 4 "$audit")"
mcp_ask mcp_forbidden '{"elicitation": {"form": {}}}' accept
[ "$(call 1 'len(d["asked"])')" = 0 ] && [ "$(call 1 'd["fetched"]')" = 0 ] &&
  [ "$(call status 'd["status"]')" = 0 ]
report $? "MCP: with [network] ask = no the client is not asked, and the host is refused" "$out"
kill "$allowed_srv" "$other_srv" 2>/dev/null
