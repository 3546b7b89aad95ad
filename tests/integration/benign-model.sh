#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No false blocks from the command model: every everyday agent command of
# tests/corpus/benign-model.cmds (one per line; a line starting with a TAB
# continues the one above) is allowed by `sluice check --batch` on the
# built-in defaults. A command that is not allowed is named with its
# verdict and reasons.
. "$SLUICE_SRCDIR/tests/lib.sh"

corpus="$SLUICE_SRCDIR/tests/corpus/benign-model.cmds"
# one JSON request per command: TAB-continued lines joined by newlines
awk '
  /^\t/ { if (n) { cmd = cmd "\n" substr($0, 2) } ; next }
  /^#/ || /^[[:space:]]*$/ { next }
  { if (n) printf "%s%c", cmd, 0; cmd = $0; n++ }
  END { if (n) printf "%s%c", cmd, 0 }
' "$corpus" >"$TEST_TMP/commands.bin"
jq -R -s -c 'split("\u0000")[] | select(. != "") | {command: .}' <"$TEST_TMP/commands.bin" \
  >"$TEST_TMP/requests.jsonl"
total=$(wc -l <"$TEST_TMP/requests.jsonl")

if [ "$total" -lt 250 ]; then
  not_ok "the corpus holds a few hundred commands" "only $total"
else
  ok "the corpus holds $total commands"
fi

run "$SLUICE" check --batch <"$TEST_TMP/requests.jsonl"
results=$(grep -c . <<<"$out" || true)
not_allowed=$(paste -d '\t' <(jq -c .command <"$TEST_TMP/requests.jsonl") \
  <(jq -r '(.verdict // "error") + " " + ([.reasons[]? | .plugin + ": " + .message] | join("; "))
           + (.error.message // "")' <<<"$out") | grep -v $'\tallow $' || true)
if [ "$rc" -eq 0 ] && [ "$results" -eq "$total" ] && [ -z "$not_allowed" ]; then
  ok "all $total everyday commands are allowed"
else
  mapfile -t lines <<<"$not_allowed"
  not_ok "all $total everyday commands are allowed" "exit status $rc, $results results" \
    "${lines[@]}" "stderr: $err"
fi
