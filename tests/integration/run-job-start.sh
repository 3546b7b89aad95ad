#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A background job has started only once its launcher says so: the report
# line a foreground run waits for. A launcher that exits 0 without running
# anything, one that runs the command bare without a report, and one that
# reports another sandbox than the one asked for each fail the run, with
# no job listed and nothing of the command left running. The stand-ins are
# small scripts; fake-launch.sh (which reports "unrestricted") is the
# control that a reporting launcher still starts a job. A launcher's error
# on its stderr alone is the failed start's message.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

jobs_dir="$XDG_RUNTIME_DIR/sluice/jobs"
ws="$TEST_TMP/ws"
mkdir -p "$ws"

# no_job_files: nothing in the jobs directory names a job (ID.json,
# ID.out, ID.status).
no_job_files() {
  ! ls "$jobs_dir" 2>/dev/null | grep -qE '^[0-9-]+\.(json|out|status)$'
}

# -- the control: a launcher that reports starts a job -----------------------
mark="$TEST_TMP/control-ran"
run env SLUICE_LAUNCH="$SLUICE_SRCDIR/tests/integration/fake-launch.sh" \
  "$SLUICE" run --mode background --sandbox unrestricted --format json -C "$ws" -- "touch '$mark'"
id=$(json_get "$out" 'd.get("jobId")' 2>/dev/null)
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["ok"], d["sandbox"]["mode"]')" = "(True, 'unrestricted')" ] &&
  wait_for 10 test -e "$mark" && wait_for 10 test -e "$jobs_dir/$id.status"
report $? "control (the stand-in fake-launch.sh, which reports): the job starts and runs" \
  "rc=$rc" "$out" "$err"
rm -rf "${jobs_dir:?}"/*

# -- a launcher that exits 0 without running anything -------------------------
called="$TEST_TMP/silent-called"
mark="$TEST_TMP/silent-ran"
printf '#!/bin/sh\ntouch %q\nexit 0\n' "$called" >"$TEST_TMP/silent-launch"
chmod 755 "$TEST_TMP/silent-launch"
run env SLUICE_LAUNCH="$TEST_TMP/silent-launch" \
  "$SLUICE" run --mode background --format json -C "$ws" -- "touch '$mark'"
[ "$rc" -eq 125 ] && [ -e "$called" ] && [ ! -e "$mark" ] &&
  [ "$(json_get "$out" 'd["ok"], d["error"]["kind"], d.get("jobId")')" = "(False, 'command_failed', None)" ] &&
  grep -q "the launcher '$TEST_TMP/silent-launch' did not report starting the command" <<<"$out"
report $? "a launcher that exits 0 without running anything: the job is not reported started" \
  "rc=$rc" "called: $([ -e "$called" ] && echo yes)" "$out" "$err"
run "$SLUICE" jobs --format json
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'len(d)')" = 0 ] && no_job_files
report $? "... and no job is listed, no job file left" "$out" "$(ls -l "$jobs_dir")"

# -- a launcher that fails a step, its error on stderr alone -----------------
# (one started without --report-fd's support): its stderr goes down the
# job's output pipe, and its first line is the error the start fails with.
printf '#!/bin/sh\necho "sluice-launch: mounts: a step failed here" >&2\nexit 125\n' \
  >"$TEST_TMP/stderr-launch"
chmod 755 "$TEST_TMP/stderr-launch"
run env SLUICE_LAUNCH="$TEST_TMP/stderr-launch" \
  "$SLUICE" run --mode background --format json -C "$ws" -- 'true'
[ "$rc" -eq 125 ] && [ "$(json_get "$out" 'd["ok"], d["error"]["kind"]')" = "(False, 'command_failed')" ] &&
  [ "$(json_get "$out" 'd["error"]["message"]')" = "sluice-launch: mounts: a step failed here" ] &&
  no_job_files
report $? "a launcher's error line on its stderr alone is the failed start's message, no job left" \
  "rc=$rc" "$out" "$(ls -l "$jobs_dir")"

# -- a launcher that runs the command bare, without a report ---------------
# (it closes the report descriptor and execs what follows "--")
printf '#!/bin/bash\nwhile [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done\nshift\nexec 3>&-\nexec "$@"\n' \
  >"$TEST_TMP/bare-launch"
chmod 755 "$TEST_TMP/bare-launch"
"$TEST_TMP/bare-launch" --profile workspace-write -- bash -c "touch '$TEST_TMP/bare-direct'"
[ -e "$TEST_TMP/bare-direct" ]
report $? "positive control: the bare stand-in runs a command"
late="$TEST_TMP/bare-late"
run env SLUICE_LAUNCH="$TEST_TMP/bare-launch" \
  "$SLUICE" run --mode background --format json -C "$ws" -- "sleep 2; touch '$late'"
[ "$rc" -eq 125 ] && [ "$(json_get "$out" 'd["ok"], d["error"]["kind"]')" = "(False, 'command_failed')" ] &&
  grep -q 'did not report starting the command' <<<"$out"
report $? "a launcher that runs the command bare without a report fails the run" "rc=$rc" "$out"
sleep 3
[ ! -e "$late" ] && no_job_files
report $? "... and what it started was ended: nothing ran on" "$(ls "$TEST_TMP")" "$(ls -l "$jobs_dir")"

# -- a launcher that reports another sandbox ---------------------------------
late="$TEST_TMP/other-late"
run env SLUICE_LAUNCH="$SLUICE_SRCDIR/tests/integration/fake-launch.sh" \
  "$SLUICE" run --mode background --sandbox workspace-write --format json -C "$ws" -- \
  "sleep 2; touch '$late'"
[ "$rc" -eq 125 ] &&
  [ "$(json_get "$out" 'd["ok"], d["error"]["kind"], d["sandbox"]["mode"]')" = "(False, 'sandbox_unavailable', 'unrestricted')" ] &&
  grep -q "the launcher reported the sandbox 'unrestricted', not the 'workspace-write' asked for" <<<"$out"
report $? "a launcher that reports another sandbox fails the job's start; the result names the one reported" \
  "rc=$rc" "$out"
sleep 3
[ ! -e "$late" ] && no_job_files
report $? "... and the command it started was ended" "$(ls -l "$jobs_dir")"

# -- the real launcher: the job's result names the sandbox it reported --------
run "$SLUICE" run --mode background --sandbox workspace-write --format json -C "$ws" -- 'true'
[ "$rc" -eq 0 ] &&
  [ "$(json_get "$out" 'd["ok"], d["sandbox"]["mode"], "session" in d["sandbox"]["enforced"]')" = "(True, 'workspace-write', True)" ]
report $? "with sluice-launch the job's result carries the launcher's report" "rc=$rc" "$out" "$err"
