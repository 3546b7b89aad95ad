#!/usr/bin/env bash
# red team 46, hole 9: the check after a run renames a planted file to
# NAME.sluice-blocked, then -2 ... -9 where taken; the command makes all
# nine first (folders), the rename fails with EEXIST, and the planted
# bin/git (or .mcp.json, lefthook-local.yml) stays where it runs, with only
# "the check ... failed (File exists)" said.
# usage: 46-blocked-names-taken.sh /path/to/sluice   (as root or a user)
set -u
S=${1:?path to sluice}
base=$(mktemp -d /var/tmp/rt46-taken.XXXXXX) || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
P=$HOME/proj
mkdir -p "$P" && git -C "$P" init -q && echo a >"$P/a" && git -C "$P" add a && git -C "$P" commit -qm a
PATH=$P/bin:$PATH "$S" run -C "$P" -- 'mkdir -p bin/git.sluice-blocked; for i in 2 3 4 5 6 7 8 9; do mkdir -p bin/git.sluice-blocked-$i; done; printf "#!/bin/sh\ntouch \$HOME/pwned\n" >bin/git && chmod +x bin/git' | tail -1
(cd "$P" && PATH=$P/bin:$PATH git status >/dev/null 2>&1)
if [ -e "$HOME/pwned" ]; then echo "HOLE: the planted git stayed and ran"; exit 1; fi
echo stopped; exit 0
