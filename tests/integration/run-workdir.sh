#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The working directory: -C root plus a relative `directory`; nothing may
# escape the root (outside_workspace); a missing or non-directory one is
# invalid_working_dir with a message that says which.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

ws="$TEST_TMP/ws"
mkdir -p "$ws/sub/deeper"
touch "$ws/file"
ln -s / "$ws/escape"
ln -s sub "$ws/inside"
ws_real=$(cd "$ws" && pwd -P)

run "$SLUICE" run -C "$ws" -- pwd
expect "-C sets the working directory" 0 "^$ws_real\$"

req() { # DIRECTORY -> runs pwd there, JSON result in $out
  out=$(printf '{"command":"pwd","directory":"%s"}' "$1" | "$SLUICE" run -C "$ws" --json --format json) && rc=0 || rc=$?
}
kind_is() { # NAME WANT-KIND [MESSAGE-PATTERN]
  local kind msg
  kind=$(json_get "$out" 'd["error"]["kind"] if d["error"] else None')
  msg=$(json_get "$out" 'd["error"]["message"] if d["error"] else ""')
  [ "$rc" -eq 125 ] && [ "$kind" = "$2" ] && grep -q -- "${3:-}" <<<"$msg"
  report $? "$1" "rc=$rc kind=$kind" "$out"
}

req sub/deeper
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["output"].strip()')" = "$ws_real/sub/deeper" ]
report $? "a relative directory is used" "rc=$rc" "$out"
req inside
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["output"].strip()')" = "$ws_real/sub" ]
report $? "a symbolic link that stays inside is followed" "rc=$rc" "$out"
req /etc
kind_is "an absolute directory is outside_workspace" outside_workspace absolute
req ../
kind_is "'..' is outside_workspace" outside_workspace "\.\."
req sub/../../..
kind_is "'..' deeper down is outside_workspace" outside_workspace "\.\."
req escape
kind_is "a symbolic link out is outside_workspace" outside_workspace outside
req escape/etc
kind_is "a path through a link out is outside_workspace" outside_workspace outside
req missing
kind_is "a missing directory is invalid_working_dir and says so" invalid_working_dir "does not exist"
req file
kind_is "a file is invalid_working_dir and says so" invalid_working_dir "not a directory"

run "$SLUICE" run -C "$TEST_TMP/nope" -- true
expect "a missing root is refused" 125 'invalid_working_dir.*does not exist'
