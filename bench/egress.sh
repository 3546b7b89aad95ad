#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The egress proxy's throughput (issue 34's target: a 100 MB download
# through the proxy at >= 80 % of the direct throughput on loopback). One
# file of SIZE MiB served on the host's 127.0.0.2 by a small Python server;
# curl fetches it alternately from the host directly and from inside
# `sluice run` (workspace-write, the host on [network] allow), where it
# goes through the sandbox's relay and the proxy outside, as plain HTTP
# through the proxy and as a CONNECT tunnel (what HTTPS takes). The times
# are curl's own (time_total), so sluice's start is not counted. Prints the
# medians, the throughputs, the ratios and the machine's `bash -c true`.
# Usage: bench/egress.sh [ROUNDS] [SIZE] (defaults 7, 100) from a build
# directory built without sanitizers; SLUICE and SLUICE_LAUNCH select the
# binaries. Needs a launcher that makes a network namespace.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rounds=${1:-7}
size=${2:-100}
sluice=${SLUICE:-./sluice}
export SLUICE_LAUNCH=${SLUICE_LAUNCH:-$(dirname "$sluice")/sluice-launch}
[ -x "$sluice" ] || { echo "bench: no sluice at '$sluice' (set SLUICE)" >&2; exit 1; }
"$SLUICE_LAUNCH" --print-features | grep -q '"net-namespace"' ||
  { echo "bench: this launcher makes no network namespace here: no egress proxy to measure" >&2; exit 1; }
bench_warn_sanitized "$sluice"
scratch=$(mktemp -d)
export XDG_RUNTIME_DIR=$scratch
server=
trap '[ -z "$server" ] || kill "$server" 2>/dev/null; rm -rf "$scratch"' EXIT

mkdir -p "$scratch/www" "$scratch/ws"
head -c "${size}M" /dev/urandom >"$scratch/www/big"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.2", 0)); print(s.getsockname()[1])')
(cd "$scratch/www" && exec python3 -m http.server "$port" --bind 127.0.0.2 >/dev/null 2>&1) &
server=$!
url=http://127.0.0.2:$port/big
for _ in $(seq 100); do curl -sf -o /dev/null --noproxy '*' "$url" && break; sleep 0.05; done
printf '[network]\nallow = 127.0.0.2:%s\n' "$port" >"$scratch/egress.ini"

fetch='curl -sS -o /dev/null -w %{time_total}'
inside() { # CURL-OPTIONS...: curl's time inside sluice run, in seconds
  local out
  out=$("$sluice" run -C "$scratch/ws" --sandbox workspace-write --config "$scratch/egress.ini" \
    --format json -- "$fetch $* $url")
  python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["exitCode"] == 0, d; print(d["stdout"])' "$out"
}
direct=() plain=() tunnel=()
for ((r = 0; r < rounds; r++)); do
  direct+=("$($fetch --noproxy '*' "$url")")
  plain+=("$(inside)")
  tunnel+=("$(inside -p)")
done
d=$(median "${direct[@]}") p=$(median "${plain[@]}") t=$(median "${tunnel[@]}")
b=()
for ((r = 0; r < 20; r++)); do
  t0=$EPOCHREALTIME
  bash -c true
  t1=$EPOCHREALTIME
  b+=($((${t1/./} - ${t0/./})))
done
awk -v d="$d" -v p="$p" -v t="$t" -v mib="$size" -v n="$rounds" -v b="$(median "${b[@]}")" 'BEGIN {
  printf "egress proxy: %d MiB over loopback, median of %d (bash -c true: %.2f ms)\n", mib, n, b / 1000
  printf "  direct, on the host              %7.3f s  %7.0f MiB/s\n", d, mib / d
  printf "  through the proxy, plain HTTP    %7.3f s  %7.0f MiB/s  %5.1f %%  (target >= 80 %%)\n", p, mib / p, 100 * d / p
  printf "  through the proxy, CONNECT       %7.3f s  %7.0f MiB/s  %5.1f %%  (target >= 80 %%)\n", t, mib / t, 100 * d / t
}'
