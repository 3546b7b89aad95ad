#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the sweep after a sandboxed run costs (broker/run/git-sweep.c), in
# a repository of 100,000 objects made with git fast-import (25,000
# commits, each changing one of 1,000 files in 10 folders: a commit, a
# blob and two trees each), twice: as fast-import leaves it (one pack) and
# unpacked (100,000 loose objects in 256 fan-out folders, the worst case
# for a walk). For each: `sluice run -- true` and `sluice run -- git
# commit` with [sandbox] git_sweep = yes and = no, alternately (medians;
# the difference is the sweep's cost), and the sweep's own figures from
# runs that planted a symbolic link (directories looked at, the median
# of the sweep's own time, which the result reports).
# Usage: bench/sweep.sh [ROUNDS] (default 40) from a build directory built
# without sanitizers; SLUICE and SLUICE_LAUNCH select the binaries.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rounds=${1:-40}
sluice=${SLUICE:-./sluice}
export SLUICE_LAUNCH=${SLUICE_LAUNCH:-$(dirname "$sluice")/sluice-launch}
[ -x "$sluice" ] || { echo "bench: no sluice at '$sluice' (set SLUICE)" >&2; exit 1; }
bench_warn_sanitized "$sluice"
scratch=$(mktemp -d "${BENCH_TMPDIR:-/var/tmp}/sluice-sweep.XXXXXX")
export XDG_RUNTIME_DIR=$scratch/xdg
mkdir -m 0700 "$XDG_RUNTIME_DIR"
trap 'rm -rf "$scratch"' EXIT
export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@example.invalid
export GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@example.invalid
printf '[sandbox]\ngit_sweep = no\n' >"$scratch/off.ini"

# The fast-import stream: commit i changes file (i mod 1000).
stream() {
  awk 'BEGIN {
    for (i = 1; i <= 25000; i++) {
      f = i % 1000; content = "line " i "\n"
      printf "commit refs/heads/main\ncommitter b <b@example.invalid> %d +0000\n", 1700000000 + i
      printf "data %d\nc%d\n", length("c" i) + 1, i
      printf "M 100644 inline d%d/f%d\ndata %d\n%s\n", f % 10, f, length(content), content
    }
  }'
}
packed=$scratch/home/packed
mkdir -p "$scratch/home"
git init -q "$packed"
t0=$EPOCHREALTIME
stream | git -C "$packed" -c core.fsync=none fast-import --quiet
git -C "$packed" reset -q --hard main
t1=$EPOCHREALTIME
objects=$(git -C "$packed" count-objects -v | sed -n 's/^in-pack: //p')
loose=$scratch/home/loose
git init -q "$loose"
# no fsync per object: making 100,000 files is what takes long here
for p in "$packed"/.git/objects/pack/*.pack; do
  git -C "$loose" -c core.fsync=none -c core.fsyncObjectFiles=false unpack-objects -q <"$p"
done
git -C "$loose" update-ref refs/heads/main "$(git -C "$packed" rev-parse main)"
git -C "$loose" reset -q --hard main
n_loose=$(git -C "$loose" count-objects -v | sed -n 's/^count: //p')
echo "repository: $objects objects in a pack, made in $(awk -v a="${t0/./}" -v b="${t1/./}" 'BEGIN { printf "%.1f", (b - a) / 1e6 }') s; the same unpacked: $n_loose loose objects"
echo "file system: $(stat -f -c %T "$scratch"), kernel $(uname -r), $rounds rounds alternating"

for repo in "$packed" "$loose"; do
  commit="git commit -q --allow-empty -m x"
  bench_alternate "$rounds" "bash -c true" \
    "$sluice run -C $repo --config $scratch/off.ini -- true" "$sluice run -C $repo -- true" \
    "$sluice run -C $repo --config $scratch/off.ini -- $commit" "$sluice run -C $repo -- $commit"
  m=("${bench_medians[@]}")
  # the sweep's own time, from runs that planted a link (and committed):
  # an upper bound, the quarantine folder made and the link moved included
  sweeps=()
  for ((r = 0; r < 15; r++)); do
    one=$("$sluice" run -C "$repo" --format json -- 'ln -s /nonexistent .git/planted && git commit -q --allow-empty -m y')
    read -r n_dirs us found < <(python3 -c 'import json, sys; d = json.loads(sys.argv[1])["gitSweep"]; print(d["directories"], d["durationUs"], d["found"])' "$one")
    sweeps+=("$us")
  done
  us=$(median "${sweeps[@]}")
  awk -v name="$(basename "$repo")" -v b="${m[0]}" -v off="${m[1]}" -v on="${m[2]}" \
    -v coff="${m[3]}" -v con="${m[4]}" -v dirs="$n_dirs" -v us="$us" -v found="$found" 'BEGIN {
    printf "%s\n", name
    printf "  bash -c true                         median %7.3f ms\n", b / 1000
    printf "  run -- true, no sweep                median %7.3f ms  %5.2f x\n", off / 1000, off / b
    printf "  run -- true, swept                   median %7.3f ms  %5.2f x  (the sweep: %+.3f ms)\n", on / 1000, on / b, (on - off) / 1000
    printf "  run -- git commit, no sweep          median %7.3f ms\n", coff / 1000
    printf "  run -- git commit, swept             median %7.3f ms           (the sweep: %+.3f ms)\n", con / 1000, (con - coff) / 1000
    printf "  runs that planted a link and committed: %d directories looked at, %d found, median %.3f ms in the sweep (15 runs)\n", dirs, found, us / 1000
  }'
done
