#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What must keep working inside the sandbox: ls, cat, pipes, git status, a
# bash script, writing in the workspace under workspace-write, 2>/dev/null,
# mktemp in the private TMPDIR, and the program's own exit status; and the
# two refusals met on the way, each with its positive control.
. "$SLUICE_SRCDIR/tests/lib.sh"

ws=$TEST_TMP/ws
tmp=$TEST_TMP/tmp
mkdir -p "$ws/src" "$tmp"
echo hello >"$ws/src/greeting.txt"
git -C "$ws" init -q
git -C "$ws" -c user.name=t -c user.email=t@t add src
git -C "$ws" -c user.name=t -c user.email=t@t commit -q -m init
printf '#!/bin/bash\nset -e\nfor i in 1 2 3; do echo "line $i"; done | wc -l\n' >"$ws/script.sh"
chmod +x "$ws/script.sh"

# The TMPDIR: the private /tmp where a mount namespace can be had, else
# the --tmpdir folder.
tmpdir_seen=/tmp
if "$SLUICE_LAUNCH" --print-features 2>/dev/null | grep -q '"namespace":"unavailable"'; then
  tmpdir_seen=$tmp
fi

# box PROFILE CMD...: run CMD under PROFILE with the workspace and TMPDIR
# (and the options in box_opts).
box_opts=()
box() {
  local profile=$1
  shift
  run timeout 20 "$SLUICE_LAUNCH" --profile "$profile" --workspace "$ws" --tmpdir "$tmp" \
    --chdir "$ws" "${box_opts[@]}" -- "$@"
}

for profile in restricted workspace-write; do
  box "$profile" ls /
  expect "$profile: ls /" 0 '^(bin|usr)$'
  box "$profile" cat src/greeting.txt
  expect "$profile: cat a workspace file" 0 '^hello$'
  box "$profile" "$BASH" -c 'cat src/greeting.txt | tr a-z A-Z | sed s/L/l/g'
  expect "$profile: a pipeline" 0 '^HEllO$'
  box "$profile" git status --short --branch
  expect "$profile: git status" 0 '^## '
  box "$profile" ./script.sh
  expect "$profile: a bash script" 0 '^3$'
  box "$profile" "$BASH" -c 'ls /nonexistent 2>/dev/null; echo quiet >/dev/null; echo done'
  expect "$profile: 2>/dev/null and >/dev/null" 0 '^done$'
  box "$profile" "$BASH" -c 'f=$(mktemp) && echo x >"$f" && cat "$f" && echo "$f"'
  expect "$profile: mktemp in the private TMPDIR" 0 "^$tmpdir_seen/tmp\\."
  box "$profile" head -c 4 /dev/urandom
  expect "$profile: /dev/urandom readable" 0
  box "$profile" "$BASH" -c 'exit 7'
  expect "$profile: the program's own exit status" 7
done

box workspace-write "$BASH" -c 'echo new >src/new.txt && mkdir -p src/d/e && mv src/new.txt src/d/e/ && cat src/d/e/new.txt'
expect "workspace-write: create, mkdir and rename in the workspace" 0 '^new$'
# The two refusals, each with its positive control: unrestricted, the same
# write makes the file (attack_check, tests/lib.sh). `box` fails only when
# the launcher refused to start (125).
attack_check "restricted: the same write is refused" \
  'box unrestricted "$BASH" -c "echo new >src/new2.txt"; [ "$rc" -ne 125 ]' \
  'box restricted "$BASH" -c "echo new >src/new2.txt"; [ "$rc" -ne 125 ]' \
  '[ -e "$ws/src/new2.txt" ]' 'rm -f "$ws/src/new2.txt"'
expect "restricted: the refusal is the sandbox's" 1 '' 'Permission denied|Read-only file system'
# With Landlock alone, .git keeps the top level read-only (docs/launcher.md);
# the namespace makes it writable, and git commit works.
box_opts=(--namespace off)
attack_check "workspace-write with .git, Landlock alone: no new top-level entry (documented)" \
  'box unrestricted "$BASH" -c "echo top >top.txt"; [ "$rc" -ne 125 ]' \
  'box workspace-write "$BASH" -c "echo top >top.txt"; [ "$rc" -ne 125 ]' \
  '[ -e "$ws/top.txt" ]' 'rm -f "$ws/top.txt"'
expect "workspace-write with .git, Landlock alone: the refusal is Landlock's" 1 '' 'Permission denied'
box_opts=()
if "$SLUICE_LAUNCH" --print-features | grep -q '"namespace":"unavailable"'; then
  skip "workspace-write with .git and the namespace: a new top-level entry" "no namespace here"
  skip "workspace-write with the namespace: git commit works" "no namespace here"
else
  box workspace-write "$BASH" -c 'echo top >top.txt && cat top.txt'
  expect "workspace-write with .git and the namespace: a new top-level entry" 0 '^top$'
  box workspace-write git -c user.name=t -c user.email=t@t commit -q -am change --allow-empty
  expect "workspace-write with the namespace: git commit works" 0
fi
run timeout 20 "$SLUICE_LAUNCH" --profile workspace-write --git-writable --workspace "$ws" \
  --chdir "$ws" -- git -c user.name=t -c user.email=t@t commit -q -am change --allow-empty
expect "workspace-write --git-writable: git commit works" 0
box unrestricted "$BASH" -c 'echo free >"$0"' "$TEST_TMP/outside.txt"
expect "unrestricted: writes anywhere the user can" 0
