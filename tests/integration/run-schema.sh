#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `sluice schema` (tool definition with the working directory, and what a
# sandboxed mode forbids; the request's and the result's schema, the files
# installed) and `sluice doctor` (it reports, and warns when degraded).
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

ws=$(cd "$TEST_TMP" && pwd -P)
run "$SLUICE" schema -C "$ws" --sandbox unrestricted
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["name"] == "bash" and d["input_schema"]["required"] == ["command"] and "'"$ws"'" in d["description"] and "sandbox" not in d["description"]')" = True ]
report $? "schema names the tool, the required command and the working directory" "$out"
run "$SLUICE" schema -C "$ws" --sandbox workspace-write
[ "$(json_get "$out" '"forbids writing outside the workspace" in d["description"]')" = True ]
report $? "in a sandboxed mode, schema says what the sandbox forbids" "$out"
run "$SLUICE" schema -C "$ws"
[ "$(json_get "$out" '"forbids writing outside the workspace" in d["description"]')" = True ]
report $? "with nothing configured, schema describes the built-in default, workspace-write" "$out"

run "$SLUICE" doctor
[ "$rc" -le 1 ] && grep -q '^launcher: ' <<<"$out" && grep -q '^jobs directory: ' <<<"$out"
report $? "doctor reports the launcher and the jobs directory" "rc=$rc" "$out"
# The workspace's network: whether runs share one, for how long, the key.
if grep -q '"net_namespace":true' <<<"$out" && grep -q '^landlock: ABI' <<<"$out"; then
  grep -qE '^workspace network: shared by a workspace.s runs and jobs \(a holder can be had: network namespaces are available\), kept 1m after the last one \(\[sandbox\] workspace_network_idle\)$' <<<"$out"
  report $? "doctor says the workspace's network is shared, and the key that keeps it" "$out"
elif grep -q '^landlock: ABI' <<<"$out"; then
  grep -qE '^workspace network: (none|not used) ' <<<"$out"
  report $? "doctor says no workspace network can be had, and why" "$out"
else
  skip "doctor reports the workspace's network" "no Landlock here: no sandboxed mode to have one"
fi
# The capabilities, as the kernel reports them for this process (CapEff).
capeff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
sys_admin=$(((16#$capeff >> 21) & 1))
if [ "$capeff" = 0000000000000000 ]; then
  want_caps='^capabilities: none$'
else
  want_caps='^capabilities: .*(all|sys_admin)'
fi
# With CAP_SYS_ADMIN the launcher makes its namespace directly.
want_ns=.
[ "$sys_admin" -eq 1 ] && want_ns='^sandbox namespace: with CAP_SYS_ADMIN'
grep -qE "$want_caps" <<<"$out" && grep -qE "$want_ns" <<<"$out"
report $? "doctor reports the capabilities held, and a namespace made with CAP_SYS_ADMIN when it is" \
  "CapEff $capeff, wanted /$want_caps/ and /$want_ns/" "$out"
# libcap-ng is loaded only by doctor, and only when it asks: sluice neither
# links it nor contains it (its constructor reads cap_last_cap and asks the
# kernel at every start of a program that does).
syms=$(nm "$SLUICE" 2>/dev/null)
if grep -q ' T main$' <<<"$syms"; then
  ! grep -q ' capng_' <<<"$syms" && ! readelf -d "$SLUICE" | grep -q 'NEEDED.*libcap-ng'
  report $? "sluice does not link libcap-ng" "$(grep ' capng_' <<<"$syms" | head -3)"
else
  skip "sluice does not link libcap-ng" "nm lists no symbols of $SLUICE (stripped?)"
fi
# Without the library, doctor still reports, and says why it cannot tell.
capng=$(ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libcap-ng\.so\.0 .*=> //p' | head -1)
capng=${capng:+$(readlink -f "$capng")}
if [ -n "$capng" ] && unshare -rm true 2>/dev/null; then
  run unshare -rm sh -c 'mount --bind /dev/null "$1" && exec "$2" doctor' sh "$capng" "$SLUICE"
  grep -q '^capabilities: unknown (libcap-ng could not be loaded: .*; install the Debian package libcap-ng0)$' <<<"$out" &&
    grep -q '^launcher: ' <<<"$out"
  report $? "without libcap-ng, doctor says the capabilities are unknown, and why" "rc=$rc" "$out" "$err"
else
  skip "without libcap-ng, doctor says the capabilities are unknown, and why" \
    "libcap-ng.so.0 not found by ldconfig, or no user namespace to hide it in"
fi
if grep -q '^landlock: unavailable' <<<"$out" || grep -q 'print-features failed' <<<"$out"; then
  [ "$rc" -eq 1 ] && grep -q 'WARNING\|unknown' <<<"$out"
  report $? "doctor warns when degraded" "$out"
else
  grep -q '^landlock: ABI [0-9]' <<<"$out"
  report $? "doctor reports the Landlock ABI" "$out"
fi

# The schemas are the installed files (schema/*.schema.json), printed whole
# by schema --request and --result; the request's with the configured
# maximum timeout, as the tool definition shows it.
same_json() { # same_json FILE TEXT [PYTHON-EXPRESSION-APPLIED-TO-FILE]
  python3 -c 'import json, sys
f = json.load(open(sys.argv[1])); t = json.loads(sys.argv[2])
if len(sys.argv) > 3: exec(sys.argv[3])
sys.exit(0 if f == t else 1)' "$@"
}
run "$SLUICE" schema --result
if [ "$rc" -eq 0 ] && same_json "$SLUICE_SRCDIR/schema/result.schema.json" "$out"; then
  ok "schema --result prints the result's schema file"
else
  not_ok "schema --result prints the result's schema file" "rc=$rc" "$out"
fi
printf '[broker]\nmax_timeout = 20m\n' >"$TEST_TMP/max.ini"
run "$SLUICE" schema --request --config "$TEST_TMP/max.ini"
request=$out
if [ "$rc" -eq 0 ] && same_json "$SLUICE_SRCDIR/schema/request.schema.json" "$out" \
  'f["properties"]["timeout_ms"]["maximum"] = 1200000'; then
  ok "schema --request prints the request's schema file, with the configured maximum timeout"
else
  not_ok "schema --request prints the request's schema file, with the configured maximum timeout" "rc=$rc" "$out"
fi
run "$SLUICE" schema --config "$TEST_TMP/max.ini"
if [ "$rc" -eq 0 ] && python3 -c 'import json, sys
sys.exit(0 if json.loads(sys.argv[1])["input_schema"] == json.loads(sys.argv[2]) else 1)' \
  "$out" "$request"; then
  ok "the tool definition's input_schema is that schema"
else
  not_ok "the tool definition's input_schema is that schema" "$out"
fi
# Every result follows the result's schema: its required fields, no others.
fits() { # fits RESULT-JSON
  python3 -c 'import json, sys
s = json.load(open(sys.argv[1])); r = json.loads(sys.argv[2])
sys.exit(0 if set(s["required"]) <= set(r) <= set(s["properties"]) else 1)' \
    "$SLUICE_SRCDIR/schema/result.schema.json" "$1"
}
run "$SLUICE" run --format json -C "$ws" -- 'echo hi'
r1=$out
run "$SLUICE" run --format json -C "$ws" -- 'git push --force'
r2=$out
run "$SLUICE" run --format json -C "$ws" --mode background -- 'true'
r3=$out
if fits "$r1" && fits "$r2" && fits "$r3"; then
  ok "results of a run, a denial and a background job follow the result's schema"
else
  not_ok "results of a run, a denial and a background job follow the result's schema" "$r1" "$r2" "$r3"
fi

# The third file describes the fields an MCP bash result carries in
# _meta["sluice/result"]; the tool declares no outputSchema (its output
# must reach the model as text in every client) and a call's fields
# follow the file.
mcp_check=$(timeout 20 python3 - "$SLUICE" "$ws" "$SLUICE_SRCDIR/schema/mcp-result.schema.json" <<'PY'
import json, subprocess, sys
sluice, root, path = sys.argv[1:4]
lines = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "bash", "arguments": {"command": "echo hi"}}},
]
p = subprocess.Popen([sluice, "mcp", "-C", root, "--sandbox", "unrestricted"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
got = {}
for l in lines:
    p.stdin.write((json.dumps(l) + "\n").encode()); p.stdin.flush()
    while "id" in l and l["id"] not in got:
        d = json.loads(p.stdout.readline())
        if "id" in d: got[d["id"]] = d
p.stdin.close(); p.wait()
f = json.load(open(path))
bash = [t for t in got[2]["result"]["tools"] if t["name"] == "bash"][0]
sc = got[3]["result"]["_meta"]["sluice/result"]
print("no outputSchema" if "outputSchema" not in bash and "structuredContent" not in got[3]["result"] else "outputSchema",
      "fits" if set(f["required"]) <= set(sc) <= set(f["properties"]) else "misfits")
PY
)
[ "$mcp_check" = "no outputSchema fits" ] && ok "an MCP bash result has no structuredContent, and its _meta fits schema/mcp-result.schema.json" ||
  not_ok "an MCP bash result has no structuredContent, and its _meta fits schema/mcp-result.schema.json" "$mcp_check"
