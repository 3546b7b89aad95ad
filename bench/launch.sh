#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What sluice-launch adds to starting a program: the median wall time of
#   /bin/true
#   sluice-launch --profile restricted -- /bin/true
#   bwrap --ro-bind / / --dev /dev --unshare-net -- /bin/true
# measured alternately in one run (so machine noise hits all three alike),
# printed in milliseconds, as the difference to /bin/true, and as ratios.
# Usage: bench/launch.sh [ROUNDS] (default 400); SLUICE_LAUNCH selects the
# binary (default: ./sluice-launch); build it without sanitizers to measure.
# Needs bwrap (Debian: bubblewrap), which scripts/setup.sh installs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rounds=${1:-400}
launch=${SLUICE_LAUNCH:-./sluice-launch}
[ -x "$launch" ] || { echo "bench: no sluice-launch at '$launch' (set SLUICE_LAUNCH)" >&2; exit 1; }

command -v bwrap >/dev/null 2>&1 || { echo "bench: bwrap is missing: run scripts/setup.sh" >&2; exit 1; }
bench_warn_sanitized "$launch"

names=("true" "sluice-launch" "bwrap")
bench_alternate "$rounds" \
  "/bin/true" \
  "$launch --profile restricted -- /bin/true" \
  "bwrap --ro-bind / / --dev /dev --unshare-net -- /bin/true"
m0=${bench_medians[0]} m1=${bench_medians[1]} m2=${bench_medians[2]}

echo "rounds: $rounds (alternating), kernel $(uname -r), Landlock ABI $("$launch" --print-features | sed -n 's/.*"landlock_abi":\([0-9]*\).*/\1/p')"
awk -v m0="$m0" -v m1="$m1" -v m2="$m2" -v n1="${names[1]}" -v n2="${names[2]}" 'BEGIN {
  printf "%-14s median %7.3f ms\n", "/bin/true", m0 / 1000
  printf "%-14s median %7.3f ms  adds %6.3f ms  ratio %5.2f x /bin/true\n", n1, m1 / 1000, (m1 - m0) / 1000, m1 / m0
  printf "%-14s median %7.3f ms  adds %6.3f ms  ratio %5.2f x /bin/true\n", n2, m2 / 1000, (m2 - m0) / 1000, m2 / m0
  printf "sluice-launch / bwrap: %.2f (of the added time: %.2f)\n", m1 / m2, (m1 - m0) / (m2 - m0)
}'
