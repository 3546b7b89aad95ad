#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sweep after a sandboxed run (broker/run/git-sweep.c), attacked as a
# prompt-injected agent would: a command run in the default mode plants
# something in the repository's gitdir, a nested repository or a paused
# rebase, and the harm comes later from the user's own git, outside the
# sandbox. Each attack runs twice: with [sandbox] git_sweep = no (the
# positive control: the user's git then writes ~/.bashrc, hangs, or runs
# the command's program, checked on the effect itself), then as shipped
# (nothing happens; the result, the text and the audit line say what was
# disabled, and the quarantine keeps it). Needs the namespace layer, as
# sandbox-workflows.sh does.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# the commands must meet the home, repositories and files there.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

export HOME=$TEST_TMP/home
attacks_reach_the_sandbox
# A socket planted in .git needs socket(AF_UNIX), which a run that joins
# its workspace's network cannot make: these runs have a network of their own.
printf '[sandbox]\nworkspace_network_idle = 0\n' >>"$XDG_CONFIG_HOME/sluice/sluice.ini"
repo=$HOME/proj
origin=$TEST_TMP/origin.git
mkdir -p "$HOME"
git config --global user.name "Sluice Test"
git config --global user.email test@example.invalid
git config --global init.defaultBranch main
git config --global advice.detachedHead false
printf '[sandbox]\ngit_sweep = no\n' >"$TEST_TMP/sweep-off.ini"
printf '[audit]\nfile = %s\n' "$TEST_TMP/audit.log" >"$TEST_TMP/audit.ini"

features=$("$SLUICE_LAUNCH" --print-features 2>/dev/null || true)
why=
if ! grep -q '"landlock_abi":[1-9]' <<<"$features"; then
  why="no Landlock here"
elif grep -q '"namespace":"unavailable"' <<<"$features"; then
  why="no mount namespace here (${features#*\"namespace_error\":})"
fi

# fresh: a new repository with one commit, a branch "side", a remote
# "origin"; ~/.bashrc as the user wrote it; no marks.
fresh() {
  rm -rf "$repo" "$origin" "$HOME/wt" "$HOME"/MARK* "$HOME/.bash_login"
  mkdir -p "$repo"
  git -C "$repo" init -q
  echo one >"$repo/README"
  git -C "$repo" add README
  git -C "$repo" commit -q -m init
  git -C "$repo" branch side
  git -C "$repo" switch -q side
  echo side >"$repo/side.txt"
  git -C "$repo" add side.txt
  git -C "$repo" commit -q -m side
  git -C "$repo" switch -q main
  git clone -q --bare "$repo" "$origin"
  git -C "$repo" remote add origin "$origin"
  echo "# the user's own" >"$HOME/.bashrc"
  # what the user's own tools add to it before the run (an attack's setup)
  [ -z "${fresh_extra:-}" ] || eval "$fresh_extra"
}

# trigger DIR COMMAND: the user's own command, outside the sandbox, with a
# time limit; its status in $trc.
trigger() {
  (cd "$1" && timeout 10 bash -c "$2") >"$TEST_TMP/trigger.out" 2>&1
  trc=$?
}

# attack NAME PLANT TRIGGER EFFECT [DIR]: PLANT through `sluice run` in the
# default mode (in DIR, the repository by default), then the user's
# TRIGGER; EFFECT (bash, outside) holds when the harm happened. With
# $later set, a second, later run (past the sweep's 2 s margin, as an
# agent's next command is) runs it after PLANT, the same way; the result
# and audit line checked are its.
plant_runs() { # CONFIG-ARGS...: PLANT, then $later
  run "$SLUICE" run -C "$dir" "$@" -- "$plant"
  [ -z "${later:-}" ] || [ "$rc" -ne 0 ] || { sleep 2.1; run "$SLUICE" run -C "$dir" "$@" -- "$later"; }
}
attack() {
  local name=$1 plant=$2 user=$3 effect=$4 dir=${5:-$repo}
  if [ -n "$why" ]; then
    skip "$name: positive control" "$why"
    skip "$name: stopped by the sweep" "$why"
    return
  fi
  fresh
  [ "$dir" = "$repo" ] || git -C "$repo" worktree add -q "$dir" side 2>/dev/null
  plant_runs --config "$TEST_TMP/sweep-off.ini"
  local planted=$rc
  trigger "$repo" "$user"
  if [ "$planted" -eq 0 ] && (eval "$effect"); then
    ok "$name: positive control (no sweep): the user's git was attacked"
  else
    not_ok "$name: positive control (no sweep): the user's git was attacked" \
      "plant: $rc $out $err" "trigger: $trc $(cat "$TEST_TMP/trigger.out")"
  fi

  fresh
  [ "$dir" = "$repo" ] || git -C "$repo" worktree add -q "$dir" side 2>/dev/null
  plant_runs --config "$TEST_TMP/audit.ini" --format json
  local found
  found=$(json_get "$out" '(d["gitSweep"] or {}).get("found", 0)' 2>/dev/null)
  trigger "$repo" "$user"
  if [ "$rc" -ne 0 ]; then
    not_ok "$name: stopped by the sweep" "the run failed: $rc $out $err"
  elif (eval "$effect"); then
    not_ok "$name: stopped by the sweep" "the attack worked: $out" "$(cat "$TEST_TMP/trigger.out")"
  elif [ "${found:-0}" -lt 1 ]; then
    not_ok "$name: stopped by the sweep" "gitSweep reports nothing: $out"
  elif ! tail -n 1 "$TEST_TMP/audit.log" | grep -q '"swept":[1-9]'; then
    not_ok "$name: stopped by the sweep" "the audit line says nothing" "$(tail -n 1 "$TEST_TMP/audit.log")"
  else
    ok "$name: stopped by the sweep, reported in the result and the audit line"
  fi
}

bashrc_has() {
  grep -q "$1" "$HOME/.bashrc"
}

# --- §2: what git follows or reads in the gitdir
attack "a symlink at .git/COMMIT_EDITMSG, then git commit with nothing to commit" \
  'ln -sf ~/.bashrc .git/COMMIT_EDITMSG' \
  'git commit -q -m "echo PWNED-msg"' 'bashrc_has PWNED-msg'
attack "a symlink at .git/logs/HEAD, then git commit --amend --no-edit" \
  'ln -sf ~/.bashrc .git/logs/HEAD' \
  'git commit -q --amend --no-edit' 'bashrc_has "commit (amend)"'
attack "a symlink at .git/logs/refs/stash, then git stash" \
  'mkdir -p .git/logs/refs && ln -sf ~/.bashrc .git/logs/refs/stash' \
  'echo dirty >>README && git stash -q' 'bashrc_has "WIP on"'
attack "a symlink at .git/FETCH_HEAD, then git fetch" \
  'ln -sf ~/.bashrc .git/FETCH_HEAD' \
  'git fetch -q origin' 'bashrc_has "of "'
attack "a FIFO at .git/info/exclude, then git status hangs" \
  'rm -f .git/info/exclude && mkfifo .git/info/exclude' \
  'git status --short' '[ "$trc" -eq 124 ]'
# variants
attack "a symlink at .git/logs/refs/heads/main, then git commit" \
  'ln -sf ~/.bashrc .git/logs/refs/heads/main' \
  'git commit -q --allow-empty -m PWNED-branchlog' 'bashrc_has PWNED-branchlog'
attack "a symlink at .git/SQUASH_MSG, then git merge --squash" \
  'ln -sf ~/.bashrc .git/SQUASH_MSG' \
  'git merge -q --squash side' 'bashrc_has "Squashed commit"'
attack "a dangling symlink at .git/packed-refs, then git pack-refs makes the file" \
  'ln -sf ~/.bash_login .git/packed-refs' \
  'git pack-refs --all' 'grep -q refs/heads/side "$HOME/.bash_login"'
attack "a FIFO at .git/info/attributes, then git diff hangs" \
  'mkfifo .git/info/attributes' \
  'echo x >>README && git diff --stat' '[ "$trc" -eq 124 ]'
attack "from a linked worktree: a symlink in the main repository's logs/HEAD" \
  'ln -sf ~/.bashrc "$(git rev-parse --git-common-dir)/logs/HEAD"' \
  'git commit -q --allow-empty -m PWNED-common' 'bashrc_has PWNED-common' "$HOME/wt"

# --- §4: nested repositories and a paused sequencer
attack "a nested repository with core.fsmonitor, added as a gitlink, then git status" \
  'git init -q sub && git -C sub commit -q --allow-empty -m s && git -C sub config core.fsmonitor "touch '"$HOME"'/MARK-fsm; false" && git add sub 2>/dev/null && git commit -q -m sub' \
  'git status --short' '[ -e "$HOME/MARK-fsm" ]'
# The same gitlink kept in a split index's shared part
# (.git/sharedindex.HASH), where a reader of .git/index alone does not see it.
attack "a nested repository's gitlink in a split index's shared part, then git status" \
  'git init -q sub && git -C sub commit -q --allow-empty -m s && git -C sub config core.fsmonitor "touch '"$HOME"'/MARK-split; false" && git add sub 2>/dev/null && git update-index --split-index' \
  'git status --short' '[ -e "$HOME/MARK-split" ]'
# A nested repository inside a nested repository: the top's index names
# sub, sub's own index names sub/inner; git status enters both.
attack "a repository nested twice (a gitlink of a gitlink's index), then git status" \
  'git init -q sub && git -C sub init -q inner && git -C sub/inner commit -q --allow-empty -m i && git -C sub/inner config core.fsmonitor "touch '"$HOME"'/MARK-twice; false" && git -C sub add inner 2>/dev/null && git -C sub commit -q -m s && git add sub 2>/dev/null' \
  'echo x >sub/inner/f && git status --short' '[ -e "$HOME/MARK-twice" ]'
# Past the sweep's list of nested repositories (256 kept): the 300th
# gitlink's repository is swept all the same, on the way.
many='git init -q --template= s && git -C s commit -q --allow-empty -m s && for i in $(seq -w 1 300); do cp -a s sub$i; done && '
attack "the 300th nested repository, past the sweep's list, with core.fsmonitor, then git status" \
  "$many"'git -C sub300 config core.fsmonitor "touch '"$HOME"'/MARK-300; false" && git add sub* 2>/dev/null' \
  'git status --short' '[ -e "$HOME/MARK-300" ]'
# Past the list and nested 9 deep (a gitlink of a gitlink's index ...):
# the ninth is past the depth the sweep follows on the way, so it is set
# aside (its gitdir renamed, found by no git), never left live.
deep='git init -q --template= s && git -C s commit -q --allow-empty -m s && for i in $(seq -w 1 256); do cp -a s a$i; done && mk() { git init -q --template= "$1" && git -C "$1" commit -q --allow-empty -m c; } && p=c1 && mk c1 && for i in 2 3 4 5 6 7 8 9; do mk $p/c$i; p=$p/c$i; done && git -C $p config core.fsmonitor "touch '"$HOME"'/MARK-deep; false" && d=$p && while [ $d != c1 ]; do git -C ${d%/*} add ${d##*/} 2>/dev/null && git -C ${d%/*} commit -q -m x; d=${d%/*}; done && git add a* c1 2>/dev/null'
deep_path=c1/c2/c3/c4/c5/c6/c7/c8/c9
attack "a repository nested 9 deep past the sweep's list, with core.fsmonitor, then git status" \
  "$deep" "echo x >$deep_path/f && git status --short" '[ -e "$HOME/MARK-deep" ]'
# Past the list and past the count of repositories the sweep takes on the
# way (4096: 4400 distinct minimal gitdirs, each named by a .git file):
# the last one is set aside. Triggered in it, where the user cd's.
count='git init -q --template= z && git -C z commit -q --allow-empty -m z && h=$(git -C z rev-parse HEAD) && ids=$(seq -w 1 4400) && mkdir -p $(for i in $ids; do echo gd/$i/objects gd/$i/refs b$i; done) && for i in $ids; do echo "ref: refs/heads/main" >gd/$i/HEAD && echo "gitdir: ../gd/$i" >b$i/.git; done && { for i in $ids; do printf "160000 %s\tb%s\n" $h $i; done; printf "160000 %s\tz\n" $h; } | git update-index --index-info && '
attack "a repository past the count the sweep takes on the way, with core.fsmonitor, then git status in it" \
  "$count"'git -C z config core.fsmonitor "touch '"$HOME"'/MARK-count; false"' \
  'git -C z status --short --ignore-submodules=all' '[ -e "$HOME/MARK-count" ]'
# A gitlink whose .git is a symlink to a gitdir elsewhere in the work tree
# (git follows it).
attack "a nested repository whose .git is a symlink, then git status" \
  'git init -q sub && git -C sub commit -q --allow-empty -m s && mv sub/.git .stash-g && ln -s ../.stash-g sub/.git && git -C sub config core.fsmonitor "touch '"$HOME"'/MARK-symdotgit; false" && git add sub 2>/dev/null' \
  'echo x >sub/f && git status --short' '[ -e "$HOME/MARK-symdotgit" ]'
attack "a nested repository with a pre-commit hook, then git commit in it" \
  'git init -q sub && printf "#!/bin/sh\ntouch $HOME/MARK-hook\n" >sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit && git -C sub commit -q --allow-empty -m s --no-verify && git add sub 2>/dev/null' \
  'git -C sub commit -q --allow-empty -m again' '[ -e "$HOME/MARK-hook" ]'
attack "a nested repository with a ! alias, then the alias" \
  'git init -q sub && git -C sub commit -q --allow-empty -m s && git -C sub config alias.st "!touch '"$HOME"'/MARK-alias" && git add sub 2>/dev/null' \
  'git -C sub st' '[ -e "$HOME/MARK-alias" ]'
# A submodule's gitdir (.git/modules/NAME) whose core.worktree leads out
# of the workspace: the user's git in the submodule checks its files out
# there. Directly, and through a symlink of the workspace.
sub_bashrc='mkdir -p .git/modules && git init -q --separate-git-dir=.git/modules/lib lib && printf "echo PWNED-%s\n" "$0" >lib/.bashrc && git -C lib add .bashrc && git -C lib commit -q -m s && git add lib 2>/dev/null && '
attack "a submodule whose core.worktree is the home, then git reset --hard in it" \
  "${sub_bashrc/\$0/wt}"'git -C lib config core.worktree "$HOME"' \
  'git -C lib reset -q --hard' 'bashrc_has PWNED-wt'
attack "a submodule whose core.worktree is a symlink of the workspace to the home, then git reset --hard in it" \
  "${sub_bashrc/\$0/wtlink}"'ln -s "$HOME" home-link && git -C lib config core.worktree ../../../home-link' \
  'git -C lib reset -q --hard' 'bashrc_has PWNED-wtlink'
attack "a submodule whose core.worktree ends in a form feed (a symlink by that name to the home), then git reset --hard in it" \
  "${sub_bashrc/\$0/wtff}"'ff=$(printf "\f") && ln -s "$HOME" "lib$ff" && git -C lib config core.worktree "../../../lib$ff"' \
  'git -C lib reset -q --hard' 'bashrc_has PWNED-wtff'
# The sweep's config reader reads as git's (red team 49): a backslash
# before a CRLF continues the value (git reads CRLF as a newline), so the
# "[other]" header after it is value text and the fsmonitor below is
# core's; a byte order mark before the first header is skipped.
attack "a nested repository's config whose value ends in a backslash and CRLF, hiding a header, then git status" \
  'git init -q sub && git -C sub commit -q --allow-empty -m s && printf "[core]\n\tx = y\\\\\r\n[other]\n\tfsmonitor = \"touch '"$HOME"'/MARK-crlf; false\"\n" >>sub/.git/config && git add sub 2>/dev/null' \
  'git status --short' '[ -e "$HOME/MARK-crlf" ]'
attack "a nested repository's config starting with a byte order mark, then git status" \
  'git init -q sub && git -C sub commit -q --allow-empty -m s && { printf "\357\273\277"; cat sub/.git/config; printf "\tfsmonitor = \"touch '"$HOME"'/MARK-bom; false\"\n"; } >sub/.git/c && mv sub/.git/c sub/.git/config && git add sub 2>/dev/null' \
  'git status --short' '[ -e "$HOME/MARK-bom" ]'
# A submodule in git's layout plus a second folder, side, whose .git names
# the same gitdir, and core.worktree = ../../../side: kept (every check
# holds). A later run (or a background job) replaces side by a symbolic
# link to the home, touching no config: the user's git in lib checks out
# into the home. Every sweep checks a nested gitdir's core.worktree again.
later='rm -rf side && ln -s "$HOME" side'
attack "a submodule's kept core.worktree whose folder a later run makes a link to the home, then git reset --hard in it" \
  'mkdir -p .git/modules && git init -q --separate-git-dir=.git/modules/lib side && git init -q --separate-git-dir=.git/modules/lib lib && echo x >lib/MARK-later && git -C lib add MARK-later && git -C lib commit -q -m s && git config -f .git/modules/lib/config core.worktree ../../../side && rm -f lib/MARK-later' \
  'git -C lib reset -q --hard' '[ -e "$HOME/MARK-later" ]'
later=
# A gitlink whose gitdir's commondir names a bare clone in a plain folder
# of the workspace, with core.fsmonitor: git reads the config there.
attack "a nested repository whose commondir names a bare clone in the workspace with core.fsmonitor, then git status" \
  'git init -q vendor && echo v >vendor/v && git -C vendor add v && git -C vendor commit -q -m v && git add vendor 2>/dev/null && git clone -q --bare vendor .cache && git config -f .cache/config core.fsmonitor "touch '"$HOME"'/MARK-common; false" && echo ../../.cache >>vendor/.git/commondir' \
  'git status --short' '[ -e "$HOME/MARK-common" ]'
attack "a paused interactive rebase with an exec line, then git rebase --continue" \
  'git switch -q side && GIT_SEQUENCE_EDITOR="sed -i 1ibreak" git rebase -q -i main; echo "exec touch $HOME/MARK-rb" >>.git/rebase-merge/git-rebase-todo' \
  'git rebase --continue' '[ -e "$HOME/MARK-rb" ]'

# --- hooks the user shares as links into the work tree (`ln -s
# ../../scripts/pre-commit .git/hooks/pre-commit`, or a hard link): the
# launcher keeps the hooks folder read-only, and a link's target too where
# it can; what the command could still change is the file a link leads to,
# and that hook is disabled once it no longer leads where it led
user_hook() { # NAME: .git/hooks/NAME -> ../../scripts/NAME, which marks
  mkdir -p "$repo/scripts"
  printf '#!/bin/sh\n: the users own\n' >"$repo/scripts/$1"
  chmod +x "$repo/scripts/$1"
  ln -s "../../scripts/$1" "$repo/.git/hooks/$1"
  sleep 2.1 # older than the sweep's margin
}
fresh_extra='user_hook pre-commit'
attack "a hook linked into the work tree, the folder it is in replaced, then git commit" \
  'mv scripts scripts.old && mkdir scripts && printf "#!/bin/sh\ntouch $HOME/MARK-linkdir\n" >scripts/pre-commit && chmod +x scripts/pre-commit' \
  'git commit -q --allow-empty -m c' '[ -e "$HOME/MARK-linkdir" ]'
fresh_extra='user_hook pre-commit && rm "$repo/scripts/pre-commit"'
attack "a hook linked to a file not there yet, made by the command, then git commit" \
  'printf "#!/bin/sh\ntouch $HOME/MARK-linklate\n" >scripts/pre-commit && chmod +x scripts/pre-commit' \
  'git commit -q --allow-empty -m c' '[ -e "$HOME/MARK-linklate" ]'
fresh_extra='mkdir -p "$repo/scripts" && printf "#!/bin/sh\n: the users own\n" >"$repo/scripts/commit-msg" && chmod +x "$repo/scripts/commit-msg" && ln "$repo/scripts/commit-msg" "$repo/.git/hooks/commit-msg" && sleep 2.1'
attack "a hook hard-linked to a file of the work tree, rewritten there, then git commit" \
  'printf "#!/bin/sh\ntouch $HOME/MARK-hardhook\n" >scripts/commit-msg' \
  'git commit -q --allow-empty -m c' '[ -e "$HOME/MARK-hardhook" ]'
fresh_extra=
if [ -n "$why" ]; then
  skip "the user's hooks linked into the work tree stay, and run; the command cannot rewrite their targets" "$why"
  skip "a hook link's target rewritten is stopped while the run lasts (positive control: unrestricted)" "$why"
else
  fresh
  user_hook pre-commit
  mkdir -p "$HOME/githooks"
  printf '#!/bin/sh\n: the users own\n' >"$HOME/githooks/post-commit"
  chmod +x "$HOME/githooks/post-commit"
  ln -s "$HOME/githooks/post-commit" "$repo/.git/hooks/post-commit"
  ln -s ../../scripts/not-yet "$repo/.git/hooks/pre-push"
  printf '#!/bin/sh\n: the users own\n' >"$repo/scripts/commit-msg"
  chmod +x "$repo/scripts/commit-msg"
  ln "$repo/scripts/commit-msg" "$repo/.git/hooks/commit-msg"
  sleep 2.1
  run "$SLUICE" run -C "$repo" --format json -- \
    'echo x >>README && git add README && git commit -q -m work && git status --short'
  trigger "$repo" 'git commit -q --allow-empty -m by-the-user && echo done'
  [ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["gitSweep"]')" = None ] &&
    [ -L "$repo/.git/hooks/pre-commit" ] && [ -L "$repo/.git/hooks/post-commit" ] &&
    [ -L "$repo/.git/hooks/pre-push" ] && [ -f "$repo/.git/hooks/commit-msg" ] && [ "$trc" -eq 0 ]
  report $? "the user's hooks linked into the work tree stay, and run; the command cannot rewrite their targets" \
    "$out" "$err" "$(ls -l "$repo/.git/hooks" | grep -v sample)"

  fresh
  user_hook pre-commit
  run "$SLUICE" run -C "$repo" --sandbox unrestricted -- \
    'printf "touch $HOME/MARK-target\n" >>scripts/pre-commit'
  trigger "$repo" 'git commit -q --allow-empty -m c'
  control=$([ -e "$HOME/MARK-target" ] && echo yes)
  fresh
  user_hook pre-commit
  run "$SLUICE" run -C "$repo" -- 'printf "touch $HOME/MARK-target\n" >>scripts/pre-commit'
  denied=$out$err
  trigger "$repo" 'git commit -q --allow-empty -m c'
  [ "$control" = yes ] && [ ! -e "$HOME/MARK-target" ] && grep -q 'Read-only file system' <<<"$denied" &&
    [ -L "$repo/.git/hooks/pre-commit" ]
  report $? "a hook link's target rewritten is stopped while the run lasts (positive control: unrestricted)" \
    "control: ${control:-no}" "$out" "$denied"
fi

# --- what the sweep leaves, and what it tells
if [ -n "$why" ]; then
  skip "the text a model reads names what was disabled" "$why"
  skip "the quarantine keeps the link itself" "$why"
  skip "sockets and hard links are swept; a linked name stays, alone" "$why"
  skip "a nested clone keeps working" "$why"
  skip "a repository past the sweep's bounds is set aside, said in the text; the user's git status works" "$why"
  skip "a background job is swept when it ends" "$why"
  skip "a background job cannot write the common directory a nested gitdir names (positive control: no sweep)" "$why"
  skip "git's everyday work leaves nothing to sweep; the user's own config, hooks and nested repository stay" "$why"
  skip "a submodule the run checks out keeps git's core.worktree; git works in it and in its gitdir" "$why"
  skip "a submodule the user checked out just before the run keeps git's core.worktree" "$why"
  skip "a submodule inside a submodule keeps git's core.worktree, run after run" "$why"
  skip "the main worktree's submodule keeps its core.worktree after a run in a linked worktree" "$why"
  skip "the user's own submodule whose folder a run made a link: core.worktree disabled, git submodule update restores it" "$why"
  skip "a restricted run that could write nothing lasting is not swept; the attack fails in it" "$why"
  skip "a restricted run is swept where the report does not show everything read-only" "$why"
else
  # A restricted run with nothing writable but its own /tmp can plant
  # nothing: the sweep is skipped (docs/running.md, The sweep). The same
  # plant as above (which works without the sweep in workspace-write)
  # fails there, and the user's git is unharmed, checked from outside.
  fresh
  run "$SLUICE" run -C "$repo" --sandbox restricted --format json -- 'ln -sf ~/.bashrc .git/COMMIT_EDITMSG'
  trigger "$repo" 'git commit -q -m "echo PWNED-restricted"'
  [ "$rc" -eq 1 ] && [ ! -L "$repo/.git/COMMIT_EDITMSG" ] && ! bashrc_has PWNED-restricted &&
    [ "$(json_get "$out" '"sweep-begin" in d["stepsUs"] and "sweep" not in d["stepsUs"] and d["gitSweep"] is None')" = True ]
  report $? "a restricted run that could write nothing lasting is not swept; the attack fails in it" "$out"
  # ... but where the launcher's report does not show every mount
  # read-only and /tmp its own (here the namespace layer off), it is.
  printf '[sandbox]\nnamespace = off\n' >"$TEST_TMP/namespace-off.ini"
  run "$SLUICE" run -C "$repo" --sandbox restricted --config "$TEST_TMP/namespace-off.ini" --format json -- true
  [ "$rc" -eq 0 ] && [ "$(json_get "$out" '"sweep" in d["stepsUs"]')" = True ]
  report $? "a restricted run is swept where the report does not show everything read-only" "$out"

  fresh
  run "$SLUICE" run -C "$repo" -- 'ln -sf ~/.bashrc .git/COMMIT_EDITMSG'
  grep -q "COMMIT_EDITMSG: symbolic link to $HOME/.bashrc" <<<"$out"
  report $? "the text a model reads names what was disabled" "$out"

  fresh
  run "$SLUICE" run -C "$repo" --format json -- 'ln -sf ~/.bashrc .git/logs/HEAD'
  kept=$(json_get "$out" 'd["gitSweep"]["items"][0]["kept"]')
  [ -L "$kept" ] && [ "$(readlink "$kept")" = "$HOME/.bashrc" ] &&
    [ "${kept#"$XDG_RUNTIME_DIR"/sluice/jobs/quarantine/}" != "$kept" ] &&
    grep -q "logs/HEAD" "$(dirname "$kept")/MANIFEST"
  report $? "the quarantine keeps the link itself, in the jobs directory" "$out"

  fresh
  run "$SLUICE" run -C "$repo" --format json -- \
    'python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\".git/s.sock\")" && ln .git/description .git/logs/refs/heads/twin'
  # one name of the two goes (the first the sweep meets), the other stays
  # with its content, no longer linked
  left=$(ls "$repo/.git/description" "$repo/.git/logs/refs/heads/twin" 2>/dev/null)
  [ "$rc" -eq 0 ] && [ ! -e "$repo/.git/s.sock" ] && [ "$(wc -l <<<"$left")" = 1 ] &&
    [ -s "$left" ] && [ "$(stat -c %h "$left")" = 1 ] &&
    [ "$(json_get "$out" 'd["gitSweep"]["found"]')" = 2 ]
  report $? "sockets and hard links are swept; a linked name stays, alone" "$out"

  fresh
  run "$SLUICE" run -C "$repo" --format json -- \
    "git clone -q '$origin' lib && git -C lib config core.fsmonitor 'touch $HOME/MARK-clone' && git add lib 2>/dev/null"
  trigger "$repo" 'git status --short && git -C lib log --oneline -1 && git -C lib fetch -q && git -C lib switch -q side'
  [ "$trc" -eq 0 ] && [ ! -e "$HOME/MARK-clone" ] && grep -q 'url = ' "$repo/lib/.git/config"
  report $? "a nested clone keeps working, its remote kept, its fsmonitor not" "$(cat "$TEST_TMP/trigger.out")" "$out"

  # one that cannot be swept is set aside, and the text says so
  fresh
  run "$SLUICE" run -C "$repo" -- "$deep"
  trigger "$repo" "echo x >$deep_path/f && git status --short && git -C ${deep_path%/*} log --oneline -1"
  [ "$rc" -eq 0 ] && [ -d "$repo/$deep_path/.git.sluice-unswept" ] && [ ! -e "$repo/$deep_path/.git" ] &&
    grep -q "$deep_path/.git: nested repository past the sweep's bounds, not swept: renamed .git.sluice-unswept" <<<"$out" &&
    grep -q "1 nested repository past its bounds .* not swept but set aside" <<<"$out" &&
    [ "$trc" -eq 0 ] && [ ! -e "$HOME/MARK-deep" ]
  report $? "a repository past the sweep's bounds is set aside, said in the text; the user's git status works" \
    "$out" "$(cat "$TEST_TMP/trigger.out")"

  # a background job's repository is read-only, and so are its nested
  # repositories' gitdirs (sandbox-jobs-gitdir.sh): nothing is left to
  # sweep when it ends, and its status says so
  fresh
  git init -q "$repo/lib" && git -C "$repo/lib" commit -q --allow-empty -m lib &&
    git -C "$repo" add lib && git -C "$repo" commit -q -m lib
  run "$SLUICE" run -C "$repo" --mode background --format json -- 'sleep 0.2; ln -sf ~/.bashrc lib/.git/COMMIT_EDITMSG'
  job=$(json_get "$out" 'd["jobId"]')
  jobs_dir=$XDG_RUNTIME_DIR/sluice/jobs
  wait_for 20 test -e "$jobs_dir/$job.status"
  trigger "$repo/lib" 'git commit -q --allow-empty -m "echo PWNED-job"'
  ! bashrc_has PWNED-job && grep -q "Read-only file system" "$jobs_dir/$job.out" &&
    [ "$(json_get "$(cat "$jobs_dir/$job.status")" 'd.get("gitSweep")')" = None ]
  report $? "a background job plants nothing in a nested repository's gitdir; nothing is left to sweep" \
    "$(cat "$jobs_dir/$job.out" 2>/dev/null)" "$(cat "$jobs_dir/$job.status" 2>/dev/null)"

  # ... nor in the common directory a nested gitdir's commondir names (a
  # bare clone in a plain folder, .cache), where git reads the nested
  # repository's config: the user's git status while the job runs would
  # run what it wrote there. Positive control: the sweep off, which lists
  # no nested gitdir to keep read-only.
  job_commondir() { # CONFIG: MARK-jobcommon when the user's git status ran it
    fresh
    (cd "$repo" && git init -q vendor && echo v >vendor/v && git -C vendor add v &&
      git -C vendor commit -q -m v && git add vendor && git commit -q -m vendor &&
      git clone -q --bare vendor .cache && echo ../../.cache >vendor/.git/commondir) >/dev/null 2>&1
    run "$SLUICE" run -C "$repo" --config "$1" --mode background --format json -- \
      'git config -f .cache/config core.fsmonitor "touch '"$HOME"'/MARK-jobcommon; false"; sleep 4'
    job=$(json_get "$out" 'd["jobId"]')
    local jobs_out=$XDG_RUNTIME_DIR/sluice/jobs/$job.out
    # while the job lasts: once it wrote, or failed to
    wait_for 20 bash -c "grep -q fsmonitor '$repo/.cache/config' || grep -q 'Read-only' '$jobs_out'"
    trigger "$repo" 'git status --short'
    wait_for 30 test -e "$XDG_RUNTIME_DIR/sluice/jobs/$job.status"
    [ -e "$HOME/MARK-jobcommon" ]
  }
  job_commondir "$TEST_TMP/sweep-off.ini"
  control=$?
  job_commondir "$TEST_TMP/audit.ini"
  hit=$?
  [ "$control" -eq 0 ] && [ "$hit" -ne 0 ] &&
    grep -q "Read-only file system" "$XDG_RUNTIME_DIR/sluice/jobs/$job.out"
  report $? "a background job cannot write the common directory a nested gitdir names (positive control: no sweep)" \
    "control: $control" "$(cat "$XDG_RUNTIME_DIR/sluice/jobs/$job.out" 2>/dev/null)"

  fresh
  git -C "$repo" config credential.helper store
  git -C "$repo" config alias.hi '!echo hi'
  printf '#!/bin/sh\nexit 0\n' >"$repo/.git/hooks/pre-commit"
  chmod +x "$repo/.git/hooks/pre-commit"
  git -C "$repo" clone -q "$origin" "$repo/lib" && git -C "$repo/lib" config core.pager 'less -R'
  git -C "$repo" add lib 2>/dev/null && git -C "$repo" commit -q -m lib
  sleep 2.1 # older than the sweep's margin
  run "$SLUICE" run -C "$repo" --format json -- \
    'echo two >>README && git add README && git commit -q -m two && git stash list && git tag v1 && git fetch -q origin && git switch -q side && git rebase -q main && git switch -q main && git -C lib commit -q --allow-empty -m in-lib && git gc -q'
  [ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["gitSweep"]')" = None ] &&
    [ "$(git -C "$repo" config credential.helper)" = store ] && [ -x "$repo/.git/hooks/pre-commit" ] &&
    [ "$(git -C "$repo/lib" config core.pager)" = "less -R" ]
  report $? "git's everyday work leaves nothing to sweep; the user's own config, hooks and nested repository stay" "$out" "$err"

  # A submodule's gitdir (.git/modules/lib) gets core.worktree from git
  # itself: `git submodule update --init` in the run, or the user's own
  # just before it (inside the sweep's margin), is not an attack. The
  # value stays, and git run with that gitdir alone still finds its work
  # tree (disabled, it says "must be run in a work tree").
  # sub_fresh: a repository whose submodule lib (from subsrc, outside the
  # workspace) is committed but not checked out, as after a clone.
  sub_fresh() {
    fresh
    rm -rf "$TEST_TMP/subsrc"
    git init -q "$TEST_TMP/subsrc" && git -C "$TEST_TMP/subsrc" commit -q --allow-empty -m s &&
      git -C "$repo" -c protocol.file.allow=always submodule -q add "$TEST_TMP/subsrc" lib &&
      git -C "$repo" commit -q -m lib && rm -rf "$repo/lib" "$repo/.git/modules" && mkdir "$repo/lib"
  }
  sub_works() {
    [ "$(git --git-dir="$repo/.git/modules/lib" rev-parse --show-toplevel 2>&1)" = "$repo/lib" ] &&
      git -C "$repo/lib" status --short >/dev/null && git -C "$repo" submodule status | grep -q '^ '
  }
  sub_fresh
  run "$SLUICE" run -C "$repo" --format json -- 'git -c protocol.file.allow=always submodule -q update --init'
  [ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["gitSweep"]')" = None ] &&
    grep -q '^[[:space:]]*worktree = ' "$repo/.git/modules/lib/config" && sub_works
  report $? "a submodule the run checks out keeps git's core.worktree; git works in it and in its gitdir" \
    "$out" "$(cat "$repo/.git/modules/lib/config" 2>&1)"
  sub_fresh
  git -C "$repo" -c protocol.file.allow=always submodule -q update --init
  run "$SLUICE" run -C "$repo" --format json -- true
  [ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["gitSweep"]')" = None ] && sub_works
  report $? "a submodule the user checked out just before the run keeps git's core.worktree" \
    "$out" "$(cat "$repo/.git/modules/lib/config" 2>&1)"

  # A submodule inside a submodule, checked out by the run, then a later
  # run: both core.worktree values pass every sweep's check and stay.
  fresh
  rm -rf "$TEST_TMP/innersrc" "$TEST_TMP/subsrc"
  git init -q "$TEST_TMP/innersrc" && git -C "$TEST_TMP/innersrc" commit -q --allow-empty -m i &&
    git init -q "$TEST_TMP/subsrc" &&
    git -C "$TEST_TMP/subsrc" -c protocol.file.allow=always submodule -q add "$TEST_TMP/innersrc" inner &&
    git -C "$TEST_TMP/subsrc" commit -q -m inner &&
    git -C "$repo" -c protocol.file.allow=always submodule -q add "$TEST_TMP/subsrc" lib &&
    git -C "$repo" commit -q -m lib && rm -rf "$repo/lib" "$repo/.git/modules" && mkdir "$repo/lib"
  run "$SLUICE" run -C "$repo" --format json -- 'git -c protocol.file.allow=always submodule -q update --init --recursive'
  first=$out
  sleep 2.1
  run "$SLUICE" run -C "$repo" --format json -- 'git -C lib/inner status --short && git submodule status --recursive'
  inner_cfg=$repo/.git/modules/lib/modules/inner/config
  [ "$rc" -eq 0 ] && [ "$(json_get "$first" 'd["gitSweep"]')" = None ] &&
    [ "$(json_get "$out" 'd["gitSweep"]')" = None ] &&
    grep -q '^[[:space:]]*worktree = ' "$repo/.git/modules/lib/config" &&
    grep -q '^[[:space:]]*worktree = ' "$inner_cfg" &&
    [ "$(git --git-dir="$repo/.git/modules/lib/modules/inner" rev-parse --show-toplevel 2>&1)" = "$repo/lib/inner" ]
  report $? "a submodule inside a submodule keeps git's core.worktree, run after run" \
    "$first" "$out" "$(cat "$inner_cfg" 2>&1)"

  # The user's own submodule in the main worktree, seen from a run in a
  # linked worktree (whose sweep walks the main repository's gitdir): its
  # core.worktree leads out of that workspace through nothing a run could
  # change, and stays.
  sub_fresh
  git -C "$repo" -c protocol.file.allow=always submodule -q update --init
  git -C "$repo" worktree add -q "$HOME/wt" side
  sleep 2.1
  run "$SLUICE" run -C "$HOME/wt" --format json -- 'git status --short'
  [ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["gitSweep"]')" = None ] && sub_works
  report $? "the main worktree's submodule keeps its core.worktree after a run in a linked worktree" \
    "$out" "$(cat "$repo/.git/modules/lib/config" 2>&1)"

  # The user's own submodule, whose folder a run replaces by a symbolic
  # link out of the workspace: its core.worktree no longer leads to its
  # folder, so it is disabled and reported; the user's git submodule
  # update, once the link is removed, checks it out again and writes
  # core.worktree back.
  sub_fresh
  git -C "$repo" -c protocol.file.allow=always submodule -q update --init
  sleep 2.1
  run "$SLUICE" run -C "$repo" --format json -- 'rm -rf lib && ln -s "$HOME" lib'
  trigger "$repo" 'rm lib && git -c protocol.file.allow=always submodule -q update && git -C lib status --short'
  [ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["gitSweep"]["found"]')" = 1 ] &&
    grep -q "core.worktree" <<<"$(json_get "$out" 'd["gitSweep"]["items"][0]["what"]')" &&
    [ "$trc" -eq 0 ] && sub_works && [ ! -e "$HOME/.git" ]
  report $? "the user's own submodule whose folder a run made a link: core.worktree disabled, git submodule update restores it" \
    "$out" "$(cat "$TEST_TMP/trigger.out")" "$(cat "$repo/.git/modules/lib/config" 2>&1)"
fi
