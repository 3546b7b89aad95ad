#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 33's classes as a regression table: every row of
# tests/corpus/values-destroy.tsv through `sluice check --batch`, on the
# built-in defaults and with the optional packs (policies/4*.ini) on. A
# `block` row must be denied or asked, an `allow` row allowed; a `known`
# row (a gap docs/plugins.md names) is counted, not failed. The `pack`
# rows are only judged with the packs on. Each wrong row is named with its
# verdict and reasons.
. "$SLUICE_SRCDIR/tests/lib.sh"

table="$SLUICE_SRCDIR/tests/corpus/values-destroy.tsv"
grep -v -e '^#' -e '^[[:space:]]*$' "$table" >"$TEST_TMP/rows.tsv"
# a newline inside a command is written {NL}
cut -f3- "$TEST_TMP/rows.tsv" | jq -R -c '{command: gsub("\\{NL\\}"; "\n")}' >"$TEST_TMP/requests.jsonl"
total=$(wc -l <"$TEST_TMP/rows.tsv")
dangerous=$(grep -c '^block' "$TEST_TMP/rows.tsv" || true)
benign=$(grep -c '^allow' "$TEST_TMP/rows.tsv" || true)

if [ "$dangerous" -ge 120 ] && [ "$benign" -ge 60 ]; then
  ok "the table holds $dangerous dangerous and $benign benign rows"
else
  not_ok "the table holds at least 120 dangerous and 60 benign rows" "$dangerous, $benign"
fi

# check_table NAME PACKS: every row as expected (PACKS: yes when the packs
# are on, so that the pack rows count)
check_table() {
  run "$SLUICE" check --batch <"$TEST_TMP/requests.jsonl"
  local results wrong known
  results=$(grep -c . <<<"$out" || true)
  paste "$TEST_TMP/rows.tsv" \
    <(jq -r '(.verdict // "error") + "\t" + ([.reasons[]? | .plugin + ": " + .message] | join("; "))
             + (.error.message // "")' <<<"$out") >"$TEST_TMP/judged.tsv"
  wrong=$(awk -F'\t' -v packs="$2" '
    $2 == "pack" && packs != "yes" { next }
    $1 == "block" && $4 != "deny" && $4 != "ask" { print "false allow: " $3 " -> " $4 " " $5 }
    $1 == "allow" && $4 != "allow" { print "false block: " $3 " -> " $4 " " $5 }' "$TEST_TMP/judged.tsv")
  known=$(awk -F'\t' '$1 == "known" && $4 == "allow"' "$TEST_TMP/judged.tsv" | wc -l)
  if [ "$rc" -eq 0 ] && [ "$results" -eq "$total" ] && [ -z "$wrong" ]; then
    ok "$1: every dangerous row refused or asked, every benign row allowed ($known known gaps allowed)"
  else
    local lines=()
    mapfile -t lines <<<"$wrong"
    not_ok "$1: every row as the table says" "exit status $rc, $results results of $total" \
      "${lines[@]}" "stderr: $err"
  fi
}

check_table "built-in defaults" no

export SLUICE_SYSCONFDIR="$TEST_TMP/etc"
mkdir -p "$TEST_TMP/etc/sluice/policies.d"
cp "$SLUICE_SRCDIR"/policies/4*.ini "$TEST_TMP/etc/sluice/policies.d/"
check_table "with the optional packs" yes
