#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sluice check: batch throughput on generated agent commands, and the wall
# time of one `sluice check -- 'git status'` process as a ratio to /bin/true,
# both measured in this run (the machine is shared: compare ratios).
# Usage: bench/check.sh [SLUICE] [N]   (SLUICE: a built sluice, best without
# sanitizers; N: commands in the batch, default 5000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sluice=${1:-${SLUICE:-./sluice}}
n=${2:-5000}
runs=${RUNS:-201}
bench_warn_sanitized "$sluice"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sluice-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

awk -v n="$n" -v seed=42 -f "$here/gen-commands.awk" >"$tmp/batch.jsonl"

# --- throughput: best of 5 runs of the whole batch, by wall time and by CPU
# time (user + sys of the process: less sensitive to other load)
best= bestcpu=
TIMEFORMAT='%3R %3U %3S'
for _ in 1 2 3 4 5; do
  t=$( { time "$sluice" check --batch <"$tmp/batch.jsonl" >"$tmp/out.jsonl" || true; } 2>&1 )
  read -r el user sys <<<"$t"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')
  if [ -z "$best" ] || awk -v a="$el" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$el; fi
  if [ -z "$bestcpu" ] || awk -v a="$cpu" -v b="$bestcpu" 'BEGIN { exit !(a < b) }'; then bestcpu=$cpu; fi
done
results=$(wc -l <"$tmp/out.jsonl")
asks=$(grep -c '"verdict":"ask"' "$tmp/out.jsonl" || true)
errors=$(grep -c '"error"' "$tmp/out.jsonl" || true)
awk -v n="$n" -v t="$best" -v c="$bestcpu" -v r="$results" -v a="$asks" -v e="$errors" 'BEGIN {
  if (c <= 0) c = 0.001
  printf "check --batch: %d commands in %.3f s wall = %.0f commands/s (target >= 50000); CPU %.3f s = %.0f commands/s; %d results, %d ask, %d errors\n", n, t, n / t, c, n / c, r, a, e }'

# --- the same batch with every optional rule pack of policies/ on, read
# from a scratch system configuration (as an administrator installs them)
mkdir -p "$tmp/etc/sluice/policies.d"
cp "$here/../policies/"*.ini "$tmp/etc/sluice/policies.d/"
bestpacks=
for _ in 1 2 3; do
  t=$( { time env SLUICE_SYSCONFDIR="$tmp/etc" XDG_CONFIG_HOME="$tmp/xdg" \
    "$sluice" check --batch <"$tmp/batch.jsonl" >"$tmp/packs.jsonl" || true; } 2>&1 )
  read -r el user sys <<<"$t"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')
  if [ -z "$bestpacks" ] || awk -v a="$cpu" -v b="$bestpacks" 'BEGIN { exit !(a < b) }'; then bestpacks=$cpu; fi
done
packs=$(ls "$tmp/etc/sluice/policies.d" | wc -l)
awk -v n="$n" -v c="$bestpacks" -v p="$packs" 'BEGIN {
  if (c <= 0) c = 0.001
  printf "check --batch with the %d rule packs on: CPU %.3f s = %.0f commands/s (target >= 3000)\n", p, c, n / c }'

# --- startup: one process per check, alternating with /bin/true
: >"$tmp/sluice.t"
: >"$tmp/true.t"
for ((i = 0; i < runs; i++)); do
  t0=$EPOCHREALTIME; "$sluice" check -- 'git status' >/dev/null; t1=$EPOCHREALTIME
  echo "$t0 $t1" >>"$tmp/sluice.t"
  t0=$EPOCHREALTIME; /bin/true; t1=$EPOCHREALTIME
  echo "$t0 $t1" >>"$tmp/true.t"
done
# The median (lib.sh) of the times in a file of "start end" lines, in us.
file_median() { median $(awk '{ print ($2 - $1) * 1e6 }' "$1"); }
ms=$(file_median "$tmp/sluice.t")
mt=$(file_median "$tmp/true.t")
awk -v s="$ms" -v t="$mt" -v r="$runs" 'BEGIN {
  printf "check -- '\''git status'\'': median %.0f us vs /bin/true %.0f us = %.2fx (target <= 3x; %d runs each)\n", s, t, s / t, r }'
