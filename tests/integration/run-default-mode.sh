#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The built-in default mode: workspace-write, so a user who configures
# nothing is protected; a caller may change a default that nobody chose,
# never a configured mode; and where the kernel has no Landlock (taken away
# here by a seccomp filter), the default falls back to unrestricted with a
# warning in doctor and in every result, while a chosen mode is refused.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

WITHOUT=$SLUICE_BUILDDIR/tests/launcher/without-landlock
ws="$TEST_TMP/ws"
mkdir -p "$ws" "$TEST_TMP/outside"
abi=$(json_get "$("$SLUICE_LAUNCH" --print-features 2>/dev/null)" 'd["landlock_abi"]' 2>/dev/null || echo 0)

if [ "${abi:-0}" -lt 1 ]; then
  skip "with nothing configured, commands run in workspace-write" "no Landlock here (ABI ${abi:-0})"
else
  run "$SLUICE" run -C "$ws" --format json -- \
    "echo in >inside.txt; echo out >'$TEST_TMP/outside/planted'; cat inside.txt"
  [ "$(json_get "$out" 'd["sandbox"]["mode"]')" = workspace-write ] &&
    [ -f "$ws/inside.txt" ] && [ ! -e "$TEST_TMP/outside/planted" ] &&
    [ "$(json_get "$out" '"fallback" not in d["sandbox"]')" = True ]
  report $? "with nothing configured, commands run in workspace-write: the workspace is written, nothing outside" \
    "rc=$rc" "$out"
fi

run "$SLUICE" doctor
grep -q '^default sandbox mode: workspace-write (the built-in default)$' <<<"$out" ||
  grep -q '^default sandbox mode: unrestricted$' <<<"$out"
report $? "doctor names the built-in default mode" "$out"

run "$SLUICE" run -C "$ws" --sandbox unrestricted -- "echo out >'$TEST_TMP/outside/loosened'"
[ "$rc" -eq 0 ] && [ -f "$TEST_TMP/outside/loosened" ]
report $? "the caller may loosen the built-in default, which nobody chose" "rc=$rc" "$out"

printf '[sandbox]\nmode = workspace-write\n' >"$TEST_TMP/ww.ini"
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/ww.ini" --sandbox unrestricted -- true
[ "$rc" -eq 125 ] && grep -q "looser than the configured 'workspace-write'" <<<"$out"
report $? "a configured workspace-write stays the floor" "rc=$rc" "$out"

printf '[sandbox]\nmode = unrestricted\n' >"$TEST_TMP/un.ini"
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/un.ini" --format json -- \
  "echo out >'$TEST_TMP/outside/configured'"
[ "$rc" -eq 0 ] && [ -f "$TEST_TMP/outside/configured" ] &&
  [ "$(json_get "$out" 'd["sandbox"]["mode"]')" = unrestricted ]
report $? "an administrator who configures unrestricted gets it" "rc=$rc" "$out"

# ---------------------------------------------------------- without Landlock
if ! "$WITHOUT" true 2>"$TEST_TMP/without.err"; then
  skip_rest "without Landlock: the default falls back" "the seccomp filter cannot be loaded here: $(cat "$TEST_TMP/without.err")"
fi
run "$WITHOUT" "$SLUICE_LAUNCH" --print-features
[ "$(json_get "$out" 'd["landlock_abi"]')" = 0 ]
report $? "the filter takes Landlock away (the launcher sees ABI 0)" "$out"

run "$WITHOUT" "$SLUICE" run -C "$ws" --format json -- \
  "echo out >'$TEST_TMP/outside/fallback'"
[ "$rc" -eq 0 ] && [ -f "$TEST_TMP/outside/fallback" ] &&
  [ "$(json_get "$out" 'd["sandbox"]["mode"]')" = unrestricted ] &&
  [ "$(json_get "$out" '"no Landlock" in d["sandbox"]["fallback"]')" = True ]
report $? "without Landlock the default falls back to unrestricted, and the result says why" \
  "rc=$rc" "$out"

run "$WITHOUT" "$SLUICE" run -C "$ws" -- 'echo hi'
[ "$rc" -eq 0 ] && grep -q '^hi$' <<<"$out" &&
  grep -q '^\[sluice: no sandbox: this kernel has no Landlock' <<<"$out"
report $? "the text a model reads says the sandbox is off" "rc=$rc" "$out"

run "$WITHOUT" "$SLUICE" run -C "$ws" -- 'git push --force origin main'
[ "$rc" -eq 77 ] && grep -q 'git_push' <<<"$out"
report $? "without Landlock the policies still apply" "rc=$rc" "$out"

run "$WITHOUT" "$SLUICE" doctor
[ "$rc" -eq 1 ] && grep -q '^default sandbox mode: unrestricted$' <<<"$out" &&
  grep -q '^WARNING: this kernel has no Landlock' <<<"$out"
report $? "doctor warns that the default fell back" "rc=$rc" "$out"

for how in "--sandbox workspace-write" "--config $TEST_TMP/ww.ini"; do
  # shellcheck disable=SC2086 # two words each
  run "$WITHOUT" "$SLUICE" run -C "$ws" $how -- "echo out >'$TEST_TMP/outside/chosen'"
  [ "$rc" -eq 125 ] && grep -q 'sandbox_unavailable' <<<"$out" && [ ! -e "$TEST_TMP/outside/chosen" ]
  report $? "without Landlock a chosen workspace-write ($how) is refused, nothing runs" "rc=$rc" "$out"
done
