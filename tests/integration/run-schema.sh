#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `sluice schema` (tool definition with the working directory, and what a
# sandboxed mode forbids; the request's and the result's schema, the files
# installed) and `sluice doctor` (it reports, and warns when degraded).
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

ws=$(cd "$TEST_TMP" && pwd -P)
run "$SLUICE" schema -C "$ws"
if [ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["name"] == "bash" and d["input_schema"]["required"] == ["command"] and "'"$ws"'" in d["description"] and "sandbox" not in d["description"]')" = True ]; then
  ok "schema names the tool, the required command and the working directory"
else
  not_ok "schema names the tool, the required command and the working directory" "$out"
fi
run "$SLUICE" schema -C "$ws" --sandbox workspace-write
if [ "$(json_get "$out" '"forbids writing outside the workspace" in d["description"]')" = True ]; then
  ok "in a sandboxed mode, schema says what the sandbox forbids"
else
  not_ok "in a sandboxed mode, schema says what the sandbox forbids" "$out"
fi

run "$SLUICE" doctor
if [ "$rc" -le 1 ] && grep -q '^launcher: ' <<<"$out" && grep -q '^jobs directory: ' <<<"$out"; then
  ok "doctor reports the launcher and the jobs directory"
else
  not_ok "doctor reports the launcher and the jobs directory" "rc=$rc" "$out"
fi
if grep -q '^landlock: unavailable' <<<"$out" || grep -q 'print-features failed' <<<"$out"; then
  [ "$rc" -eq 1 ] && grep -q 'WARNING\|unknown' <<<"$out" && ok "doctor warns when degraded" || not_ok "doctor warns when degraded" "$out"
else
  grep -q '^landlock: ABI [0-9]' <<<"$out" && ok "doctor reports the Landlock ABI" || not_ok "doctor reports the Landlock ABI" "$out"
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
