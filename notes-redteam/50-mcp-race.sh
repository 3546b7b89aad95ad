#!/usr/bin/env bash
# red team 50: one agent's `sluice mcp` session, nothing else. After each
# call the server prepares the next call's slot (a launcher that builds the
# sandbox ahead: protected_paths_find, stat then lock) while the call's end
# runs its tidier (protect_folders_idle = 0, or one waking after the idle):
# the race of 50-start-race.sh, between the session's own processes, so
# that a call that finds .claude missing plants .claude/settings.json.
# Usage: 50-mcp-race.sh SLUICE [CALLS] [now|idle] [PARALLEL-RUNS(0|1)]
NAME=mcp-race
. "$(dirname "$0")/50-lib.sh"
calls=${2:-400}
cfg=$base/${3:-now}.ini
W=$base/w; new_repo "$W"
if [ "${4:-0}" = 1 ]; then
  ( while [ ! -e "$base/stop" ]; do "$S" run -C "$W" --config "$cfg" -- true >/dev/null 2>&1; done ) &
  bg="$bg $!"
fi
timeout 600 python3 - "$S" "$W" "$cfg" "$calls" "$plant" <<'PY'
import json, subprocess, sys
sluice, root, cfg, calls, plant = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
p = subprocess.Popen([sluice, "mcp", "-C", root, "--config", cfg], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
def send(m): p.stdin.write((json.dumps(m) + "\n").encode())
def answer(i):
    while True:
        r = json.loads(p.stdout.readline())
        if r.get("id") == i: return r
send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})
answer(0)
send({"jsonrpc":"2.0","method":"notifications/initialized"})
first = None
for i in range(1, calls + 1):
    send({"jsonrpc":"2.0","id":i,"method":"tools/call","params":{"name":"bash","arguments":{"command":plant}}})
    text = json.dumps(answer(i))
    if i == 1: first = text[:300]
    if "PLANT1ED" in text:
        print("call %d of the session said PLANTED: %s" % (i, text[:600])); break
else:
    print("%d calls, none planted; the first said: %s" % (calls, first))
p.stdin.close(); p.wait()
PY
touch "$base/stop"; for p in $bg; do wait "$p" 2>/dev/null; done; bg=
sleep 3
echo "left in the work tree: $(left_in "$W")"
if planted "$W"; then hole "$W/.claude/settings.json holds the command's hook after the session ended"; fi
finish
