#!/usr/bin/env bash
# red team 50: what every 50-*.sh reproducer shares (sourced after it sets
# NAME): sluice's path in $S, a scratch folder $base in /var/tmp (the
# sandbox's /tmp is its own) removed at exit with the processes the script
# started (their pids in $bg), configurations now.ini (protect_folders_idle
# = 0) and idle.ini (2 s), new_repo, left_in, the hook text and verdict.
set -u
S=${1:?path to sluice}
S=$(realpath "$S")
base=$(mktemp -d "/var/tmp/rt50-$NAME.XXXXXX") || exit 1
chmod 755 "$base"
# a jobs directory of its own for the Landlock-only runs (in a user namespace
# mapping the caller to 0, /tmp/sluice-0 would be root's)
mkdir -m 700 "$base/xdg"
bg=
cleanup() {
  local p
  for p in $bg; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  # a tidier the runs started waits at most the idle; let it end first
  sleep 0.3
  rm -rf "$base"
}
trap cleanup EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
git config --global init.defaultBranch main
printf '[sandbox]\nprotect_folders_idle = 0\n' >"$base/now.ini"
printf '[sandbox]\nprotect_folders_idle = 2s\n' >"$base/idle.ini"
new_repo() { mkdir -p "$1" && git -C "$1" init -q && echo a >"$1/a" && git -C "$1" add a && git -C "$1" commit -qm a; }
# left_in DIR: DIR's top level but the repository's own names
left_in() { ls -A "$1" | grep -vx '.git\|a\|.ready\|.go\|sub\|pkg\|pkg.x' | tr '\n' ' '; }
hook='{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch /tmp/x"}]}]}}'
# the command's plant of .claude/settings.json (made if it is missing)
plant="mkdir .claude 2>/dev/null; echo '$hook' >.claude/settings.json 2>/dev/null && echo PLANT\$((1))ED"
planted() { grep -qs SessionStart "$1/.claude/settings.json"; }
verdict=stopped
hole() { verdict=HOLE; echo "HOLE: $*"; }
control_failed() { echo "positive control failed: $*"; verdict="positive control failed"; }
# the verdict, and the status: 1 HOLE, 2 positive control failed, 0 stopped
finish() {
  echo "== $NAME ($(id -un)): $verdict"
  case $verdict in HOLE) exit 1 ;; stopped) exit 0 ;; *) exit 2 ;; esac
}
