#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `sluice schema` (tool definition with the working directory, and what a
# sandboxed mode forbids) and `sluice doctor` (it reports, and warns when
# degraded).
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
if grep -q '^landlock: unavailable' <<<"$out" || grep -q 'print-features failed' <<<"$out"; then
  [ "$rc" -eq 1 ] && grep -q 'WARNING\|unknown' <<<"$out"
  report $? "doctor warns when degraded" "$out"
else
  grep -q '^landlock: ABI [0-9]' <<<"$out"
  report $? "doctor reports the Landlock ABI" "$out"
fi
