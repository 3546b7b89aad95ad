#!/usr/bin/env bash
# red team 48: the check after a run made to give up by the number of
# stash entries. It checks at most 32 new entries (STASH_CHECK_MAX in
# broker/run/git-later-stash.c) and past that says "the stash could not
# be read: Argument list too long; look at it (git stash list) before git
# stash pop", keeping every entry. The command stores 33 ordinary entries
# (git stash store of commits with no change) and then one whose
# untracked files (third parent) hold an executable bin/git (git objects
# and the stash only). The user's `git stash pop` writes bin/git; the
# next `git status` with direnv's PATH_add bin runs it. (The same past the
# 1 MiB reflog read limit, and with 4097 loose replace refs, past
# REPLACE_LOOSE_MAX, for a replace ref of HEAD's tree and git reset
# --hard.)
# usage: 48-stash-too-many.sh /path/to/sluice   (as root or a user)
NAME=stash-too-many
HOLE="the check gave up on 34 new stash entries and kept them all; the user's git stash pop wrote the command's bin/git and git status ran it"
. "$(dirname "$0")/48-lib.sh"
setup() { new_repo "$1"; }
attack() {
  plant "$1"
  echo '&& u=$($G commit-tree -m untracked $(printf "040000 tree %s\tbin\n" $bt | $G mktree))'
  echo '&& t=$($G rev-parse HEAD^{tree}) && i=$($G commit-tree -p HEAD -m index $t)'
  echo '&& for n in $(seq 33); do $G stash store -m "WIP $n" $($G commit-tree -p HEAD -p $i -m "WIP $n" $t) || exit 1; done'
  echo '&& $G stash store -m "WIP on main: a" $($G commit-tree -p HEAD -p $i -p $u -m WIP $t)'
}
trigger() { git -C "$1" stash pop -q >/dev/null 2>&1; user_status "$1"; }
finish
