#!/usr/bin/env bash
# Class: configuration git follows from elsewhere (issue 30 §4). The sweep
# finds nested repositories by the gitlinks of .git/index. The command
# writes the index split (git update-index --split-index: the entries move
# to .git/sharedindex.SHA, the index keeps a link to it), or in another
# form (index v4, an untracked cache), so that an index reader that knows
# only the plain form sees no gitlink. The user's git status reads the
# split index whole, and runs the nested repository's fsmonitor.
# Usage: nested-split-index.sh [split|v4|sparse]
. "$(dirname "$0")/env.sh"
case ${1:-split} in
  split) form='git update-index --split-index' ;;
  v4) form='git update-index --index-version 4' ;;
  sparse) form='git sparse-checkout init --cone 2>/dev/null; git sparse-checkout set sub 2>/dev/null; true' ;;
esac
plant='git init -q sub && git -C sub commit -q --allow-empty -m s &&
  printf "[core]\n\tfsmonitor = touch ~/PWNED-split; false\n" >>sub/.git/config && git add sub 2>/dev/null && '"$form"
boxed "$plant; ls .git | tr '\n' ' '; echo planted" 2>&1 | grep -E "planted|sluice:|  /" | head -4
(cd "$REPO" && git status --short >/dev/null 2>&1)
if [ -e "$HOME/PWNED-split" ]; then echo "HOLE (${1:-split}): the user's git status ran the planted fsmonitor"; else echo "stopped (${1:-split})"; fi
