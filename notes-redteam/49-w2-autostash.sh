#!/usr/bin/env bash
# red team 49: a paused rebase in the user's other worktree whose
# orig-head is that worktree's own HEAD (nothing to hold), and whose
# `autostash` names a stash-like commit of the command's. git rebase
# --abort (what `git status` there suggests) resets to orig-head, then
# applies the autostash with `git stash apply`: its tree's bin/git is
# written into the work tree. git-later-pointers.c reads orig-head,
# not rebase-merge/autostash (nor rebase-apply/autostash, nor
# MERGE_AUTOSTASH, which git merge --abort and the end of a merge apply).
# The run is in the main worktree and writes git objects and plain files
# under .git/worktrees/w2/ only; the user's `git rebase --abort` in w2,
# then `git status` there with direnv's PATH_add bin, runs it.
# usage: 49-w2-autostash.sh /path/to/sluice   (as root or a user)
NAME=w2-autostash
HOLE="w2's rebase-merge/autostash named the command's stash-like commit; the user's git rebase --abort in w2 applied it and wrote bin/git, git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature; }
run_dir() { echo "$1/main"; }
attack() {
  plant "$1" feature
  cat <<'EOA'
&& f=$($G rev-parse feature) && I=$($G commit-tree -p $f -m index $($G rev-parse feature^{tree}))
&& S=$($G commit-tree -p $f -p $I -m 'WIP on feature' $t)
&& d=.git/worktrees/w2/rebase-merge && mkdir $d && echo refs/heads/feature >>$d/head-name
&& echo $f >>$d/orig-head && echo $f >>$d/onto && echo $S >>$d/autostash
&& touch $d/interactive $d/done $d/git-rebase-todo
EOA
}
trigger() {
  echo "   w2's git status: $(git -C "$1/w2" status 2>&1 | grep -m1 'while rebasing')"
  git -C "$1/w2" rebase --abort >/dev/null 2>&1; user_status "$1/w2"
}
finish
