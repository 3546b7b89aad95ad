#!/usr/bin/env bash
# red team 49: a bisect "in progress" in the user's other worktree, its
# BISECT_START naming that worktree's own branch (nothing to hold), and
# its per-worktree refs/bisect/bad a commit E of the command's, child of C
# (the worktree's tree plus an executable bin/git), child of HEAD, with
# HEAD marked good. `git status` there says "You are currently bisecting,
# started from branch 'feature'"; the user's `git bisect good` (or `bad`,
# `skip`) checks out the midpoint, C, and writes bin/git. The check after
# the run (git-later-pointers.c) reads BISECT_START only, not
# refs/bisect/* (per-worktree refs under .git/worktrees/w2/refs/).
# The run is in the main worktree and writes git objects and plain files
# under .git/worktrees/w2/ only; `git status` in w2 with direnv's
# PATH_add bin then runs bin/git.
# usage: 49-w2-bisect-refs.sh /path/to/sluice   (as root or a user)
NAME=w2-bisect-refs
HOLE="w2's refs/bisect/bad named the command's commit; the user's git bisect good in w2 checked out its parent, which writes bin/git; git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature; }
run_dir() { echo "$1/main"; }
attack() {
  plant "$1" feature
  cat <<'EOA'
&& f=$($G rev-parse feature) && E=$($G commit-tree -p $C -m 'more' $t) && d=.git/worktrees/w2
&& echo feature >>$d/BISECT_START && touch $d/BISECT_NAMES && mkdir -p $d/refs/bisect
&& echo $E >>$d/refs/bisect/bad && echo $f >>$d/refs/bisect/good-$f
&& printf 'git bisect start\ngit bisect bad %s\ngit bisect good %s\n' $E $f >>$d/BISECT_LOG
EOA
}
trigger() {
  echo "   w2's git status: $(git -C "$1/w2" status 2>&1 | grep -m1 'bisecting')"
  git -C "$1/w2" bisect good >/dev/null 2>&1; user_status "$1/w2"
}
finish
