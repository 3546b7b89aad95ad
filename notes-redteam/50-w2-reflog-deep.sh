#!/usr/bin/env bash
# red team 50, 3: the user's other worktree's HEAD reflog rewritten (mv
# over it) as: its old text less its last line (so the check finds no
# copy of the old last bytes), a line "checkout: moving from C to
# feature" (C the command's commit: feature's tree plus an executable
# bin/git), then 70 lines that switch nothing. The check read a
# rewritten log's newest 64 lines only; none is a checkout line, so the
# user's `git checkout -` (@{-1}: the newest checkout line) in w2 goes to
# C and writes bin/git; `git status` there with direnv's PATH_add bin
# runs it. The run is in the main worktree and writes git objects and
# .git/worktrees/w2/logs/HEAD.
# usage: 50-w2-reflog-deep.sh /path/to/sluice   (as root or a user)
NAME=w2-reflog-deep
HOLE="w2's logs/HEAD rewritten with a checkout line past its newest 64 and its old last line gone; the user's git checkout - in w2 wrote bin/git, git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature; }
run_dir() { echo "$1/main"; }
attack() {
  plant "$1" feature
  cat <<'EOA'
&& f=$($G rev-parse feature) && l=.git/worktrees/w2/logs/HEAD
&& { sed '$d' $l; printf "%s %s t <t@example.invalid> 1700000000 +0000\tcheckout: moving from %s to feature\n" $f $f $C;
     for i in $(seq 70); do printf "%s %s t <t@example.invalid> 1700000000 +0000\tcommit: work %s\n" $f $f $i; done; } >$l.new
&& mv $l.new $l
EOA
}
trigger() { git -C "$1/w2" checkout -q - >/dev/null 2>&1; user_status "$1/w2"; }
finish
