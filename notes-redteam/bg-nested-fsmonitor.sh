#!/usr/bin/env bash
# Class: configuration git follows from elsewhere (issue 30 §4), through the
# window a background job keeps open. The sweep disables a nested
# repository's core.fsmonitor only after the run's last process; a
# background job makes `sub` (git init, a core.fsmonitor, added to the
# index as a gitlink) and lives on. The user's own plain `git status` at
# the top, while the job runs, runs the planted program.
# Usage: bg-nested-fsmonitor.sh [control]  (control: a foreground run, which
# the sweep handles: nothing runs)
. "$(dirname "$0")/env.sh"
plant='git init -q sub && git -C sub commit -q --allow-empty -m s &&
  printf "[core]\\n\\tfsmonitor = touch ~/PWNED-fsmonitor; false\\n" >>sub/.git/config &&
  git add sub'
if [ "$1" = control ]; then
  boxed "$plant; echo planted"
else
  boxed "$plant; echo planted; sleep 300" --mode background
  sleep 5
fi
# the user's own git, outside (a prompt does this on every cd)
(cd "$REPO" && git status --short >/dev/null 2>&1)
if [ -e "$HOME/PWNED-fsmonitor" ]; then echo "HOLE: the user's git status ran the planted fsmonitor"; else echo "stopped"; fi
for id in $("$SLUICE" jobs --format json 2>/dev/null | grep -o '"id": *"[^"]*"' | cut -d'"' -f4); do "$SLUICE" kill "$id" >/dev/null 2>&1; done
