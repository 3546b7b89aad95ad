#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `sluice mcp` at the JSON-RPC level: every malformed message gets its
# standard error code and the server keeps serving; version negotiation;
# end of input ends the server and the commands it runs; cancellation, a
# worker's death and the ready slot.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
# The Python snippets share tests/integration/mcp_client.py.
export PYTHONPATH="$SLUICE_SRCDIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1

init='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'

# session LINE...: the server's answers to these lines, one per line. The
# input stays open until the last line's request is answered (end of input
# would cancel it), then closes; the server's status is the session's.
session() {
  timeout 20 python3 - "$SLUICE" "$TEST_TMP" "$@" 2>"$TEST_TMP/.stderr" <<'PY'
import json, subprocess, sys
sluice, root, lines = sys.argv[1], sys.argv[2], sys.argv[3:]
try:
    last = json.loads(lines[-1]).get("id")
except ValueError:
    last = None
p = subprocess.Popen([sluice, "mcp", "-C", root], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
p.stdin.write("".join(l + "\n" for l in lines).encode())
p.stdin.flush()
if last is None:
    p.stdin.close()
for raw in p.stdout:
    sys.stdout.write(raw.decode())
    if last is not None and json.loads(raw).get("id") == last:
        p.stdin.close()
        last = None
sys.exit(p.wait())
PY
}

# answer OUTPUT ID EXPR: EXPR (Python, on the answer r with that id) holds.
answer() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
out, want, expr = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
for line in out.splitlines():
    r = json.loads(line)
    if "id" in r and r["id"] == want:
        sys.exit(0 if eval(expr) else 1)
sys.exit(2)
PY
}

# check NAME ID EXPR: on $out.
check() {
  answer "$out" "$2" "$3"; report $? "$1" "wanted: id $2 with $3" "$out"
}

out=$(session "$init" \
  'this is not json' \
  '{"jsonrpc":"2.0","id":1,"method":' \
  '[{"jsonrpc":"2.0","id":2,"method":"ping"}]' \
  '"a string"' \
  '{"id":3,"method":"ping"}' \
  '{"jsonrpc":"1.0","id":4,"method":"ping"}' \
  '{"jsonrpc":"2.0","id":true,"method":"ping"}' \
  '{"jsonrpc":"2.0","id":5,"method":7}' \
  '{"jsonrpc":"2.0","id":6,"method":"no/such/method"}' \
  '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}' \
  '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"nope","arguments":{}}}' \
  '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"bash","arguments":[1]}}' \
  '{"jsonrpc":"2.0","id":10,"method":"ping","params":[1]}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","method":"notifications/unknown"}' \
  '{"jsonrpc":"2.0","id":99,"result":{}}' \
  '{"jsonrpc":"2.0","id":"s","method":"ping"}' \
  '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo served"}}}') && rc=0 || rc=$?
[ "$rc" -eq 0 ]
report $? "the server exits 0 at end of input" "status $rc" "$(cat "$TEST_TMP/.stderr")"

nulls=$(python3 -c '
import json, sys
rs = [json.loads(l) for l in sys.argv[1].splitlines()]
print(" ".join(str(r["error"]["code"]) for r in rs if r.get("id", 0) is None))' "$out")
want="not JSON, a cut message: -32700; a batch, a non-object, a boolean id: -32600 (id null)"
[ "$nulls" = "-32700 -32700 -32600 -32600 -32600" ]
report $? "$want" "codes: $nulls" "$out"
check "no jsonrpc member: -32600" 3 'r["error"]["code"] == -32600'
check "jsonrpc 1.0: -32600" 4 'r["error"]["code"] == -32600'
check "a method that is not a string: -32600" 5 'r["error"]["code"] == -32600'
check "an unknown method: -32601" 6 'r["error"]["code"] == -32601'
check "tools/call without a name: -32602" 7 'r["error"]["code"] == -32602'
check "tools/call of an unknown tool: -32602" 8 'r["error"]["code"] == -32602'
check "tools/call with arguments not an object: -32602" 9 'r["error"]["code"] == -32602'
check "params that are not an object: -32602" 10 'r["error"]["code"] == -32602'
check "a string id is answered with the same id" '"s"' 'r["result"] == {}'
check "after all of that the server still runs commands" 12 'r["result"]["content"][0]["text"] == "served\n" and not r["result"]["isError"]'
n=$(grep -c . <<<"$out")
[ "$n" -eq 16 ]
report $? "notifications and responses get no answer; every request one" "$n lines" "$out"

# Version negotiation.
ver() {
  session "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"$1\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}" \
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
}
for v in 2025-11-25 2025-06-18 2025-03-26 2024-11-05; do
  out=$(ver "$v")
  check "protocol version $v is accepted as asked" 1 "r['result']['protocolVersion'] == '$v'"
done
out=$(ver 1999-01-01)
check "an unknown version is answered with the newest" 1 "r['result']['protocolVersion'] == '2025-11-25'"
out=$(ver 2024-11-05)
check "2024-11-05: tools without outputSchema" 2 "all('outputSchema' not in t for t in r['result']['tools'])"
# From 2025-06-18 on, only jobs declares one: a bash or job_output result
# with structured content would lose its output in Claude Code and Codex,
# which show the model the structure alone.
out=$(ver 2025-06-18)
check "2025-06-18: jobs has an outputSchema, bash and job_output none" 2 \
  "sorted(t['name'] for t in r['result']['tools'] if 'outputSchema' in t) == ['jobs']"
out=$(session '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}')
check "initialize without protocolVersion: -32602" 1 'r["error"]["code"] == -32602'

# A message longer than the cap is a parse error, and the next one is served.
out=$( { printf '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'; head -c $((17 * 1024 * 1024)) /dev/zero | tr '\0' a; printf '"}}\n'; echo '{"jsonrpc":"2.0","id":2,"method":"ping"}'; } | timeout -k 5 30 "$SLUICE" mcp 2>/dev/null)
grep -q '"code":-32700' <<<"$out" && answer "$out" 2 'r["result"] == {}'
report $? "an over-long message is refused (-32700) and the next one answered" "$(cut -c1-300 <<<"$out")"

# End of input while a command runs: the server ends it and exits.
fifo="$TEST_TMP/in"
mkfifo "$fifo"
pidfile="$TEST_TMP/child.pid"
timeout -k 5 30 "$SLUICE" mcp -C "$TEST_TMP" <"$fifo" >"$TEST_TMP/eof.out" 2>"$TEST_TMP/eof.err" &
server=$!
exec 3>"$fifo"
# the child found from outside by a mark in its argv: a pid the command
# prints is its PID namespace's, which names another process here
mark="mcp-eof-$$-$RANDOM"
child_runs() { pgrep -f -- "^$mark" >/dev/null; }
printf '%s\n' "$init" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"bash\",\"arguments\":{\"command\":\"bash -c 'exec -a $mark sleep 60' & echo started > $pidfile; wait\"}}}" >&3
if wait_for 10 test -s "$pidfile" && wait_for 5 child_runs; then
  exec 3>&-
  wait "$server" && rc=0 || rc=$?
  [ "$rc" -eq 0 ] && ! child_runs
  report $? "end of input: the server ends the running command's tree and exits 0" "status $rc, child alive: $(pgrep -a -f -- "^$mark")" "$(cat "$TEST_TMP/eof.err")"
else
  exec 3>&-
  wait "$server"
  not_ok "end of input: the server ends the running command's tree and exits 0" "the command did not start" "$(cat "$TEST_TMP/eof.out")"
fi

# Calls run at once: the second is answered while the first still waits on a
# gate; then the server is killed with SIGTERM and the first call's tree goes
# with it (its worker sees the server gone).
gate="$TEST_TMP/gate"
mkfifo "$gate"
res=$(timeout 30 python3 - "$SLUICE" "$TEST_TMP" "$gate" <<'PY'
import os, signal, sys
from mcp_client import Server, marked, wait_for
sluice, root, gate = sys.argv[1:4]
srv = Server(sluice, root)
srv.call(1, f"read x < {gate}; echo first")
srv.call(2, "echo second")
order = [srv.read()["id"]]
with open(gate, "w") as g:
    g.write("go\n")
order.append(srv.read()["id"])
print("order", order)
# the child found from outside by its mark (mcp_client.marked())
mark = f"mcp-gated-{os.getpid()}"
srv.call(3, f"bash -c 'exec -a {mark} sleep 60' & wait")
if not wait_for(lambda: marked(mark), 10):
    print("the command did not start")
    sys.exit(0)
srv.proc.send_signal(signal.SIGTERM)
srv.proc.wait()
print("child gone" if wait_for(lambda: not marked(mark), 10) else "child alive")
PY
)
grep -q '^order \[2, 1\]$' <<<"$res"
report $? "calls run at once: a quick one is answered while a slow one waits" "$res"
grep -q '^child gone$' <<<"$res"
report $? "a server killed by SIGTERM takes its running commands' trees with it" "$res"

# While idle, the server keeps the next bash call's worker ready, its
# launcher already waiting (in a restricted sandbox, with its private
# TMPDIR); a call uses it, the next one gets another, and end of input
# withdraws the last: no launcher and no TMPDIR is left.
mkdir -p "$TEST_TMP/ws-slot"
res=$(timeout 30 python3 - "$SLUICE" "$TEST_TMP/ws-slot" "$init" <<'PY'
import sys
from mcp_client import Server, launchers_waiting, wait_for
sluice, root, init = sys.argv[1:4]
srv = Server(sluice, root, "--sandbox", "restricted", init=init)
def waiting():
    return launchers_waiting(root)
print("ready before a call:", wait_for(lambda: len(waiting()) == 1, 5))
first = waiting()
srv.call(1, "echo $TMPDIR; pwd", directory=".")
r = srv.read()
print("answer:", r["result"]["_meta"]["sluice/result"]["exitCode"], r["result"]["content"][0]["text"].split())
print("another ready after it:", wait_for(lambda: len(waiting()) == 1 and waiting() != first, 5))
print("status:", srv.close())
print("left after the end:", waiting())
PY
)
left_tmp=$(ls "$XDG_RUNTIME_DIR/sluice/jobs" 2>/dev/null | grep -c '^tmp-')
grep -q '^ready before a call: True$' <<<"$res" && grep -qE "^answer: 0 \['(/tmp|$XDG_RUNTIME_DIR/sluice/jobs/tmp-[A-Za-z0-9]*)', '$TEST_TMP/ws-slot'\]$" <<<"$res" &&
  grep -q '^another ready after it: True$' <<<"$res" && grep -q '^status: 0$' <<<"$res" &&
  grep -q '^left after the end: \[\]$' <<<"$res" && [ "$left_tmp" -eq 0 ]
report $? "an idle server keeps the next call's launcher waiting; end of input withdraws it, leaving nothing" \
    "$res" "TMPDIRs left: $left_tmp"

# The worker's response is written as the worker made it: a string id comes
# back as it was sent, for a call on the ready slot and for one that gets a
# worker of its own because the slot is busy, and a large result arrives
# whole.
out=$(session "$init" \
  '{"jsonrpc":"2.0","id":"call-a","method":"tools/call","params":{"name":"bash","arguments":{"command":"printf %0300000d 0"}}}')
check "a string id and a large result come back whole (slot)" '"call-a"' \
  'r["result"]["_meta"]["sluice/result"]["truncated"] and len(r["result"]["content"][0]["text"]) > 8000 and r["jsonrpc"] == "2.0"'
out=$(session "$init" \
  '{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"bash","arguments":{"command":"sleep 1"}}}' \
  '{"jsonrpc":"2.0","id":"call-b","method":"tools/call","params":{"name":"bash","arguments":{"command":"echo b"}}}')
check "a string id comes back as sent (a call beside a running one)" '"call-b"' \
  'r["result"]["content"][0]["text"] == "b\n"'

# A bash call without arguments gets the same answer on the ready slot and
# in a worker of its own beside a running call: the request misses its
# field 'command' (arguments left out stay left out on either path).
noargs='"method":"tools/call","params":{"name":"bash"}}'
slot_out=$(session "$init" "{\"jsonrpc\":\"2.0\",\"id\":\"na\",$noargs")
own_out=$(session "$init" \
  '{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"bash","arguments":{"command":"sleep 1"}}}' \
  "{\"jsonrpc\":\"2.0\",\"id\":\"na\",$noargs")
missing='r["result"]["isError"] and "invalid_request" in r["result"]["content"][0]["text"] and "field '"'"'command'"'"'" in r["result"]["content"][0]["text"]'
same=$(python3 - "$slot_out" "$own_out" <<'PY'
import json, sys
def answer(out):
    return [r for r in map(json.loads, out.splitlines()) if r.get("id") == "na"]
a, b = answer(sys.argv[1]), answer(sys.argv[2])
print("same" if len(a) == 1 and a == b else "differ")
PY
)
answer "$slot_out" '"na"' "$missing" && answer "$own_out" '"na"' "$missing" && [ "$same" = same ]
report $? "a bash call without arguments: invalid_request naming field 'command', on the slot and beside a running call" \
    "slot: $slot_out" "own worker: $own_out"

# A cancel that arrives while the call still waits for its approval: the
# command never starts (here a background job, which would outlive the
# call). The approver answers yes only once the cancel is in (the ping
# after it is answered, so the server has read it).
mkdir -p "$TEST_TMP/etc-cancel/sluice" "$TEST_TMP/ws-cancel"
mkdir -m 0700 "$TEST_TMP/xdg-cancel"
mkfifo "$TEST_TMP/approver.gate"
cat >"$TEST_TMP/approver" <<SH
#!/bin/sh
cat >/dev/null
: >"$TEST_TMP/approver.asked"
read answer <"$TEST_TMP/approver.gate"
exit 0
SH
chmod +x "$TEST_TMP/approver"
printf '[plugin regex]\nrule = publish\npattern = ^npm publish\naction = ask\nmessage = publishing needs a human\n[approval]\nmethod = program\nprogram = %s\n' \
  "$TEST_TMP/approver" >"$TEST_TMP/etc-cancel/sluice/sluice.ini"
marker="$TEST_TMP/cancel-ran"
res=$(SLUICE_SYSCONFDIR="$TEST_TMP/etc-cancel" XDG_RUNTIME_DIR="$TEST_TMP/xdg-cancel" timeout 30 \
  python3 - "$SLUICE" "$TEST_TMP/ws-cancel" "$init" "$TEST_TMP" "$marker" <<'PY'
import os, sys
from mcp_client import Server, wait_for
sluice, root, init, tmp, marker = sys.argv[1:6]
srv = Server(sluice, root, init=init)
srv.call(1, f"npm publish 2>/dev/null; touch {marker}", mode="background")
print("asked:", wait_for(lambda: os.path.exists(os.path.join(tmp, "approver.asked")), 10))
srv.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
srv.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
print("next answer:", srv.read().get("id"))
with open(os.path.join(tmp, "approver.gate"), "w") as gate:
    gate.write("yes\n")
srv.proc.stdin.close()
print("rest:", srv.proc.stdout.read().decode().split())
print("status:", srv.proc.wait())
PY
)
# (the workspace's network holder keeps its socket there, the protected
# folders' tidier its lock: not jobs)
jobs_left=$(ls "$TEST_TMP/xdg-cancel/sluice/jobs" 2>/dev/null | grep -v -e '^tmp-' -e '^net-' -e '^folders-' |
  tr '\n' ' ')
grep -q '^asked: True$' <<<"$res" && grep -q '^next answer: 2$' <<<"$res" &&
  grep -q '^rest: \[\]$' <<<"$res" && grep -q '^status: 0$' <<<"$res" &&
  [ -z "$jobs_left" ] && [ ! -e "$marker" ]
report $? "a call cancelled while its approver decides does not start (no job, nothing ran, no answer)" \
    "$res" "jobs: $jobs_left" "marker: $([ -e "$marker" ] && echo present)"

# A call longer than the request cap (a command of 4 MiB + 100 KiB) is a
# tool result naming the field, not a JSON-RPC error, the same with the
# slot ready (too long for it, the call gets a worker of its own) and
# beside a running call.
res=$(timeout 60 python3 - "$SLUICE" "$TEST_TMP" "$init" <<'PY'
import json, subprocess, sys
from mcp_client import call_line as call
sluice, root, init = sys.argv[1:4]
big = call("big", "echo " + "a" * (4 * 1024 * 1024 + 100 * 1024))
def session(*lines):
    p = subprocess.Popen([sluice, "mcp", "-C", root], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    p.stdin.write("".join(l + "\n" for l in (init,) + lines).encode())
    p.stdin.flush()
    answer = None
    for raw in p.stdout:
        r = json.loads(raw)
        if r.get("id") == "big":
            answer = r
            break
    p.stdin.close()
    p.wait()
    return answer
def refused(r):
    res = (r or {}).get("result") or {}
    text = res["content"][0]["text"] if res else json.dumps(r)
    return bool(res.get("isError")) and "invalid_request" in text and "'command'" in text, text[:200]
a = session(big)
b = session(call("slow", "sleep 1"), big)
print("slot:", refused(a))
print("own worker:", refused(b))
print("same:", a == b)
PY
)
grep -q '^slot: (True' <<<"$res" && grep -q '^own worker: (True' <<<"$res" && grep -q '^same: True$' <<<"$res"
report $? "a call over the request cap: invalid_request naming field 'command', with the slot ready and beside a running call" "$res"

# A background call starts a job with a launcher of its own: it leaves the
# ready slot (and its waiting launcher) to the next call, in either
# spelling of the mode.
mkdir -p "$TEST_TMP/ws-bg"
res=$(timeout 30 python3 - "$SLUICE" "$TEST_TMP/ws-bg" "$init" <<'PY'
import sys
from mcp_client import Server, launchers_waiting, wait_for
sluice, root, init = sys.argv[1:4]
srv = Server(sluice, root, init=init)
wait_for(lambda: len(launchers_waiting(root)) == 1, 5)
first = launchers_waiting(root)
print("ready:", len(first) == 1)
for i, args in enumerate([{"mode": "background"}, {"background": True}], 1):
    srv.call(i, "true", **args)
    r = srv.read()
    print(f"job {i}:", bool(r["result"]["_meta"]["sluice/result"].get("jobId")),
          "slot kept:", bool(first) and first[0] in launchers_waiting(root))
print("status:", srv.close())
PY
)
grep -q '^ready: True$' <<<"$res" && [ "$(grep -c '^job [12]: True slot kept: True$' <<<"$res")" -eq 2 ] &&
  grep -q '^status: 0$' <<<"$res"
report $? "a background call forks its own worker: the slot's waiting launcher stays for the next call" "$res"

# A cancelled call that was running gets no answer at all (the protocol's
# rule), and the server goes on answering: once the server has reaped the
# call's worker, a ping is answered, and no line carries the call's id.
mkdir -p "$TEST_TMP/ws-cancel-run"
res=$(timeout 30 python3 - "$SLUICE" "$TEST_TMP/ws-cancel-run" "$init" <<'PY'
import json, os, sys
from mcp_client import Server, wait_for
sluice, root, init = sys.argv[1:4]
srv = Server(sluice, root, init=init)
started = os.path.join(root, "started")
srv.call(5, f"touch {started}; sleep 30")
print("running:", wait_for(lambda: os.path.exists(started), 10))
# the call's worker, the server's only child now (see the next test)
worker = srv.workers()
print("workers:", len(worker))
srv.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}})
# reaped by the server only after it dealt with the worker's end
print("worker reaped:", wait_for(lambda: not os.path.exists(f"/proc/{int(worker[0])}"), 10))
srv.send({"jsonrpc": "2.0", "id": 6, "method": "ping"})
lines = []
for raw in srv.proc.stdout:
    lines.append(json.loads(raw))
    if lines[-1].get("id") == 6:
        break
srv.proc.stdin.close()
lines += [json.loads(raw) for raw in srv.proc.stdout]
print("status:", srv.proc.wait())
print("ids:", [r.get("id") for r in lines])
PY
)
grep -q '^running: True$' <<<"$res" && grep -q '^workers: 1$' <<<"$res" &&
  grep -q '^worker reaped: True$' <<<"$res" && grep -q '^status: 0$' <<<"$res" && grep -q '^ids: \[6\]$' <<<"$res"
report $? "a cancelled running call is never answered; the server answers the next request" "$res"

# A worker that dies without answering: its call gets -32603, the next call
# is served, and the command (its shell, waiting on a gate) dies with the
# worker: nothing would enforce its timeout any more. The worker is the
# server's only child while the call runs (the next slot is prepared after
# the answer).
mkdir -p "$TEST_TMP/ws-died"
res=$(timeout 30 python3 - "$SLUICE" "$TEST_TMP/ws-died" "$init" <<'PY'
import os, signal, sys
from mcp_client import Server, marked, wait_for
sluice, root, init = sys.argv[1:4]
srv = Server(sluice, root, init=init)
started, gate = os.path.join(root, "started"), os.path.join(root, "gate")
os.mkfifo(gate)
# the command found from outside by its mark (mcp_client.marked())
mark = f"mcp-died-{os.getpid()}"
srv.call(1, f"touch {started}; exec -a {mark} bash -c 'read x < {gate}'")
print("command seen:", wait_for(lambda: os.path.exists(started) and bool(marked(mark)), 10))
workers = srv.workers()
print("workers:", len(workers))
for w in workers:
    os.kill(int(w), signal.SIGKILL)
r = srv.read()
print("answer:", r.get("id"), r.get("error", {}).get("code"))
print("command gone:", wait_for(lambda: not marked(mark), 5))
srv.call(2, "echo after")
r = srv.read()
print("next:", r.get("id"), r.get("result", {}).get("content", [{}])[0].get("text"))
print("status:", srv.close())
try: # a command that outlived its worker: let it end
    os.close(os.open(gate, os.O_WRONLY | os.O_NONBLOCK))
except OSError:
    pass
PY
)
grep -q '^command seen: True$' <<<"$res" && grep -q '^workers: 1$' <<<"$res" &&
  grep -q '^answer: 1 -32603$' <<<"$res" && grep -q '^command gone: True$' <<<"$res" &&
  grep -q "^next: 2 after$" <<<"$res" &&
  grep -q '^status: 0$' <<<"$res"
report $? "a worker that dies: its call gets -32603, its command dies with it, and the next call is served" "$res"

# Two calls with one id: the second is refused while the first runs (a
# cancellation could not tell them apart), and the first still answers.
call5a='{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"bash","arguments":{"command":"sleep 0.5; echo first"}}}'
call5b='{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo second"}}}'
call6='{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"bash","arguments":{"command":"sleep 1"}}}'
out=$(session "$init" "$call5a" "$call5b" "$call6")
python3 - "$out" <<'PY'
import json, sys
fives = [json.loads(l) for l in sys.argv[1].splitlines() if json.loads(l).get("id") == 5]
errors = [r for r in fives if "error" in r]
results = [r for r in fives if "result" in r]
sys.exit(0 if len(errors) == 1 and errors[0]["error"]["code"] == -32600
         and "still running" in errors[0]["error"]["message"]
         and len(results) == 1 and results[0]["result"]["content"][0]["text"] == "first\n"
         else 1)
PY
report $? "a second call with the id of a running one is refused with -32600; the first answers" "$out"

# An ask put to the client's user: a client that declared elicitation gets
# an elicitation/create request while the call waits; its answer decides.
# An error answer leaves the question unanswered (refused: no approver);
# a call cancelled while its question waits withdraws the question. Every
# call leaves an audit line saying who answered.
mkdir -p "$TEST_TMP/etc-ask/sluice" "$TEST_TMP/ws-ask"
printf '[audit]\nfile = %s\n[plugin regex]\nrule = person\npattern = ask-me\naction = ask\nmessage = needs a yes\n' \
  "$TEST_TMP/ask-audit.log" >"$TEST_TMP/etc-ask/sluice/sluice.ini"
res=$(SLUICE_SYSCONFDIR="$TEST_TMP/etc-ask" timeout 30 python3 - "$SLUICE" "$TEST_TMP/ws-ask" <<'PY'
import json, os, sys
from mcp_client import Server
sluice, root = sys.argv[1:3]
init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"form": {}}},
                   "clientInfo": {"name": "t", "version": "1"}}}
srv = Server(sluice, root, init=json.dumps(init))
marker = os.path.join(root, "ask-me")
def ask(i, answer):
    srv.call(i, f"touch {marker}")
    q = srv.read()
    print("question:", q.get("method"), "id" in q, "Command: touch" in q["params"]["message"])
    srv.send(dict(answer, jsonrpc="2.0", id=q["id"]))
    r = srv.read()
    return r["id"], r["result"]["isError"], os.path.exists(marker), r["result"]["content"][0]["text"]
print("accept:", ask(1, {"result": {"action": "accept"}})[:3])
os.unlink(marker)
i, err, ran, text = ask(2, {"error": {"code": -32603, "message": "no dialog here"}})
print("error answer:", i, err, ran, "the MCP client could not ask: no dialog here" in text)
srv.call(3, f"touch {marker}")
q = srv.read()
srv.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}})
n = srv.read()
print("withdrawn:", n.get("method"), n["params"]["requestId"] == q["id"], os.path.exists(marker))
print("status:", srv.close())
PY
)
lines=$(cat "$TEST_TMP/ask-audit.log" 2>/dev/null | python3 -c 'import json, sys; print([(l["approval"], l["answeredBy"]) for l in map(json.loads, sys.stdin)])')
grep -q "^question: elicitation/create True True$" <<<"$res" && grep -q "^accept: (1, False, True)$" <<<"$res" &&
  grep -q "^error answer: 2 True False True$" <<<"$res" && grep -q "^withdrawn: notifications/cancelled True False$" <<<"$res" &&
  grep -q '^status: 0$' <<<"$res"
report $? "an ask becomes elicitation/create; accept runs it, an error refuses it, a cancelled call withdraws it" "$res"
[ "$lines" = "[('approved', 'mcp-client'), ('refused', None), ('refused', None)]" ]
report $? "every MCP call leaves its audit line, saying who answered" "$lines"

# A server that cannot start (here: a configuration naming a plugin that
# does not exist) still answers: initialize and every later request get an
# error saying why, which the client shows (Codex does not show a server's
# stderr), and it exits with the error status when the input ends.
mkdir -p "$TEST_TMP/etc-broken/sluice"
printf '[plugin nosuch]\nenabled = yes\n' >"$TEST_TMP/etc-broken/sluice/sluice.ini"
res=$(printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' |
  SLUICE_SYSCONFDIR="$TEST_TMP/etc-broken" timeout 20 "$SLUICE" mcp -C "$TEST_TMP" 2>/dev/null) && rc=0 || rc=$?
python3 -c '
import json, sys
got = [json.loads(l) for l in sys.argv[1].splitlines()]
assert [g["id"] for g in got] == [1, 2], got
for g in got:
    assert g["error"]["code"] == -32603 and "sluice mcp could not start: config_error" in g["error"]["message"] \
        and "nosuch" in g["error"]["message"], g' "$res" && [ "$rc" -ne 0 ]
report $? "a server that cannot start answers every request with an error saying why" "rc=$rc" "$res"

# The bash tool's hints say what its sandbox lets a command do: restricted
# is read-only and closed, workspace-write destructive but closed,
# unrestricted both destructive and open-world.
res=$(timeout 30 python3 - "$SLUICE" "$TEST_TMP" <<'PY'
import json, subprocess, sys
sluice, root = sys.argv[1:3]
for mode in ("restricted", "workspace-write", "unrestricted"):
    p = subprocess.Popen([sluice, "mcp", "-C", root, "--sandbox", mode], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    out, _ = p.communicate((json.dumps(init) + "\n" + json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}) + "\n").encode(), timeout=20)
    got = [json.loads(l) for l in out.splitlines()]
    tools = [m for m in got if m.get("id") == 2][0].get("result", {}).get("tools", [])
    a = [t for t in tools if t["name"] == "bash"][0]["annotations"] if tools else {}
    print(mode, a.get("readOnlyHint"), a.get("destructiveHint"), a.get("openWorldHint"))
PY
)
[ "$res" = "restricted True False False
workspace-write False True False
unrestricted False True True" ]
report $? "the bash tool's hints follow its sandbox mode" "$res"

# A server that runs for days follows its configuration: a rule an
# administrator adds to policies.d holds from the next call on (the call
# before it ran the same command: the control), a file rewritten with an
# error refuses calls until it is fixed (the old configuration is not used
# any more), and a rule removed no longer applies.
mkdir -p "$TEST_TMP/etc-reload/sluice/policies.d" "$TEST_TMP/ws-reload"
: >"$TEST_TMP/reload.ini"
res=$(SLUICE_SYSCONFDIR="$TEST_TMP/etc-reload" timeout 60 python3 - "$SLUICE" "$TEST_TMP/ws-reload" "$init" \
  "$TEST_TMP/reload.ini" "$TEST_TMP/etc-reload/sluice/policies.d/deny.ini" <<'PY'
import os, sys
from mcp_client import Server
sluice, root, init, cli, dropin = sys.argv[1:6]
srv = Server(sluice, root, "--config", cli, init=init)
def call(i, command):
    srv.call(i, command)
    r = srv.read()["result"]
    return ("error" if r.get("isError") else "ran") + ": " + r["content"][0]["text"].replace("\n", " ")[:300]
print(1, call(1, "echo reload-mark''er-1"))
with open(dropin, "w") as f:
    f.write("[plugin regex]\nrule = reload-test\npattern = reload-marker\naction = deny\n"
            "message = refused by the rule added while the server ran\n")
print(2, call(2, "echo reload-mark''er-2"))
with open(cli, "w") as f:
    f.write("[sandbox\n")
print(3, call(3, "touch ran-3"))
print("3 ran:", os.path.exists(os.path.join(root, "ran-3")))
with open(cli, "w") as f:
    f.write("")
print(4, call(4, "echo fixed-4"))
os.unlink(dropin)
print(5, call(5, "echo reload-mark''er-5"))
print("status:", srv.close())
PY
)
grep -q '^1 ran: .*reload-marker-1' <<<"$res" &&
  grep -q '^2 error: .*refused by the rule added while the server ran' <<<"$res" &&
  ! grep -q '^2 .*reload-marker-2$' <<<"$res" &&
  grep -q '^3 error: \[config_error: the configuration changed and cannot be used' <<<"$res" &&
  grep -q '^3 ran: False$' <<<"$res" && grep -q '^4 ran: fixed-4' <<<"$res" &&
  grep -q '^5 ran: reload-marker-5' <<<"$res" && grep -q '^status: 0$' <<<"$res"
report $? "a running server reads a changed configuration before the next call: a new rule holds, an error refuses, a removed rule is gone" "$res"

# A job whose output file stopped at [broker] output_file_cap (job-output.c):
# the jobs tool and job_output say it was cut, naming the key; job_output's
# first line and the file's end both say it.
printf '[broker]\noutput_file_cap = 64KiB\n' >"$TEST_TMP/cap.ini"
run "$SLUICE" run --config "$TEST_TMP/cap.ini" --mode background --format json -- \
  'head -c 200K /dev/zero | tr "\0" x'
idc=$(json_get "$out" 'd["jobId"]' 2>/dev/null)
if [ -n "$idc" ] && wait_for 20 test -e "$XDG_RUNTIME_DIR/sluice/jobs/$idc.status"; then
  # one call per session: the server answers calls in any order, and a
  # session ends with the answer to its last line
  out=$(session "$init" '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"jobs","arguments":{}}}')
  check "the jobs tool lists a job whose output file was cut as cut, naming [broker] output_file_cap" 1 \
    "[(j['truncated'], j['outputFileCap']) for j in r['result']['structuredContent']['jobs'] if j['id'] == '$idc'] == [(True, 65536)] and '$idc  completed (output cut at 64KiB, the [broker] output_file_cap)' in r['result']['content'][0]['text']"
  out=$(session "$init" '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"job_output\",\"arguments\":{\"job\":\"$idc\",\"tail\":3}}}")
  check "... and job_output says so first, its end line too" 2 \
    "r['result']['content'][0]['text'].startswith('[job $idc: completed; output cut at 64KiB, the [broker] output_file_cap; output in ') and '[sluice: output cut at 64KiB, the [broker] output_file_cap: the job wrote 204800 bytes' in r['result']['content'][0]['text']"
else
  not_ok "the job over the cap ran to its end" "$out" "$(ls "$XDG_RUNTIME_DIR/sluice/jobs")"
fi
