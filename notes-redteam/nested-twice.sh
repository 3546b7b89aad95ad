#!/usr/bin/env bash
# Class: configuration git follows from elsewhere (issue 30 §4). A nested
# repository inside a nested repository: the top's index names `sub`,
# sub's index names `sub/inner`, whose config holds the core.fsmonitor.
# The user's `git status` at the top enters sub, and sub's status enters
# inner. Does the sweep look past the first level?
# Usage: nested-twice.sh [control]   (control: planted by hand, no sluice)
. "$(dirname "$0")/env.sh"
plant='git init -q sub && git -C sub init -q inner && git -C sub/inner commit -q --allow-empty -m i &&
  printf "[core]\n\tfsmonitor = touch ~/PWNED-twice; false\n" >>sub/inner/.git/config &&
  git -C sub add inner 2>/dev/null && git -C sub commit -q -m s && git add sub 2>/dev/null'
if [ "$1" = control ]; then (cd "$REPO" && eval "$plant"); else boxed "$plant; echo planted" 2>&1 | grep -E "planted|  /"; fi
rm -f "$HOME/PWNED-twice"; (cd "$REPO" && echo x >sub/inner/f && git status --short >/dev/null 2>&1)
if [ -e "$HOME/PWNED-twice" ]; then echo "HOLE${1:+ ($1)}: the user's git status ran the inner fsmonitor"; else echo "stopped${1:+ ($1)}"; fi
