#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No false blocks: every everyday agent command of tests/corpus/
# benign-agent.cmds is allowed by `sluice check --batch`, on the built-in
# defaults and with the optional packs (policies/4*.ini) on as well. A
# command that is not allowed is named with its verdict and reasons.
. "$SLUICE_SRCDIR/tests/lib.sh"

corpus="$SLUICE_SRCDIR/tests/corpus/benign-agent.cmds"
grep -v -e '^#' -e '^[[:space:]]*$' "$corpus" >"$TEST_TMP/commands.txt"
jq -R -c '{command: .}' <"$TEST_TMP/commands.txt" >"$TEST_TMP/requests.jsonl"
total=$(wc -l <"$TEST_TMP/commands.txt")

# check_corpus NAME: every command allowed, under the configuration the
# environment names
check_corpus() {
  run "$SLUICE" check --batch <"$TEST_TMP/requests.jsonl"
  local results not_allowed
  results=$(grep -c . <<<"$out" || true)
  not_allowed=$(paste -d '\t' "$TEST_TMP/commands.txt" \
    <(jq -r '(.verdict // "error") + " " + ([.reasons[]? | .plugin + ": " + .message] | join("; "))
             + (.error.message // "")' <<<"$out") | grep -v $'\tallow $' || true)
  if [ "$rc" -eq 0 ] && [ "$results" -eq "$total" ] && [ -z "$not_allowed" ]; then
    ok "$1: all $total everyday commands are allowed"
  else
    local lines=()
    mapfile -t lines <<<"$not_allowed"
    not_ok "$1: all $total everyday commands are allowed" "exit status $rc, $results results" \
      "${lines[@]}" "stderr: $err"
  fi
}

if [ "$total" -lt 300 ]; then
  not_ok "the corpus holds several hundred commands" "only $total"
else
  ok "the corpus holds $total commands"
fi

check_corpus "built-in defaults"

export SLUICE_SYSCONFDIR="$TEST_TMP/etc"
mkdir -p "$TEST_TMP/etc/sluice/policies.d"
cp "$SLUICE_SRCDIR"/policies/4*.ini "$TEST_TMP/etc/sluice/policies.d/"
run "$SLUICE" check -- 'terraform destroy'
expect "the optional packs are on" 2 "regex: the command destroys the infrastructure"
check_corpus "with the optional packs"
