#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sandboxed modes through `sluice run --sandbox`: the result's `sandbox`
# says what was enforced, and a failure that looks like a denial gets one
# line saying what the sandbox forbids. Needs Landlock and the real launcher.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

ws="$TEST_TMP/ws"
mkdir -p "$ws"
case $SLUICE_LAUNCH in
  */fake-launch.sh) real=no ;;
  *) real=yes ;;
esac
abi=$("$SLUICE_LAUNCH" --print-features 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["landlock_abi"])' 2>/dev/null || echo 0)

run "$SLUICE" run -C "$ws" -- 'ls /nonexistent-path'
if [ "$rc" -ne 0 ] && ! grep -q '^\[sandbox:' <<<"$out"; then
  ok "unrestricted: no sandbox line"
else
  not_ok "unrestricted: no sandbox line" "$out"
fi

if [ "$real" = no ] || [ "$abi" -lt 1 ]; then
  skip "workspace-write denies writes outside the workspace" "no Landlock (ABI $abi) or no working launcher"
  skip "a denial gets the sandbox line" "no Landlock (ABI $abi) or no working launcher"
  skip "the result says what was enforced" "no Landlock (ABI $abi) or no working launcher"
  exit 0
fi

run "$SLUICE" run -C "$ws" --sandbox workspace-write -- "echo inside > '$ws/f' && cat '$ws/f' && touch /etc/sluice-must-not-exist"
if [ "$rc" -eq 1 ] && grep -q '^inside$' <<<"$out" && [ ! -e /etc/sluice-must-not-exist ]; then
  ok "workspace-write denies writes outside the workspace"
else
  not_ok "workspace-write denies writes outside the workspace" "rc=$rc" "$out"
fi
grep -q '^\[sandbox: this looks like a denial by the workspace-write sandbox, which forbids writing outside the workspace' <<<"$out" &&
  ok "a denial gets the sandbox line" || not_ok "a denial gets the sandbox line" "$out"

out=$("$SLUICE" run -C "$ws" --sandbox restricted --format json -- true) && rc=0 || rc=$?
if [ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["sandbox"]["mode"] == "restricted" and "landlock-fs" in d["sandbox"]["enforced"]')" = True ]; then
  ok "the result says what was enforced"
else
  not_ok "the result says what was enforced" "$out"
fi
