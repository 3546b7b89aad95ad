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
# Installs bwrap (Debian: bubblewrap) with apt-get when it is missing.
set -euo pipefail

rounds=${1:-400}
launch=${SLUICE_LAUNCH:-./sluice-launch}
[ -x "$launch" ] || { echo "bench: no sluice-launch at '$launch' (set SLUICE_LAUNCH)" >&2; exit 1; }

if ! command -v bwrap >/dev/null 2>&1; then
  echo "bench: installing bubblewrap" >&2
  if [ "$(id -u)" -eq 0 ]; then as_root=(); else as_root=(sudo -n); fi
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq bubblewrap </dev/null >&2
fi

if nm -D "$launch" 2>/dev/null | grep -q '__asan_init'; then
  echo "bench: warning: '$launch' looks sanitizer-instrumented; its figures are not representative" >&2
fi

cmds=(
  "/bin/true"
  "$launch --profile restricted -- /bin/true"
  "bwrap --ro-bind / / --dev /dev --unshare-net -- /bin/true"
)
names=("true" "sluice-launch" "bwrap")

# Each command must work before it is timed.
for c in "${cmds[@]}"; do
  $c || { echo "bench: '$c' fails here" >&2; exit 1; }
done

declare -a samples0 samples1 samples2
for ((r = 0; r < rounds; r++)); do
  for i in 0 1 2; do
    t0=$EPOCHREALTIME
    ${cmds[$i]}
    t1=$EPOCHREALTIME
    us=$(( (${t1/./} - ${t0/./}) ))
    eval "samples$i+=($us)"
  done
done

median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
m0=$(median "${samples0[@]}")
m1=$(median "${samples1[@]}")
m2=$(median "${samples2[@]}")

echo "rounds: $rounds (alternating), kernel $(uname -r), Landlock ABI $("$launch" --print-features | sed -n 's/.*"landlock_abi":\([0-9]*\).*/\1/p')"
awk -v m0="$m0" -v m1="$m1" -v m2="$m2" -v n1="${names[1]}" -v n2="${names[2]}" 'BEGIN {
  printf "%-14s median %7.3f ms\n", "/bin/true", m0 / 1000
  printf "%-14s median %7.3f ms  adds %6.3f ms  ratio %5.2f x /bin/true\n", n1, m1 / 1000, (m1 - m0) / 1000, m1 / m0
  printf "%-14s median %7.3f ms  adds %6.3f ms  ratio %5.2f x /bin/true\n", n2, m2 / 1000, (m2 - m0) / 1000, m2 / m0
  printf "sluice-launch / bwrap: %.2f (of the added time: %.2f)\n", m1 / m2, (m1 - m0) / (m2 - m0)
}'
