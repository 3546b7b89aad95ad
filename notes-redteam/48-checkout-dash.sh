#!/usr/bin/env bash
# red team 48: HEAD's reflog, appended to by the run. `git checkout -` (and
# `@{-1}`) goes back to the "from" of the newest "checkout: moving from X
# to Y" line of logs/HEAD; the command writes a commit of its own (HEAD's
# tree plus an executable bin/git: git objects only) and appends a line
# "checkout: moving from <that commit> to main". The user's `git checkout
# -`, to go back where they were, checks it out (detached, quietly with
# advice.detachedHead off) and writes bin/git; the next `git status` with
# direnv's PATH_add bin runs it. The check after a run takes the stat of
# HEAD, not of its reflog.
# usage: 48-checkout-dash.sh /path/to/sluice   (as root or a user)
NAME=checkout-dash
HOLE="the user's git checkout - checked out the command's commit and wrote its bin/git; the next git status ran it"
. "$(dirname "$0")/48-lib.sh"
setup() { new_repo "$1" && git -C "$1" switch -q -c feature && git -C "$1" switch -q main; }
attack() {
  plant "$1"
  echo '&& h=$($G rev-parse HEAD) && printf "%s %s t <t@example.invalid> %s +0000\tcheckout: moving from %s to main\n" $h $h "$(date +%s)" $C >>.git/logs/HEAD'
}
trigger() { git -C "$1" checkout -q - >/dev/null 2>&1; user_status "$1"; }
finish
