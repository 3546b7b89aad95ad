#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Helpers sourced by the benchmarks (launch.sh, run.sh, check.sh, mcp.sh):
# the median, the warning for a sanitizer-instrumented binary, and the loop
# that times several commands alternately. Sourced, not run.
# Not for: mcp.sh's timing, which its Python driver does itself.

# median N...: the median of the numbers (the mean of the middle two for an
# even count).
median() {
  printf '%s\n' "$@" | sort -n |
    awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# bench_warn_sanitized BINARY: warn on stderr when BINARY is built with
# AddressSanitizer, whose figures say nothing about a release build. grep
# reads all of nm's output: with -q, nm could die of SIGPIPE, and under
# pipefail the pipeline would then fail and the warning be lost.
bench_warn_sanitized() {
  if nm -D "$1" 2>/dev/null | grep '__asan_init' >/dev/null; then
    echo "bench: warning: '$1' is sanitizer-instrumented; its figures are not representative" >&2
  fi
}

# bench_alternate ROUNDS CMD...: check that each CMD (a string, split on
# blanks) works, then run them in turn ROUNDS times over, so that machine
# noise hits all alike, with stdout to /dev/null. Sets bench_medians[i] to
# the median wall time of CMD i in microseconds. With bench_pause set (a
# sleep(1) duration), each CMD starts after that pause, not timed.
bench_alternate() {
  local rounds=$1
  shift
  local cmds=("$@") n=$# c r i t0 t1
  for c in "${cmds[@]}"; do
    $c >/dev/null || { echo "bench: '$c' fails here" >&2; exit 1; }
  done
  local samples=() # CMD i's r-th time at i * rounds + r
  for ((r = 0; r < rounds; r++)); do
    for ((i = 0; i < n; i++)); do
      [ -z "${bench_pause:-}" ] || sleep "$bench_pause"
      t0=$EPOCHREALTIME
      ${cmds[$i]} >/dev/null
      t1=$EPOCHREALTIME
      samples[i * rounds + r]=$((${t1/./} - ${t0/./}))
    done
  done
  bench_medians=()
  for ((i = 0; i < n; i++)); do
    bench_medians[i]=$(median "${samples[@]:i * rounds:rounds}")
  done
}
