#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A background job seen from a later sandboxed command: its processes are
# in a PID namespace of their own and the jobs directory is hidden, so the
# text of the job's start suggests what works (sluice kill, from outside),
# and a nested `sluice jobs` says it cannot see the jobs rather than list
# none. The scratch folder lies outside /tmp, so that the jobs directory
# is one the sandbox covers, not one its private /tmp leaves out of sight.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

ws="$TEST_TMP/ws"
mkdir -p "$ws"

run timeout -k 5 20 "$SLUICE" run --mode background --sandbox workspace-write --format json -C "$ws" -- 'sleep 300'
id=$(json_get "$out" 'd.get("jobId")' 2>/dev/null)
pid=$(json_get "$out" 'd.get("pid")' 2>/dev/null)
if [ "$rc" -ne 0 ] || [ "$(json_get "$out" '"pid-namespace" in (d["sandbox"]["enforced"] or [])')" != True ]; then
  skip_rest "a sandboxed job seen from inside" "no PID namespace here (rc=$rc: $(json_get "$out" 'd["sandbox"]["missing"]' 2>&1))"
fi
run timeout -k 5 20 "$SLUICE" run --sandbox workspace-write -C "$ws" -- "kill -9 -$pid"
[ "$rc" -ne 0 ] && [ "$(timeout 20 "$SLUICE" jobs | awk -v id="$id" '$1 == id {print $2}')" = running ]
report $? "from inside, a kill of the job's process group fails: the job runs on" "rc=$rc" "$out"

run timeout -k 5 20 "$SLUICE" run --mode background --sandbox workspace-write -C "$ws" -- 'sleep 301'
id2=$(sed -n 's/^\[started in background: job \([0-9-]*\),.*/\1/p' <<<"$out")
grep -q "^\[stop it with: sluice kill $id2, from outside the sandbox" <<<"$out" && ! grep -q 'kill -9 -' <<<"$out"
report $? "a sandboxed job's text suggests sluice kill from outside, not a kill from inside" "$out"

run timeout -k 5 20 "$SLUICE" run --sandbox workspace-write -C "$ws" -- "'$SLUICE' jobs"
[ "$rc" -ne 0 ] && grep -q "jobs: the jobs directory '.*' cannot be read (Permission denied); inside sluice's sandbox it is hidden" <<<"$out"
report $? "a nested sluice jobs says it cannot see the jobs, not that there are none" "rc=$rc" "$out"
run timeout -k 5 20 "$SLUICE" jobs
[ "$rc" -eq 0 ] && grep -q "^$id2 \+running " <<<"$out"
report $? "control: from outside the job is listed running" "rc=$rc" "$out"

run timeout -k 5 20 "$SLUICE" kill "$id"
expect "from outside, sluice kill ends the job" 0
run timeout -k 5 20 "$SLUICE" kill "$id2"
expect "... and the other" 0
