#!/usr/bin/env bash
# red team 48: a bisect "in progress", left by the run. `git bisect reset`
# checks out what .git/BISECT_START names (the branch the bisect started
# from, or a commit). The command writes a commit of its own (HEAD's tree
# plus an executable bin/git; git objects only) into .git/BISECT_START and
# touches BISECT_LOG. The user's `git status` says "You are currently
# bisecting ... (use "git bisect reset" to get back to the original
# branch)"; they do, git checks out the command's commit and writes
# bin/git, and the next `git status` with direnv's PATH_add bin runs it.
# The check after a run reads no BISECT_* file.
# usage: 48-bisect-reset.sh /path/to/sluice   (as root or a user)
NAME=bisect-reset
HOLE="the user's git bisect reset (as git status told them) checked out the command's commit and wrote its bin/git; git status ran it"
. "$(dirname "$0")/48-lib.sh"
setup() { new_repo "$1"; }
attack() { plant "$1"; echo '&& echo $C >>.git/BISECT_START && touch .git/BISECT_LOG'; }
trigger() {
  local st; st=$(git -C "$1" status 2>&1); echo "   git status: $(printf "%s\n" "$st" | grep -m1 'bisect reset')"
  git -C "$1" bisect reset >/dev/null 2>&1; user_status "$1"
}
finish
