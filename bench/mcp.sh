#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The round trip of a `bash` tool call of `true` through one long-running
# `sluice mcp` (request written, answer read), against `bash -c true`
# spawned by the same driver, measured alternately in one run; medians and
# their ratio (target <= 1.4x). For reference, what a call that finds no
# ready slot pays at least: sluice-launch (unrestricted) exec'ing the same
# bash (a call that takes the server's ready slot does not pay it).
# Usage: bench/mcp.sh [ROUNDS] (default 300) from a build directory built
# without sanitizers; SLUICE and SLUICE_LAUNCH select the binaries.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rounds=${1:-300}
sluice=${SLUICE:-./sluice}
export SLUICE_LAUNCH=${SLUICE_LAUNCH:-$(dirname "$sluice")/sluice-launch}
[ -x "$sluice" ] || { echo "bench: no sluice at '$sluice' (set SLUICE)" >&2; exit 1; }
bench_warn_sanitized "$sluice"
scratch=$(mktemp -d)
export XDG_RUNTIME_DIR=$scratch
trap 'rm -rf "$scratch"' EXIT

python3 - "$sluice" "$rounds" "$scratch" "$SLUICE_LAUNCH" <<'PY'
import io, json, os, statistics, subprocess, sys, time

sluice, rounds, root, launch = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
srv = subprocess.Popen([sluice, "mcp", "-C", root, "--sandbox", "unrestricted"], stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE, bufsize=0)
# Buffered, as a real client reads: an unbuffered pipe's readline() makes
# one read(2) per byte, which would be timed as the server's cost.
out = io.BufferedReader(srv.stdout, 65536)

def rpc(msg):
    srv.stdin.write((json.dumps(msg) + "\n").encode())
    return json.loads(out.readline())

rpc({"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"}}})
srv.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
call = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "bash", "arguments": {"command": "true"}}}) + "\n").encode()
r = rpc(json.loads(call))
if r["result"]["isError"]:
    sys.exit("bench: the tool call of true fails here: " + r["result"]["content"][0]["text"])

def spawn(argv):
    pid = os.posix_spawn(argv[0], argv, os.environ)
    os.waitpid(pid, 0)

bash = ["/bin/bash", "-c", "true"]
cold = [launch, "--profile", "unrestricted", "--", "/bin/bash", "-c", "true"]

def mcp_call():
    srv.stdin.write(call)
    out.readline()

# After each call the server prepares the next call's slot (a few ms of
# CPU on its own). An agent thinks between calls; the driver idles 20 ms
# after each, so that this work runs then, not inside the next timing.
a, b, c = [], [], []
for _ in range(rounds):
    t0 = time.perf_counter(); spawn(bash); t1 = time.perf_counter(); a.append(t1 - t0)
    t0 = time.perf_counter(); mcp_call(); t1 = time.perf_counter(); b.append(t1 - t0)
    time.sleep(0.02)
    t0 = time.perf_counter(); spawn(cold); t1 = time.perf_counter(); c.append(t1 - t0)
srv.stdin.close()
srv.wait()
ma, mb, mc = (statistics.median(x) * 1000 for x in (a, b, c))
print(f"mcp round trip, {rounds} rounds alternating, kernel {os.uname().release}")
print(f"  bash -c true                       median {ma:7.3f} ms")
print(f"  tools/call bash 'true' (one server) median {mb:7.3f} ms  {mb / ma:5.2f} x  (target <= 1.4 x)")
print(f"  cold: sluice-launch + bash -c true  median {mc:7.3f} ms  {mc / ma:5.2f} x")
PY
