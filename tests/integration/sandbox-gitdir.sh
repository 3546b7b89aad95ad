#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the launcher makes writable of a repository, attacked through
# `sluice run` as a command would: a .git file it writes naming a folder
# outside the workspace ($HOME, /, a repository it planted), a symlinked
# .git, a linked worktree that git did not register both ways or that
# belongs to someone else, and the files git's configuration includes.
# Each attack runs first without the sandbox (the positive control: the
# harm happens, checked from outside as the user would meet it: ~/.bashrc
# changed, or a mark made by the user's own `git status` or `git commit`),
# then in workspace-write, where it must not. Then the everyday work that
# must keep working: a worktree added in one run and committed to in the
# next, `git gc` there, and a repository whose gitdir cannot be trusted
# failing with a message that says why.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# the commands must meet the home, repositories and files there.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"

bashrc_text='# the user'"'"'s own'
reset_bashrc() { printf '%s\n' "$bashrc_text" >"$HOME/.bashrc"; }
bashrc_intact() { [ "$(cat "$HOME/.bashrc")" = "$bashrc_text" ]; }

# in MODE DIR COMMAND: COMMAND through sluice run in MODE, the JSON result
# in out.
in_mode() {
  local mode=$1 dir=$2 command=$3
  run "$SLUICE" run -C "$dir" --sandbox "$mode" --format json -- "$command"
}

# user_git DIR MARK: git run outside as the user would (status, then a
# commit that runs the hooks); true when MARK appeared.
user_git() {
  rm -f "$marks/$2"
  (cd "$1" && git status >/dev/null 2>&1 && git commit -q --allow-empty -m user >/dev/null 2>&1)
  [ -e "$marks/$2" ]
}

# evil: a hook (its mark named after it) or an fsmonitor (its first word)
evil=$TEST_TMP/evil-hook
printf '#!/bin/sh\ntouch "%s/${1:-$(basename "$0")}"\n' "$marks" >"$evil"
chmod +x "$evil"

# attack NAME SETUP PLANT HARMED: for each mode, SETUP (bash, outside)
# makes a fresh scene, PLANT (bash) is the attack, each of its steps a
# `boxed DIR COMMAND` (a run in that mode), and HARMED (bash, outside) is
# true when the harm happened. Unrestricted must be harmed; workspace-write
# not.
attack() {
  local name=$1 setup=$2 plant=$3 harmed=$4
  for mode in unrestricted workspace-write; do
    eval "$setup"
    eval "$plant"
    if [ "$mode" = unrestricted ]; then
      eval "$harmed"
      report $? "$name: without the sandbox, the attack works (positive control)" "$out" "$err"
    elif eval "$harmed"; then
      not_ok "$name: stopped in workspace-write" "$out" "$err"
    else
      ok "$name: stopped in workspace-write"
    fi
  done
}
boxed() { in_mode "$mode" "$1" "$2"; }

# --- §1: a .git file naming a folder outside the workspace
mono=$HOME/mono
new_repo "$mono"
mkdir -p "$mono/pkg"
attack "a .git file naming \$HOME, then a new run writing ~/.bashrc" \
  'reset_bashrc; rm -rf "$mono/pkg/.git" "$HOME/config" "$HOME/hooks" "$HOME/commondir"' \
  'boxed "$mono/pkg" "echo gitdir: $HOME >.git"; boxed "$mono/pkg" "echo planted >>~/.bashrc"' \
  '! bashrc_intact'
[ ! -e "$HOME/config" ] && [ ! -e "$HOME/hooks" ] && [ ! -e "$HOME/commondir" ]
report $? "the launcher made nothing in \$HOME (config, hooks, commondir)" "$(ls -a "$HOME")"

attack "a relative gitdir: naming \$HOME through .." \
  'reset_bashrc; rm -rf "$mono/pkg/.git"' \
  'boxed "$mono/pkg" "echo gitdir: ../.. >.git"; boxed "$mono/pkg" "echo planted >>~/.bashrc"' \
  '! bashrc_intact'

# A linked worktree the command plants in the repository's own gitdir,
# whose commondir names $HOME: from the worktree, a new run must not get
# $HOME writable. (worktrees/ does not exist yet, so it is not covered.)
planted=$HOME/planted
plant_worktree() { # NAME COMMONDIR
  boxed "$planted" "mkdir -p .git/worktrees/$1 wt && echo '$2' >.git/worktrees/$1/commondir && echo '$planted/wt/.git' >.git/worktrees/$1/gitdir && git rev-parse HEAD >.git/worktrees/$1/HEAD && echo 'gitdir: $planted/.git/worktrees/$1' >wt/.git"
}
attack "a planted linked worktree whose commondir names \$HOME" \
  'reset_bashrc; rm -rf "$planted"; new_repo "$planted"' \
  'plant_worktree evil "$HOME"; boxed "$planted/wt" "echo planted >>~/.bashrc"' \
  '! bashrc_intact'

# The same, its commondir naming /: a mark made at the top of the
# filesystem would show it. Only checked sandboxed (no mark made in /).
rm -rf "$planted"
new_repo "$planted"
mark=/sluice-gitdir-test-$$
mode=workspace-write
plant_worktree root /
boxed "$planted/wt" "touch $mark"
if ran "a planted worktree whose commondir names /"; then
  [ ! -e "$mark" ]
  report $? "a planted worktree whose commondir names /: / stays read-only" "$out" || rm -f "$mark"
fi

# A symlinked .git whose target lies in the workspace: its hooks.
symrepo=$HOME/symrepo
attack "a symlinked .git: a hook planted in its target" \
  'rm -rf "$symrepo"; new_repo "$symrepo"; mv "$symrepo/.git" "$symrepo/.realgit"; ln -s .realgit "$symrepo/.git"' \
  'boxed "$symrepo" "cp $evil .realgit/hooks/pre-commit"' \
  'user_git "$symrepo" pre-commit'

# --- §4: the files git's configuration includes
inc=$HOME/inc
# scene_include LINE...: a repository with a tracked .gitconfig.project,
# whose .git/config gets the LINEs (an [include] or an [includeIf]).
scene_include() {
  rm -rf "$inc"
  new_repo "$inc"
  printf '[user]\n\tname = Project\n' >"$inc/.gitconfig.project"
  git -C "$inc" add .gitconfig.project
  git -C "$inc" commit -q -m project-config
  printf '%s\n' "$@" >>"$inc/.git/config"
}
# fsmonitor_into FILE MARK: a run that makes FILE set core.fsmonitor.
fsmonitor_into() {
  boxed "$inc" "mkdir -p \"\$(dirname $1)\" && printf '[core]\\n\\tfsmonitor = \"%s %s\"\\n' $evil $2 >>$1"
}
attack "core.fsmonitor appended to a tracked file .git/config includes" \
  'scene_include "[include]" "	path = ../.gitconfig.project"' \
  'fsmonitor_into .gitconfig.project fsmonitor-include' \
  'user_git "$inc" fsmonitor-include'
attack "an includeIf onbranch: target that did not exist" \
  'scene_include "[includeIf \"onbranch:main\"]" "	path = ../.gitconfig.branch"' \
  'fsmonitor_into .gitconfig.branch fsmonitor-onbranch' \
  'user_git "$inc" fsmonitor-onbranch'
attack "an includeIf gitdir: target in a folder that did not exist" \
  'scene_include "[includeIf \"gitdir:$inc/\"]" "	path = ../conf/local/git.cfg"' \
  'fsmonitor_into conf/local/git.cfg fsmonitor-gitdir' \
  'user_git "$inc" fsmonitor-gitdir'
mkdir -p "$TEST_TMP/evil-hooks" && cp "$evil" "$TEST_TMP/evil-hooks/pre-commit"
attack "a chain of includes: core.hooksPath in the second file" \
  'scene_include "[include]" "	path = ../.gitconfig.project"; printf "[include]\n\tpath = team/extra.cfg\n" >>"$inc/.gitconfig.project"; mkdir -p "$inc/team"; : >"$inc/team/extra.cfg"' \
  'boxed "$inc" "printf \"[core]\\n\\thooksPath = $TEST_TMP/evil-hooks\\n\" >>team/extra.cfg"' \
  'user_git "$inc" pre-commit'
attack "an include inside .git that did not exist" \
  'scene_include "[include]" "	path = config.local"' \
  'fsmonitor_into .git/config.local fsmonitor-dotgit' \
  'user_git "$inc" fsmonitor-dotgit'
attack "an include the user's global config names in the workspace" \
  'scene_include; git config --global include.path "$inc/.team.gitconfig"; : >"$inc/.team.gitconfig"' \
  'fsmonitor_into .team.gitconfig fsmonitor-global' \
  'user_git "$inc" fsmonitor-global'
git config --global --unset include.path

# The same where the workspace has no .git of its own (a plain folder, a
# package folder of a repository above it): the user's global
# configuration includes a file there, or names a folder there as
# core.hooksPath, and the user's git in any repository ($inc here) follows
# it. And git's global file itself in the workspace: ~/.config/git kept as
# a repository of its own.
dots=$HOME/dots
scene_dots() { # plain|package
  rm -rf "$dots" "$HOME/mono2"
  if [ "$1" = package ]; then new_repo "$HOME/mono2"; dots=$HOME/mono2/dots; else dots=$HOME/dots; fi
  mkdir -p "$dots/hooks"
  : >"$dots/team.gitconfig"
  scene_include
}
for where in plain package; do
  attack "a file the global config includes, in a $where folder with no .git" \
    'scene_dots '$where'; git config --global include.path "$dots/team.gitconfig"' \
    'boxed "$dots" "printf '"'"'[core]\\n\\tfsmonitor = \"%s %s\"\\n'"'"' $evil fsmonitor-'$where' >>team.gitconfig"' \
    'user_git "$inc" fsmonitor-'$where
  git config --global --unset include.path
  attack "a global core.hooksPath in a $where folder with no .git" \
    'scene_dots '$where'; git config --global core.hooksPath "$dots/hooks"' \
    'boxed "$dots" "cp $evil hooks/pre-commit"' \
    'user_git "$inc" pre-commit'
  git config --global --unset core.hooksPath
done
xdg_git=$XDG_CONFIG_HOME/git
attack "git's global file in the workspace (~/.config/git as a repository)" \
  'rm -rf "$xdg_git"; new_repo "$xdg_git"; : >"$xdg_git/config"; scene_include' \
  'boxed "$xdg_git" "printf '"'"'[core]\\n\\tfsmonitor = \"%s %s\"\\n'"'"' $evil fsmonitor-xdg >>config"' \
  'user_git "$inc" fsmonitor-xdg'
rm -rf "$xdg_git"
# Work in such a folder goes on beside the protected file.
scene_dots plain
git config --global include.path "$dots/team.gitconfig"
in_mode workspace-write "$dots" 'echo w >work.txt; echo x >>team.gitconfig'
if ran "a plain folder beside a globally included file"; then
  [ "$(cat "$dots/work.txt")" = w ] && [ ! -s "$dots/team.gitconfig" ] &&
    grep -q 'Read-only file system' <<<"$(json_get "$out" 'd["output"]')"
  report $? "a plain folder's files are written beside a globally included file, which stays read-only" "$out"
fi
if fallback_works; then
  run fallback "$SLUICE" run -C "$dots" --sandbox workspace-write --format json -- \
    "echo edit >work.txt; printf '[core]\\n\\tfsmonitor = \"$evil fb-global\"\\n' >>team.gitconfig"
  if ran "the fallback keeps a globally included file of a plain folder read-only"; then
    [ "$(cat "$dots/work.txt")" = edit ] && ! user_git "$inc" fb-global
    report $? "the fallback keeps a globally included file of a plain folder read-only, its neighbours writable" "$out"
  fi
else
  skip "the fallback keeps a globally included file of a plain folder read-only" "cannot make a child user namespace here (unshare -U -r, setpriv)"
fi
git config --global --unset include.path

# The included file stays read-only, and git commit works beside it.
scene_include "[include]" "	path = ../.gitconfig.project"
in_mode workspace-write "$inc" 'echo w >work.txt && git add work.txt && git commit -q -m work; echo x >>.gitconfig.project'
if [ -n "$namespace" ] && ran "git commit beside an included file"; then
  [ "$(git -C "$inc" log -1 --format=%s)" = work ] &&
    grep -q 'Read-only file system' <<<"$(json_get "$out" 'd["output"]')"
  report $? "git commit works beside an included file, which stays read-only" "$out"
fi
[ "$(json_get "$out" '"git-includes" in d["sandbox"]["enforced"]')" = True ]
report $? "the result names git-includes enforced" "$out"
grep -q '"git-includes"' <<<"$features"
report $? "--print-features names git-includes" "$features"

# Where no namespace can be had, Landlock alone keeps the included file
# (and one that did not exist) read-only, its neighbours writable.
if ! fallback_works; then
  skip "the fallback keeps included files read-only" "cannot make a child user namespace here (unshare -U -r, setpriv)"
else
  scene_include "[include]" "	path = ../.gitconfig.project" "[include]" "	path = ../.gitconfig.later"
  run fallback "$SLUICE" run -C "$inc" --sandbox workspace-write --format json -- \
    "echo edit >README; printf '[core]\\n\\tfsmonitor = \"$evil fb-include\"\\n' | tee -a .gitconfig.project >>.gitconfig.later"
  if ran "the fallback keeps included files read-only"; then
    [ "$(cat "$inc/README")" = edit ] && ! user_git "$inc" fb-include &&
      [ "$(json_get "$out" '"git-includes" in d["sandbox"]["enforced"] and "mount-namespace" in d["sandbox"]["missing"]')" = True ]
    report $? "the fallback keeps included files read-only (git-includes enforced), their neighbours writable" "$out"
  fi
fi

# --- a full file system: what the launcher writes is whole or absent. In a
# private user and mount namespace, a small tmpfs filled up; the control
# shows what a plain write of commondir leaves there (an empty file, and
# git broken inside sluice and out); the launcher must leave none.
full=$TEST_TMP/full
mkdir -p "$full"
# shellcheck disable=SC2016 # expanded by the inner shell
full_script='
mount -t tmpfs -o size=256k tmpfs "$1" || exit 3
git init -q "$1/repo" && git init -q "$1/control" || exit 3
head -c 1M /dev/zero >"$1/fill" 2>/dev/null
echo . >"$1/control/.git/commondir" 2>/dev/null
git -C "$1/control" status >/dev/null 2>&1 && echo control=works || echo control=broken
"$SLUICE" run -C "$1/repo" --sandbox workspace-write -- true >/dev/null 2>&1
echo "run=$?"
echo "left=$(cd "$1/repo/.git" && echo commondir*)"
git -C "$1/repo" status >/dev/null 2>&1 && echo status=works || echo status=broken
'
if ! unshare -U -r -m true 2>/dev/null; then
  skip "a full file system leaves no half-written commondir" "no user and mount namespace for a small tmpfs here"
else
  got=$(unshare -U -r -m "$BASH" -c "$full_script" full "$full" 2>&1)
  if grep -q control=broken <<<"$got"; then
    ok "a commondir written plainly on a full file system breaks git (positive control)"
  else
    not_ok "a commondir written plainly on a full file system breaks git (positive control)" "$got"
  fi
  grep -q 'left=commondir\*' <<<"$got" && grep -q status=works <<<"$got" && grep -q run=125 <<<"$got"
  report $? "on a full file system the run is refused, no commondir left half-written, git works" "$got"
fi

# --- linked worktrees: everyday work
if [ -z "$namespace" ]; then
  skip "linked worktrees work" "no mount namespace here: .git is read-only as a whole"
  exit 0
fi
main=$HOME/main
new_repo "$main"
in_mode workspace-write "$main" 'git worktree add -q wt -b wt-branch'
ran "git worktree add in a run" && { [ -f "$main/wt/.git" ]; report $? "git worktree add in a run" "$out"; }
in_mode workspace-write "$main/wt" 'echo w >w.txt && git add w.txt && git commit -q -m in-worktree'
[ "$(git -C "$main/wt" log -1 --format=%s)" = in-worktree ]
report $? "a worktree added in one run is committed to in the next" "$out"
in_mode workspace-write "$main/wt" 'git gc -q && git commit -q --allow-empty -m after-gc'
[ "$(json_get "$out" 'd["exitCode"]')" = 0 ] && [ "$(git -C "$main/wt" log -1 --format=%s)" = after-gc ] &&
  git -C "$main" fsck --no-progress >/dev/null 2>&1
report $? "git gc in a linked worktree" "$out"
in_mode workspace-write "$main" 'git gc -q && git commit -q --allow-empty -m main-after-gc'
[ "$(json_get "$out" 'd["exitCode"]')" = 0 ] && git -C "$main" fsck --no-progress >/dev/null 2>&1
report $? "git gc in the main worktree, with a linked worktree" "$out"

# A worktree added outside sluice: the main repository has no commondir to
# cover, which the launcher does not make outside the workspace; the
# commit's data (objects, refs, logs) stay writable, the rest read-only.
other=$HOME/other
new_repo "$other"
git -C "$other" worktree add -q "$HOME/other-wt" -b other-branch
in_mode workspace-write "$HOME/other-wt" 'echo o >o.txt && git add o.txt && git commit -q -m other-wt && git switch -q -c next && git commit -q --allow-empty -m next'
[ "$(git -C "$HOME/other-wt" log -1 --format=%s)" = next ] && [ ! -e "$other/.git/commondir" ]
report $? "a worktree whose main repository lacks a commondir: commit and switch work, nothing made there" "$out"

# A worktree whose registration does not hold fails with a message.
cp "$other/.git/worktrees/other-wt/gitdir" "$TEST_TMP/gitdir-saved"
echo "$HOME/elsewhere/.git" >"$other/.git/worktrees/other-wt/gitdir"
in_mode workspace-write "$HOME/other-wt" 'git commit -q --allow-empty -m must-fail'
[ "$(git -C "$HOME/other-wt" log -1 --format=%s)" = next ] &&
  grep -q elsewhere <<<"$(json_get "$out" 'd["sandbox"]["git_read_only"]')"
report $? "a worktree git does not list both ways stays read-only, and the result says why" "$out"
run "$SLUICE" run -C "$HOME/other-wt" --sandbox workspace-write -- 'git commit -q --allow-empty -m must-fail'
grep -q "^\[sandbox: the repository this workspace's .git file names lies outside the workspace and is read-only here.*elsewhere/.git" <<<"$out"
report $? "the text a model reads says why git failed" "$out"
cp "$TEST_TMP/gitdir-saved" "$other/.git/worktrees/other-wt/gitdir"

# Run as root, a repository that belongs to another user is not trusted.
if [ "$(id -u)" -eq 0 ] && id -u nobody >/dev/null 2>&1; then
  chown -R nobody "$other/.git/worktrees/other-wt"
  in_mode workspace-write "$HOME/other-wt" "git -c safe.directory='*' commit -q --allow-empty -m must-fail"
  [ "$(git -c safe.directory='*' -C "$HOME/other-wt" log -1 --format=%s)" = next ] &&
    grep -q "belongs to uid" <<<"$(json_get "$out" 'd["sandbox"]["git_read_only"]')"
  report $? "as root, a worktree's gitdir owned by another user stays read-only" "$out"
  chown -R root "$other/.git/worktrees/other-wt"
else
  skip "a worktree's gitdir owned by another user" "needs root and a user 'nobody'"
fi

# A submodule checked out as the workspace: its repository (in the
# superproject's .git/modules) has no commondir to cover, so it stays
# read-only, and the result says why.
sub_src=$HOME/sub-src
new_repo "$sub_src"
super=$HOME/super
new_repo "$super"
git -C "$super" -c protocol.file.allow=always submodule add -q "$sub_src" sub >/dev/null 2>&1
git -C "$super" commit -q -m sub
in_mode workspace-write "$super/sub" 'git commit -q --allow-empty -m in-sub'
[ "$(git -C "$super/sub" log -1 --format=%s)" = init ] &&
  grep -q commondir <<<"$(json_get "$out" 'd["sandbox"]["git_read_only"]')" &&
  [ ! -e "$super/.git/modules/sub/commondir" ]
report $? "a submodule's repository outside the workspace stays read-only, and the result says why" "$out"
