#!/bin/bash
# A background job's output file (in sluice's jobs directory, outside the
# workspace: /tmp/sluice-UID or $XDG_RUNTIME_DIR/sluice, often a tmpfs) has
# no cap: configuration.md says output_file_cap (64MiB) caps it, but the
# job's stdout is the file itself and only RLIMIT_FSIZE (16GiB) stops it.
# Prints HOLE (the file passed 64MiB) or stopped.
. "$(dirname "$0")/51a-lib.sh"
mkhome bgcap
out=$(cd "$P" && HOME=$H "$SLUICE" run --mode background -- 'head -c 100M /dev/zero; echo done' | grep -o '/[^ ]*\.out')
for i in $(seq 30); do grep -q 'sluice: job' "$out" 2>/dev/null && break; sleep 1; done
size=$(stat -c %s "$out"); echo "outside: $out is $size bytes (cap 67108864)"
rm -f "$out"; rm -rf "$H"
if [ "$size" -gt 67108864 ]; then echo HOLE; exit 1; fi
echo stopped; exit 0
