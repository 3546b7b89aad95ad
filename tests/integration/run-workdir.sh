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

# A sandboxed command's workspace may not hold the user's own files: the
# home directory (or a directory above it), sluice's configuration, or /.
home="$TEST_TMP/home/user"
mkdir -p "$home/project" "$home/.config/sluice/sub" "$TEST_TMP/elsewhere"
echo 'echo planted' >"$home/.bashrc"
guarded() { # NAME WANT-STATUS WORKSPACE [OUT-PATTERN] [SANDBOX]
  run env HOME="$home" XDG_CONFIG_HOME="$home/.config" "$SLUICE" run \
    --sandbox "${5:-workspace-write}" -C "$3" -- 'echo ran >>"$HOME/.bashrc"; echo ran'
  expect "$1" "$2" "${4:-}"
}
for mode in workspace-write restricted; do
  guarded "$mode: / as the workspace is refused" 125 / \
    "invalid_working_dir: the workspace '/' holds every file" $mode
  guarded "$mode: the home directory as the workspace is refused" 125 "$home" \
    "invalid_working_dir: the workspace '[^']*/home/user' holds the home directory" $mode
  guarded "$mode: a directory above the home directory is refused" 125 "$TEST_TMP/home" \
    "holds the home directory" $mode
  guarded "$mode: a directory holding sluice's configuration is refused" 125 "$home/.config" \
    "holds sluice's configuration directory [^ ]*/home/user/.config/sluice" $mode
  guarded "$mode: sluice's configuration directory itself is refused" 125 \
    "$home/.config/sluice" "is sluice's configuration directory" $mode
  guarded "$mode: a directory inside sluice's configuration is refused" 125 \
    "$home/.config/sluice/sub" "lies inside sluice's configuration directory" $mode
done
grep -q ran "$home/.bashrc" && not_ok "a refused workspace ran nothing" "$(cat "$home/.bashrc")" ||
  ok "a refused workspace ran nothing"
run env HOME="$home" XDG_CONFIG_HOME="$home/.config" "$SLUICE" run --sandbox unrestricted \
  -C "$home" -- 'echo ran'
expect "unrestricted may run in the home directory (it confines nothing)" 0 '^ran$'
run env HOME="$home" XDG_CONFIG_HOME="$home/.config" "$SLUICE" run --sandbox restricted \
  -C "$home/project" -- 'echo ran'
expect "a project directory inside the home directory is a workspace" 0 '^ran$'
ln -s "$home" "$TEST_TMP/home-link"
run env HOME="$TEST_TMP/home-link" XDG_CONFIG_HOME="$home/.config" "$SLUICE" run \
  --sandbox restricted -C "$home" -- 'echo ran'
expect "a home directory spelt through a symbolic link is still refused" 125 'holds the home directory'
# A configuration directory that does not exist yet is still found where a
# command would create it: through a symbolic link into the workspace (a
# dotfiles repository), or as a dangling link whose target the workspace
# holds. Created by the command, it would configure every later run.
dotfiles="$TEST_TMP/dotfiles"
mkdir -p "$dotfiles/config" "$TEST_TMP/dangling"
ln -s "$dotfiles/config" "$TEST_TMP/linked-config"
ln -s "$dotfiles/sluice-config" "$TEST_TMP/dangling/sluice"
for xdg in "$TEST_TMP/linked-config" "$TEST_TMP/dangling"; do
  run env HOME="$home" XDG_CONFIG_HOME="$xdg" "$SLUICE" run --sandbox workspace-write \
    -C "$dotfiles" -- 'mkdir -p config/sluice sluice-config; echo ran'
  expect "a configuration directory not created yet, under $(basename "$xdg"), is refused" \
    125 "holds sluice's configuration directory [^ ]*/dotfiles/[^ ]*, which"
  [ ! -e "$dotfiles/config/sluice" ] && [ ! -e "$dotfiles/sluice-config" ]
  report $? "a workspace refused so created no configuration directory" "$(ls -R "$dotfiles")"
  rm -rf "$dotfiles/config/sluice" "$dotfiles/sluice-config"
done

# An extra writable path that holds sluice's configuration directory: the
# launcher keeps the directory read-only once it exists, but a command could
# create a missing one there, so the run is refused until it exists.
cfghome="$TEST_TMP/cfghome"
mkdir -p "$cfghome/.config" "$TEST_TMP/project"
printf '[sandbox]\nwritable = %s\n' "$cfghome/.config" >"$TEST_TMP/writable-config.ini"
writable_run() { # COMMAND
  run env HOME="$cfghome" XDG_CONFIG_HOME= "$SLUICE" run --config "$TEST_TMP/writable-config.ini" \
    --sandbox workspace-write -C "$TEST_TMP/project" -- "$1"
}
writable_run 'mkdir -p "$HOME/.config/sluice"; echo ran'
expect "a writable path that holds a configuration directory not created yet is refused" 125 \
  "config_error: the writable path '[^']*/cfghome/.config' holds sluice's configuration directory [^ ]*/cfghome/.config/sluice, which does not exist yet"
[ ! -e "$cfghome/.config/sluice" ]
report $? "a writable path refused so let nothing create the configuration directory" \
  "$(ls -la "$cfghome/.config")"
mkdir "$cfghome/.config/sluice"
writable_run 'echo ran'
expect "once the configuration directory exists, the writable path is accepted" 0 '^ran$'

# [sandbox] writable = ~/...: "~" is the home; a path that does not exist
# is the configuration's error, naming the key, the file:line and the path,
# and nothing runs (not a launcher that fails every command).
tilde_home="$TEST_TMP/tilde-home"
mkdir -p "$tilde_home/.npm" "$TEST_TMP/tilde-project"
tilde_run() { # CONFIG-TEXT COMMAND
  printf '[sandbox]\n%s\n' "$1" >"$TEST_TMP/tilde.ini"
  run env HOME="$tilde_home" "$SLUICE" run --config "$TEST_TMP/tilde.ini" \
    --sandbox workspace-write -C "$TEST_TMP/tilde-project" -- "$2"
}
tilde_run 'writable =' 'echo cached >~/.npm/entry && echo wrote'
[ "$rc" -ne 0 ] && [ ! -e "$tilde_home/.npm/entry" ]
report $? "without a writable line, ~/.npm is read-only in the sandbox" "rc=$rc" "$out"
tilde_run 'writable = ~/.npm' 'echo cached >~/.npm/entry && echo wrote'
[ "$rc" -eq 0 ] && [ "$(cat "$tilde_home/.npm/entry" 2>/dev/null)" = cached ]
report $? "writable = ~/.npm expands to the home, which the command then writes" "rc=$rc" "$out" "$err"
tilde_run 'writable = ~/.cache/pip' 'touch tilde-ran'
expect "a writable path that does not exist is a config_error naming key, file:line and path" 125 \
  "config_error" "tilde\\.ini:2: \\[sandbox\\] writable: '$tilde_home/\\.cache/pip' does not exist"
[ ! -e "$TEST_TMP/tilde-project/tilde-ran" ]
report $? "with a writable path that does not exist nothing runs"
tilde_run 'writable = relative/dir' true
expect "a relative writable path is a config_error" 125 \
  "config_error" "tilde\\.ini:2: \\[sandbox\\] writable: 'relative/dir' is not an absolute path"
