#!/usr/bin/env bash
# Class: files other programs run later (issue 30 §3), through the window a
# background job keeps open. A protected name that does not exist
# (lefthook-local.yml, .mcp.json, opencode.json ...) can be made by the
# command; it is renamed NAME.sluice-blocked only once the run (or the
# job) has ended. A background job makes lefthook-local.yml and lives on;
# the user's own `git commit` (lefthook installed in .git/hooks) meanwhile
# runs the command's pre-commit.
# Usage: bg-protected-new-file.sh [control]  (control: a foreground run: the file is renamed)
. "$(dirname "$0")/env.sh"
HM=${SLUICE_HOOK_MANAGERS_DIR:-/work/main/third_party/hook-managers}
LH=$HM/node_modules/lefthook-linux-x64/bin/lefthook
cd "$REPO"
printf 'pre-commit:\n  commands:\n    ok:\n      run: "true"\n' >lefthook.yml
git add lefthook.yml && git commit -qm lefthook && "$LH" install >/dev/null 2>&1
plant='printf "pre-commit:\n  commands:\n    x:\n      run: touch ~/PWNED-lefthook\n" >lefthook-local.yml'
if [ "$1" = control ]; then
  boxed "$plant; echo planted"
else
  boxed "$plant; echo planted; sleep 300" --mode background
  sleep 4
fi
ls lefthook-local.yml* 2>/dev/null | sed 's/^/--- now: /'
echo x >>README; PATH=$(dirname "$LH"):$PATH git commit -qam "user's commit" </dev/null >/dev/null 2>&1
if [ -e "$HOME/PWNED-lefthook" ]; then echo "HOLE: the user's git commit ran the command's lefthook-local.yml"; else echo "stopped"; fi
for id in $("$SLUICE" jobs --format json 2>/dev/null | grep -o '"id": *"[^"]*"' | cut -d'"' -f4); do "$SLUICE" kill "$id" >/dev/null 2>&1; done
