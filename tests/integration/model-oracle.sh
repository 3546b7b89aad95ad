#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The command model checked against bash itself (tests/oracle/): the corpus
# of tests/corpus/model-oracle.cmds, the everyday commands of
# tests/corpus/benign-model.cmds, the fuzzer's seeds and a fixed set of
# generated commands are run by bash in the restricted sandbox, and every
# argv that runs must be one the model predicts, or the model asks. The
# longer run is `make check-model-oracle`.
. "$SLUICE_SRCDIR/tests/lib.sh"

oracle="$SLUICE_BUILDDIR/tests/oracle/model-oracle"
stub="$SLUICE_BUILDDIR/tests/oracle/oracle-stub"
generated=${ORACLE_CHECK_COMMANDS:-600}

features=$("$SLUICE_LAUNCH" --print-features 2>&1) || true
if ! grep -q '"restricted":{"enforced":\[[^]]*\],"missing":\[\]' <<<"$features"; then
  skip_rest "the model oracle" "the restricted sandbox cannot be built here: $features"
fi

run "$oracle" --launcher "$SLUICE_LAUNCH" --stub "$stub" --jobs 2 \
  --corpus "$SLUICE_SRCDIR/tests/corpus/model-oracle.cmds" \
  --corpus "$SLUICE_SRCDIR/tests/corpus/benign-model.cmds" \
  --fuzz-dir "$SLUICE_SRCDIR/fuzz/seeds" --generate "$generated" --seed 1
summary=$(tail -n 1 <<<"$out")
# Records must arrive, or nothing was compared and the check proves nothing.
if [ "$rc" -eq 0 ] && grep -q ' 0 mismatches' <<<"$summary" &&
  grep -qE ' [1-9][0-9]* argv compared' <<<"$summary"; then
  ok "bash runs nothing the model does not account for (${summary#model-oracle: })"
else
  mapfile -t lines <<<"$out"
  not_ok "bash runs nothing the model does not account for" "exit status $rc" "${lines[@]}" \
    "stderr: $err"
fi

# The positive control: the oracle finds what ran when the model does not
# say it (the model of another command), both what bash traced and what a
# stub recorded when a wrapper ran it.
printf '%s\n' 'nice -n 5 rm -rf x' >"$TEST_TMP/control.cmds"
run "$oracle" --launcher "$SLUICE_LAUNCH" --stub "$stub" --jobs 1 \
  --corpus "$TEST_TMP/control.cmds" --model-of 'true'
if [ "$rc" -eq 1 ] && grep -q 'NOT IN MODEL bash ran: nice -n 5 rm -rf x' <<<"$out" &&
  grep -q 'NOT IN MODEL exec    : rm -rf x' <<<"$out"; then
  ok "the oracle reports an argv the model does not predict"
else
  not_ok "the oracle reports an argv the model does not predict" "exit status $rc" "$out" \
    "stderr: $err"
fi
