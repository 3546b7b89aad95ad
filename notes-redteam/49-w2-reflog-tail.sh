#!/usr/bin/env bash
# red team 49: the user's other worktree's HEAD reflog, rewritten so that
# the check's search for its pre-run last bytes lands after the planted
# line. git-later-pointers.c new_lines_from(): where the log is a new
# file (another inode), the run's lines begin after the LAST place its
# pre-run last 256 bytes stand. The command writes w2's logs/HEAD anew
# (mv over it) as: its old text, a line "checkout: moving from C to
# feature" (C its commit: feature's tree plus an executable bin/git), and
# a copy of the old last 256 bytes. The check finds those bytes at the
# end, so no line is the run's; git reads the copy's first, partial line
# as corrupt and skips it (its last line repeats an old one that names
# no checkout), so `git checkout -` in w2 goes to C and writes bin/git;
# `git status` there with direnv's PATH_add bin runs it. The run is in
# the main worktree and writes git objects and .git/worktrees/w2/logs/HEAD.
# usage: 49-w2-reflog-tail.sh /path/to/sluice   (as root or a user)
NAME=w2-reflog-tail
HOLE="w2's logs/HEAD rewritten with its old last bytes copied after the planted checkout line; the check read no new line; the user's git checkout - in w2 wrote bin/git, git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() {
  new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature &&
    for i in 1 2 3; do echo $i >"$1/w2/f$i" && git -C "$1/w2" add "f$i" && git -C "$1/w2" commit -qm "work $i"; done
}
run_dir() { echo "$1/main"; }
attack() {
  plant "$1" feature
  cat <<'EOA'
&& f=$($G rev-parse feature) && l=.git/worktrees/w2/logs/HEAD
&& { cat $l; printf "%s %s t <t@example.invalid> 1700000000 +0000\tcheckout: moving from %s to feature\n" $f $f $C; tail -c 256 $l; } >$l.new
&& mv $l.new $l
EOA
}
trigger() { git -C "$1/w2" checkout -q - >/dev/null 2>&1; user_status "$1/w2"; }
finish
