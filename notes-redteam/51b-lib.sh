#!/usr/bin/env bash
# red team 51b: what every NN-*.sh shares. Source it after setting NAME.
# A scratch git repository in the running user's home ($P), a plant (shell
# text in $plant, run once from outside as the positive control, once
# through `sluice run` in the default mode), a trigger (a function
# `trigger` the user runs outside), and a mark file ($MARK) the planted
# code appends to.  Exit: 1 HOLE, 0 stopped, 2 positive control failed.
set -u
S=${SLUICE:-/work/main/build/dev/sluice}
S=$(realpath "$S")
# the real tools this red team installed (yarn 1.22.22, mise 2026.9.15)
export PATH=/usr/local/rt51bin:$PATH
base=$(mktemp -d "$HOME/rt51b-$NAME.XXXXXX") || exit 2
MARK=$base/mark
P=$base/proj
cleanup() { rm -rf "$base"; }
trap cleanup EXIT
new_repo() {
  rm -rf "$P"; mkdir -p "$P" && git -C "$P" init -q &&
  printf '{"name":"p","version":"1.0.0"}\n' >"$P/package.json" &&
  git -C "$P" add -A && git -C "$P" -c user.name=t -c user.email=t@e.invalid commit -qm init
  # a per-repo hook for extra setup
  if declare -f setup >/dev/null; then (cd "$P" && setup); fi
}
marked() { [ -s "$MARK" ]; }
verdict=stopped
finish() {
  echo "== $NAME ($(id -un)): $verdict"
  case $verdict in HOLE) exit 1 ;; stopped) exit 0 ;; *) exit 2 ;; esac
}
run_case() {
  # positive control: the same plant written from outside
  new_repo; rm -f "$MARK"
  (cd "$P" && MARK=$MARK bash -c "$plant") >/dev/null 2>&1
  (cd "$P" && trigger) >"$base/ctl.out" 2>&1
  if ! marked; then echo "positive control failed:"; cat "$base/ctl.out"; verdict="control failed"; finish; fi
  echo "control: trigger ran the plant ($(head -1 "$MARK"))"
  # the sandboxed plant, default mode
  new_repo; rm -f "$MARK"
  (cd "$P" && "$S" run -- "MARK=$MARK; $plant") >"$base/run.out" 2>&1
  echo "sandboxed plant said:"; sed 's/^/  | /' "$base/run.out" | head -20
  (cd "$P" && trigger) >"$base/trig.out" 2>&1
  if marked; then verdict=HOLE; echo "HOLE: the user's trigger ran it: $(head -1 "$MARK")"; else echo "trigger output:"; sed 's/^/  | /' "$base/trig.out" | head -10; fi
  finish
}
