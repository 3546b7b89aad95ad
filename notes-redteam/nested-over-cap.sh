#!/usr/bin/env bash
# Class: configuration git follows from elsewhere (issue 30 §4), past the
# sweep's bound: at most 256 nested repositories are looked at. The command
# adds 300 nested repositories as gitlinks, the core.fsmonitor in the last
# (by index order). What the sweep reports, and whether the user's plain
# git status runs it.
. "$(dirname "$0")/env.sh"
boxed 'for i in $(seq -w 300); do git init -q r$i && git -C r$i commit -q --allow-empty -m s || exit 1; done
  printf "[core]\n\tfsmonitor = touch ~/PWNED-cap; false\n" >>r300/.git/config
  git add r* 2>/dev/null; echo planted' --timeout 120s 2>&1 | grep -vE "^\[  /|^\[  \.\.\." | tail -6
(cd "$REPO" && git status --short >/dev/null 2>&1)
if [ -e "$HOME/PWNED-cap" ]; then echo "HOLE: the user's git status ran the fsmonitor of the 300th"; else echo "stopped"; fi
