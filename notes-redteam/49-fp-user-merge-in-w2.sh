#!/usr/bin/env bash
# red team 49, a false positive: the user's own work in their other
# worktree while the agent's run lasts in the main one. The user, in w2,
# merges a teammate's branch (a fast-forward) that adds lefthook.yml: git
# writes w2's ORIG_HEAD (the commit before the merge) and a "merge" line
# in w2's HEAD reflog. The check after the run (git-later-pointers.c)
# reads both against w2's HEAD *before the run*, finds the merged commit
# plants content at a name that runs later, and undoes the user's work:
# the reflog line is deleted (git-later-pointers.c), and the branch
# `feature` moved back to where it was (git-later-moved.c), so w2's HEAD
# no longer matches its work tree (lefthook.yml shows as untracked).
# Prints "false positive" (exit 1) when the user's state was undone, "kept"
# (exit 0) when not; no positive control (nothing is an attack here).
# usage: 49-fp-user-merge-in-w2.sh /path/to/sluice   (as root or a user)
set -u
S=$(realpath "${1:?path to sluice}")
base=$(mktemp -d /var/tmp/rt49-fp-merge.XXXXXX) || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
git config --global init.defaultBranch main
m=$base/main w2=$base/w2
{ mkdir -p "$m" && git -C "$m" init -q && echo a >"$m/a" && git -C "$m" add a && git -C "$m" commit -qm a &&
  git -C "$m" worktree add -q "$w2" -b feature &&
  git -C "$m" switch -q -c upstream && printf 'pre-commit:\n  commands: {}\n' >"$m/lefthook.yml" &&
  git -C "$m" add lefthook.yml && git -C "$m" commit -qm "add lefthook (a teammate)" && git -C "$m" switch -q main; } >/dev/null 2>&1 ||
  { echo "setup failed"; exit 3; }
# the agent's run in the main worktree lasts 4 s; the user merges in w2 meanwhile
"$S" run -C "$m" --format json -- 'sleep 4' >"$base/run.json" 2>&1 &
sleep 1.5
before=$(git -C "$w2" rev-parse HEAD)
git -C "$w2" merge -q --ff-only upstream
wait
echo "== the run: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); g=d.get("gitSweep") or {}; print("; ".join(i["what"][:150] for i in g.get("items") or []) or "nothing found")' "$base/run.json")"
merged=$(git -C "$m" rev-parse upstream)
now=$(git -C "$w2" rev-parse HEAD)
orig=$(cat "$m/.git/worktrees/w2/ORIG_HEAD" 2>/dev/null)
logs=$(git -C "$w2" reflog --format=%gs 2>/dev/null | tr '\n' '|')
echo "== w2's HEAD: $([ "$now" = "$merged" ] && echo "the merged commit (kept)" || echo "moved back to $now"); ORIG_HEAD: ${orig:-(gone)}; reflog: $logs"
echo "== w2's git status: $(git -C "$w2" status --short | tr '\n' ' ')"
if [ "$now" = "$merged" ] && [[ $logs == merge* ]]; then echo "kept: the user's merge stayed"; exit 0; fi
echo "false positive: the user's own merge in w2, made while the run lasted, was undone"; exit 1
