#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `sluice schema` (tool definition with the working directory, and what a
# sandboxed mode forbids) and `sluice doctor` (it reports, and warns when
# degraded).
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
# The capabilities, as the kernel reports them for this process (CapEff).
capeff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
sys_admin=$(((16#$capeff >> 21) & 1))
if [ "$capeff" = 0000000000000000 ]; then
  want_caps='^capabilities: none$'
else
  want_caps='^capabilities: .*(all|sys_admin)'
fi
if [ "$sys_admin" -eq 1 ]; then
  want_ns='^mount namespace: CAP_SYS_ADMIN is held'
else
  want_ns='^mount namespace: needs an unprivileged user namespace'
fi
if grep -qE "$want_caps" <<<"$out" && grep -qE "$want_ns" <<<"$out"; then
  ok "doctor reports the capabilities held and how a mount namespace can be had (CapEff $capeff)"
else
  not_ok "doctor reports the capabilities held and how a mount namespace can be had" \
    "CapEff $capeff, wanted /$want_caps/ and /$want_ns/" "$out"
fi
if grep -q '^landlock: unavailable' <<<"$out" || grep -q 'print-features failed' <<<"$out"; then
  [ "$rc" -eq 1 ] && grep -q 'WARNING\|unknown' <<<"$out" && ok "doctor warns when degraded" || not_ok "doctor warns when degraded" "$out"
else
  grep -q '^landlock: ABI [0-9]' <<<"$out" && ok "doctor reports the Landlock ABI" || not_ok "doctor reports the Landlock ABI" "$out"
fi
