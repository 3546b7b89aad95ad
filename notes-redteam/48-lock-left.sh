#!/usr/bin/env bash
# red team 48: the check after a run made to give up by a lock file. The
# command stages its own executable bin/git (git read-tree of a commit of
# HEAD's tree plus bin/git; git objects and the index only) and leaves
# .git/index.lock behind. The check finds the entry and says "the index
# entry removed", but its git update-index cannot take the lock: the entry
# stays staged, and the run's text ends "the sweep ... was not complete:
# ... index.lock: File exists" (the run still exits 0). The user's next
# git says "Another git process seems to be running ... remove the file
# manually to continue"; they do, and `git checkout .` writes bin/git; the
# next `git status` with direnv's PATH_add bin runs it. (The same with
# refs/heads/main.lock left after a commit: the branch is not put back,
# `git reset --hard` writes it.)
# usage: 48-lock-left.sh /path/to/sluice   (as root or a user)
NAME=lock-left
HOLE="the check gave up on the run's index.lock and left the staged bin/git; after the user removed the stale lock, git checkout . wrote it and git status ran it"
. "$(dirname "$0")/48-lib.sh"
setup() { new_repo "$1"; }
attack() { plant "$1"; echo '&& $G read-tree $C && touch .git/index.lock'; }
trigger() {
  echo "   git checkout . said: $(git -C "$1" checkout -- . 2>&1 | sed -n 1p)"
  rm -f "$1/.git/index.lock"
  git -C "$1" checkout -q -- . >/dev/null 2>&1; user_status "$1"
}
finish
