#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Commands planted on the user's PATH (broker/run/protect-watch.c): a
# folder of the workspace that the user's PATH names ahead of the system's
# (direnv's PATH_add bin, a relative "bin" or ".") runs what a command puts
# there in place of the user's own git. The attack: a command writes
# bin/git, and the user's next `git status` outside, with that PATH, runs
# it with the user's full rights (the mark it leaves). It works with
# --sandbox unrestricted (the positive control); in the default sandbox the
# planted git is renamed git.sluice-blocked when the run ends (a background
# job's within its monitor's next look), the result and the text name it,
# and the user's git is the system's. A project's own tools (a name no
# system folder has, or one only a later non-system folder has, as a
# project's node_modules/.bin ahead of a global install), what was there
# before the run, and a workspace folder after the system's on the PATH
# are left alone.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="commands planted on the user's PATH"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
git_bin=$(command -v git)
[ "${git_bin%/git}" = /usr/bin ] || skip_rest "$sandbox_subject" "git is not /usr/bin/git here"
marks=$TEST_TMP/marks
mkdir -p "$marks"
# the planted git leaves a mark named as the folder it runs in
plant='mkdir -p bin && printf "#!/bin/sh\ntouch %s/\${PWD##*/}\n" >bin/git && chmod +x bin/git'
# the user's next git status in DIR, with DIR's bin/ first on the PATH
user_git() { (cd "$1" && PATH="$1/bin:$PATH" git status) >/dev/null 2>&1; }

# --- 1. the attack, unsandboxed: the user's git runs the planted one
ws=$TEST_TMP/control
new_repo "$ws"
run env PATH="$ws/bin:$PATH" "$SLUICE" run -C "$ws" --sandbox unrestricted -- "$(printf "$plant" "$marks")"
user_git "$ws"
[ -e "$marks/control" ]
report $? "control (unrestricted): a bin/git the command planted runs in the user's next git status" "$out"

# --- 2. the default sandbox: renamed when the run ends, named in the result
ws=$TEST_TMP/boxed
new_repo "$ws"
run env PATH="$ws/bin:$PATH" "$SLUICE" run -C "$ws" --format json -- "$(printf "$plant" "$marks")"
blocked=$(json_get "$out" '",".join((d.get("sandbox") or {}).get("protected_blocked", []))' 2>/dev/null)
user_git "$ws"
[ ! -e "$marks/boxed" ] && [ ! -e "$ws/bin/git" ] && [ -x "$ws/bin/git.sluice-blocked" ] &&
  [ "$blocked" = bin/git ]
report $? "default: the planted bin/git is renamed git.sluice-blocked, the user's git status is the system's" \
  "$out" "$(ls -la "$ws/bin" 2>&1)"
run env PATH="$ws/bin:$PATH" "$SLUICE" run -C "$ws" -- "$(printf "$plant" "$marks")"
grep -q "ahead of the system's" <<<"$out" && grep -q "bin/git" <<<"$out"
report $? "the text a model reads names it" "$out"

# --- 3. relative entries: "." and "bin", taken from the workspace's top
ws=$TEST_TMP/relative
new_repo "$ws"
run env PATH=".:bin:$PATH" "$SLUICE" run -C "$ws" --format json -- \
  'printf "#!/bin/sh\n" >ls && chmod +x ls && mkdir -p bin && printf "#!/bin/sh\n" >bin/cat && chmod +x bin/cat'
blocked=$(json_get "$out" '",".join(sorted((d.get("sandbox") or {}).get("protected_blocked", [])))' 2>/dev/null)
[ "$blocked" = "bin/cat,ls" ] && [ ! -e "$ws/ls" ] && [ ! -e "$ws/bin/cat" ]
report $? "relative PATH entries (. and bin) are the workspace's top and bin/: ls and bin/cat renamed" "$out"

# --- 4. left alone: a project's own tools, what was there, a folder after the system's
ws=$TEST_TMP/benign
new_repo "$ws"
mkdir -p "$ws/bin" "$TEST_TMP/global"
printf '#!/bin/sh\necho mine\n' >"$ws/bin/git" && chmod +x "$ws/bin/git"
printf '#!/bin/sh\n' >"$TEST_TMP/global/projtool-global" && chmod +x "$TEST_TMP/global/projtool-global"
run env PATH="$ws/node_modules/.bin:$ws/bin:$TEST_TMP/global:$PATH:$ws/late" "$SLUICE" run -C "$ws" --format json -- \
  'mkdir -p node_modules/.bin late && for f in node_modules/.bin/projtool-global bin/projtool late/git; do printf "#!/bin/sh\n" >$f && chmod +x $f; done'
blocked=$(json_get "$out" '",".join((d.get("sandbox") or {}).get("protected_blocked", []))' 2>/dev/null)
[ -z "$blocked" ] && [ -x "$ws/bin/projtool" ] && [ -x "$ws/node_modules/.bin/projtool-global" ] &&
  [ -x "$ws/late/git" ] && [ "$(cat "$ws/bin/git")" = "$(printf '#!/bin/sh\necho mine')" ]
report $? "a project's own tools, the user's own bin/git from before, and a folder after /usr/bin stay" "$out" "$blocked"
run env PATH="$ws/bin:$PATH" "$SLUICE" run -C "$ws" --format json -- 'printf "#!/bin/sh\necho changed\n" >bin/git'
blocked=$(json_get "$out" '",".join((d.get("sandbox") or {}).get("protected_blocked", []))' 2>/dev/null)
[ "$blocked" = bin/git ] && [ ! -e "$ws/bin/git" ]
report $? "the user's bin/git, rewritten by the command, is renamed too" "$out"

# --- 5. a background job: caught at its monitor's next look, and ended
ws=$TEST_TMP/job
new_repo "$ws"
run env PATH="$ws/bin:$PATH" "$SLUICE" run -C "$ws" --mode background --format json -- \
  "$(printf "$plant" "$marks"); sleep 60"
job=$(json_get "$out" 'd["jobId"]' 2>/dev/null)
wait_for 20 test -e "$ws/bin/git.sluice-blocked"
user_git "$ws"
[ -n "$job" ] && [ ! -e "$marks/job" ] && [ ! -e "$ws/bin/git" ]
report $? "a background job's planted bin/git is renamed while the job lives" "$out" "$(ls -la "$ws/bin" 2>&1)"
# the job ended itself when its monitor caught the planted git
[ -z "$job" ] || "$SLUICE" kill "$job" >/dev/null 2>&1 || true

# --- 6. a PATH folder reached through a symlink: one the command makes
# (bin -> .tools) is blocked, not skipped; the user's own one is followed
# to what it leads to (notes-redteam/46-path-symlink-folder.sh)
ws=$TEST_TMP/linked
new_repo "$ws"
run env PATH="$ws/bin:$PATH" "$SLUICE" run -C "$ws" --sandbox unrestricted -- \
  "mkdir -p .tools && printf '#!/bin/sh\ntouch $marks/linked\n' >.tools/git && chmod +x .tools/git && ln -s .tools bin"
user_git "$ws"
[ -e "$marks/linked" ]
report $? "control (unrestricted): bin -> .tools, .tools/git planted, runs in the user's next git status" "$out"
rm -rf "$ws/bin" "$ws/.tools" "$marks/linked"
run env PATH="$ws/bin:$PATH" "$SLUICE" run -C "$ws" --format json -- \
  "mkdir -p .tools && printf '#!/bin/sh\ntouch $marks/linked\n' >.tools/git && chmod +x .tools/git && ln -s .tools bin"
blocked=$(json_get "$out" '",".join((d.get("sandbox") or {}).get("protected_blocked", []))' 2>/dev/null)
user_git "$ws"
[ ! -e "$marks/linked" ] && [ ! -e "$ws/bin" ] && [ -L "$ws/bin.sluice-blocked" ] && [ "$blocked" = bin ]
report $? "default: a bin the command made a symlink to its own folder is renamed bin.sluice-blocked" \
  "$out" "$(ls -la "$ws" 2>&1)"
mkdir -p "$ws/tools/bin" && ln -s tools/bin "$ws/bin"
run env PATH="$ws/bin:$PATH" "$SLUICE" run -C "$ws" --format json -- "$(printf "$plant" "$marks")"
blocked=$(json_get "$out" '",".join((d.get("sandbox") or {}).get("protected_blocked", []))' 2>/dev/null)
user_git "$ws"
[ ! -e "$marks/linked" ] && [ -L "$ws/bin" ] && [ -x "$ws/tools/bin/git.sluice-blocked" ] && [ "$blocked" = bin/git ]
report $? "the user's own bin -> tools/bin is followed: a git planted through it is renamed" \
  "$out" "$(ls -la "$ws/tools/bin" 2>&1)"

# --- 7. a PATH entry outside the workspace that is a symlink into it (GNU
# stow's ~/bin -> ~/dotfiles/bin, the agent working in ~/dotfiles)
ws=$TEST_TMP/dotfiles
new_repo "$ws"
mkdir -p "$ws/bin"
ln -s "$ws/bin" "$TEST_TMP/home-bin"
stow_git() { (cd "$ws" && PATH="$TEST_TMP/home-bin:$PATH" git status) >/dev/null 2>&1; }
run env PATH="$TEST_TMP/home-bin:$PATH" "$SLUICE" run -C "$ws" --sandbox unrestricted -- "$(printf "$plant" "$marks")"
stow_git
[ -e "$marks/dotfiles" ]
report $? "control (unrestricted): bin/git planted in the folder ~/bin links to runs in the user's next git status" "$out"
rm -f "$ws/bin/git" "$marks/dotfiles"
run env PATH="$TEST_TMP/home-bin:$PATH" "$SLUICE" run -C "$ws" --format json -- "$(printf "$plant" "$marks")"
blocked=$(json_get "$out" '",".join((d.get("sandbox") or {}).get("protected_blocked", []))' 2>/dev/null)
stow_git
[ ! -e "$marks/dotfiles" ] && [ ! -e "$ws/bin/git" ] && [ "$blocked" = bin/git ]
report $? "default: the PATH entry is the workspace's bin through its symlink, and the planted git is renamed" \
  "$out" "$(ls -la "$ws/bin" 2>&1)"

# --- 8. the user's own bin/git rewritten in place, its size and mtime set
# back (touch -r): changed all the same (its ctime), and renamed
# (notes-redteam/46-path-same-size-mtime.sh)
ws=$TEST_TMP/same-size
new_repo "$ws"
mkdir -p "$ws/bin"
printf '#!/bin/sh\n# the project pins its own git wrapper\nexec /usr/bin/git "$@"\n' >"$ws/bin/git"
chmod +x "$ws/bin/git"
rewrite="touch -r bin/git .ref && n=\$(wc -c <bin/git) && { printf '#!/bin/sh\ntouch $marks/same-size; exec /usr/bin/git \"\$@\" #'; head -c 200 /dev/zero | tr '\\\\0' '#'; } | head -c \$((n - 1)) >.new && echo >>.new && cat .new >bin/git && touch -r .ref bin/git && stat -c '%s %Y' bin/git .ref"
run env PATH="$ws/bin:$PATH" "$SLUICE" run -C "$ws" --format json -- "$rewrite"
blocked=$(json_get "$out" '",".join((d.get("sandbox") or {}).get("protected_blocked", []))' 2>/dev/null)
user_git "$ws"
[ ! -e "$marks/same-size" ] && [ "$blocked" = bin/git ] && grep -q "same-size" "$ws/bin/git.sluice-blocked"
report $? "the user's bin/git rewritten with its size and mtime kept is renamed too" "$out" "$(ls -la "$ws/bin" 2>&1)"
# --- 9. 7's entry written "~/bin" (bash's command search expands the ~)
ws=$TEST_TMP/dotfiles
ln -s "$ws/bin" "$HOME/bin"
rm -f "$ws/bin/git.sluice-blocked"
run env PATH="~/bin:$PATH" "$SLUICE" run -C "$ws" --sandbox unrestricted -- "$(printf "$plant" "$marks")"
(cd "$ws" && PATH="~/bin:$PATH" bash -c 'git status') >/dev/null 2>&1
[ -e "$marks/dotfiles" ]
report $? "control (unrestricted): with PATH=\"~/bin:...\", bash runs the planted git through ~/bin" "$out"
rm -f "$ws/bin/git" "$marks/dotfiles"
run env PATH="~/bin:$PATH" "$SLUICE" run -C "$ws" --format json -- "$(printf "$plant" "$marks")"
blocked=$(json_get "$out" '",".join((d.get("sandbox") or {}).get("protected_blocked", []))' 2>/dev/null)
(cd "$ws" && PATH="~/bin:$PATH" bash -c 'git status') >/dev/null 2>&1
[ ! -e "$marks/dotfiles" ] && [ ! -e "$ws/bin/git" ] && [ "$blocked" = bin/git ]
report $? "default: an entry written ~/bin is the home's, and the planted git is renamed" "$out" "$(ls -la "$ws/bin" 2>&1)"
rm -f "$HOME/bin"

# --- 10. every name a blocked file takes made first by the command (as
# folders): the planted git is renamed all the same, to a random name
ws=$TEST_TMP/taken
new_repo "$ws"
taken='mkdir -p bin/git.sluice-blocked && for i in 2 3 4 5 6 7 8 9; do mkdir -p bin/git.sluice-blocked-$i; done && '
run env PATH="$ws/bin:$PATH" "$SLUICE" run -C "$ws" --format json -- "$taken$(printf "$plant" "$marks")"
blocked=$(json_get "$out" '",".join((d.get("sandbox") or {}).get("protected_blocked", []))' 2>/dev/null)
user_git "$ws"
[ ! -e "$marks/taken" ] && [ ! -e "$ws/bin/git" ] && [ "$blocked" = bin/git ] &&
  ls -a "$ws/bin" | grep -q '^\.\.sluice-blocked-[0-9a-f]\{16\}$'
report $? "with every numbered name taken, the planted git is renamed to a random one" "$out" "$(ls -la "$ws/bin" 2>&1)"
