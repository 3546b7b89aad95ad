#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Background mode: returns at once with pid, process group and output file;
# the completion line comes when the job's LAST process is gone; jobs, logs
# (--tail) and kill; files private to the user. The job's stdout and stderr
# are a pipe its monitor reads into the output file (job-output.c): the
# file stops at [broker] output_file_cap, and the command cannot reach the
# file itself through /proc/self/fd.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

jobs_dir="$XDG_RUNTIME_DIR/sluice/jobs"
gate="$TEST_TMP/gate"
mkfifo "$gate"

# The job's backgrounded child waits on the gate, so the job is running
# until the test opens it.
out=$(timeout -k 5 20 "$SLUICE" run --mode background --format json -- "echo first; (read x < '$gate'; echo child-done) & echo shell-done") && rc=0 || rc=$?
id=$(json_get "$out" 'd["jobId"]')
file=$(json_get "$out" 'd["outputFile"]')
[ "$rc" -eq 0 ] && [ -n "$id" ] && [ "$(json_get "$out" 'd["pid"] > 0 and d["ok"]')" = True ] && [ -f "$file" ]
report $? "background mode returns a job, its pid and its output file" "rc=$rc" "$out"
[ "$(stat -c %a "$jobs_dir")" = 700 ]
report $? "the jobs directory is private (0700)"

wait_for 10 grep -q shell-done "$file"
run "$SLUICE" jobs
expect "jobs lists it as running while its child lives, although the shell is gone" 0 "^$id +running "

echo go >"$gate"
wait_for 10 grep -q "^\[sluice: job $id completed\]$" "$file" && grep -q child-done "$file"
report $? "the completion line comes after the last process" "$(cat "$file")"
run "$SLUICE" jobs
expect "jobs shows it completed" 0 "^$id +completed "
# --workspace: only the jobs started in that workspace (or beneath it).
mkdir -p "$TEST_TMP/elsewhere"
run "$SLUICE" jobs --workspace "$TEST_TMP/elsewhere"
if [ "$rc" -eq 0 ] && ! grep -q "^$id " <<<"$out"; then ok "jobs --workspace leaves out another workspace's job"; else not_ok "jobs --workspace leaves out another workspace's job" "$out"; fi
run "$SLUICE" jobs --workspace . --format json
if [ "$rc" -eq 0 ] && [ "$(json_get "$out" "[j['workspace'] for j in d if j['id'] == '$id'] == ['$PWD']")" = True ]; then
  ok "jobs --workspace lists its own, with the workspace it was started in"
else
  not_ok "jobs --workspace lists its own, with the workspace it was started in" "$out"
fi
run "$SLUICE" logs "$id"
expect "logs prints the output" 0 '^child-done$'
run "$SLUICE" logs "$id" --tail 1
[ "$rc" -eq 0 ] && [ "$out" = "[sluice: job $id completed]" ]; report $? "logs --tail 1 prints the last line" "$out"

run timeout -k 5 20 "$SLUICE" run --mode background -- 'exit 4'
id2=$(sed -n 's/^\[started in background: job \([0-9-]*\),.*/\1/p' <<<"$out")
wait_for 10 grep -q "^\[sluice: job $id2 failed with exit code 4\]$" "$jobs_dir/$id2.out"
report $? "a failing job's completion line has its exit code" "$out"

# The escapee is found from outside by a mark in its argv: a pid the
# command prints is its PID namespace's, which names another process here.
pids="$TEST_TMP/pids"
mark="jobs-escapee-$$-$RANDOM"
run timeout -k 5 20 "$SLUICE" run --mode background -- "setsid bash -c 'exec -a $mark sleep 320' & echo started > '$pids'; sleep 321"
id3=$(sed -n 's/^\[started in background: job \([0-9-]*\),.*/\1/p' <<<"$out")
grep -q "^\[stop it with: sluice kill $id3" <<<"$out"
report $? "the text says how to stop it" "$out"
wait_for 10 test -s "$pids"
escapee_runs() { pgrep -f -- "^$mark" >/dev/null; }
escapee_gone() { ! escapee_runs; }
wait_for 5 escapee_runs && seen=yes || seen=no
run timeout -k 5 20 "$SLUICE" kill "$id3"
expect "kill ends the job" 0
[ "$seen" = yes ] && wait_for 5 escapee_gone
report $? "kill ends the whole tree, the setsid escapee too (found by its mark from outside)" \
  "seen before the kill: $seen" "left: $(pgrep -a -f -- "^$mark")" || pkill -9 -f -- "^$mark"
run "$SLUICE" jobs
expect "jobs shows it killed" 0 "^$id3 +killed "
run "$SLUICE" kill "$id3"
expect "killing a finished job says so" 1 '' 'not running'
# A job's command is listed on one line, with nothing in it that a terminal
# would obey (an escape sequence, a newline).
run timeout -k 5 20 "$SLUICE" run --mode background -- $'echo one\n: \e[2K'
id4=$(sed -n 's/^\[started in background: job \([0-9-]*\),.*/\1/p' <<<"$out")
run "$SLUICE" jobs
line=$(grep "^$id4 " <<<"$out")
[ "$rc" -eq 0 ] && [ -n "$id4" ] && [ "$(grep -c "^$id4 " <<<"$out")" -eq 1 ] &&
   grep -qF 'echo one\n: \x1b[2K' <<<"$line" && ! grep -q $'\e' <<<"$out"
report $? "jobs lists a command on one line, its control characters written out" "rc=$rc" "$(cat -v <<<"$out")"
run "$SLUICE" logs nosuchjob
expect "an unknown job is an error" 125 '' "no job 'nosuchjob'"

run timeout -k 5 20 "$SLUICE" run --mode background --timeout 300ms -- 'sleep 322'
id4=$(sed -n 's/^\[started in background: job \([0-9-]*\),.*/\1/p' <<<"$out")
wait_for 10 grep -q "^\[sluice: job $id4 timed out after 300ms" "$jobs_dir/$id4.out"
report $? "a timeout applies to background jobs too" "$(cat "$jobs_dir/$id4.out")"

# -- the output file's cap (red team 51a, 04) ---------------------------------
# A job writing 5MiB under a 1MiB cap: the file stops at the cap (the end
# lines after it), the job is drained past it and completes, and its end,
# its status and the listing say the output was cut, naming the key.
printf '[broker]\noutput_file_cap = 1MiB\n' >"$TEST_TMP/cap.ini"
run timeout -k 5 30 "$SLUICE" run --config "$TEST_TMP/cap.ini" --mode background --format json -- \
  'head -c 5M /dev/zero | tr "\0" x; echo; echo wrote-all'
idc=$(json_get "$out" 'd["jobId"]' 2>/dev/null)
filec="$jobs_dir/$idc.out"
if [ "$rc" -eq 0 ] && [ -n "$idc" ] && wait_for 20 test -e "$jobs_dir/$idc.status"; then
  size=$(stat -c %s "$filec")
  [ "$size" -ge 1048576 ] && [ "$size" -lt $((1048576 + 1024)) ] &&
    [ "$(head -c 1048576 "$filec" | tr -d x | wc -c)" -eq 0 ]
  report $? "a job's output file stops at output_file_cap (1MiB), the end lines after it" \
    "size=$size" "$(tail -c 600 "$filec")"
  grep -q "^\[sluice: job $idc completed\]$" "$filec" && ! grep -q wrote-all "$filec"
  report $? "... the job, drained past the cap, runs to its end and completes" "$(tail -c 600 "$filec")"
  # 5MiB, a newline, "wrote-all\n": the monitor counted every byte it dropped
  grep -q '^\[sluice: output cut at 1MiB, the \[broker\] output_file_cap: the job wrote 5242891 bytes, the 4194315 past the cap were read and dropped\]$' "$filec"
  report $? "... and its end says where the output was cut, naming [broker] output_file_cap" \
    "$(tail -c 600 "$filec")"
  [ "$(json_get "$(cat "$jobs_dir/$idc.status")" 'd.get("truncated"), d.get("outputBytes"), d.get("outputFileCap")')" = "(True, 5242891, 1048576)" ]
  report $? "... its status says truncated, with the bytes written and the cap" "$(cat "$jobs_dir/$idc.status")"
  run "$SLUICE" jobs
  grep -Eq "^$idc +completed, output cut " <<<"$out"
  report $? "... sluice jobs lists it as cut" "$out"
  run "$SLUICE" jobs --format json
  [ "$(json_get "$out" "[(j['truncated'], j.get('outputFileCap')) for j in d if j['id'] in ('$idc', '$id')]")" = "[(True, 1048576), (False, None)]" ] ||
    [ "$(json_get "$out" "[(j['truncated'], j.get('outputFileCap')) for j in d if j['id'] in ('$idc', '$id')]")" = "[(False, None), (True, 1048576)]" ]
  report $? "... and so does its JSON (truncated, outputFileCap; a job under the cap: false)" "$out"
else
  not_ok "the job over the cap ran to its end" "rc=$rc" "$out" "$(ls "$jobs_dir")"
fi

# -- the output file's metadata (red team 51a, 03) ----------------------------
# The job's /proc/self/fd/1 and /proc/self/fd/2 are its pipe: a chmod, a
# touch and a setxattr there leave the output file (outside the workspace)
# as sluice made it. The job waits once it tried, so that no later write
# of its output hides a planted mtime.
meta="$TEST_TMP/meta-tried"
run timeout -k 5 20 "$SLUICE" run --mode background --format json -- \
  "chmod 0666 /proc/self/fd/1 /proc/self/fd/2; touch -m -d '2001-02-03 04:05:06' /proc/self/fd/1 /proc/self/fd/2; python3 -c 'import os; os.setxattr(\"/proc/self/fd/1\", \"user.x\", b\"planted\")'; echo tried > '$meta'; sleep 324"
idm=$(json_get "$out" 'd["jobId"]' 2>/dev/null)
filem="$jobs_dir/$idm.out"
if [ "$rc" -eq 0 ] && [ -n "$idm" ] && wait_for 10 test -s "$meta"; then
  st=$(stat -c '%a %Y' "$filem")
  xattrs=$(python3 -c 'import os, sys; print(os.listxattr(sys.argv[1]))' "$filem" 2>&1)
  [ "${st% *}" = 600 ]
  report $? "a chmod of a job's /proc/self/fd/1 leaves its output file 0600" "$st"
  [ "${st#* }" -gt "$(date -d '2020-01-01' +%s)" ]
  report $? "... a touch there leaves its mtime" "$st" "$(stat "$filem")"
  ! grep -q "user.x" <<<"$xattrs"
  report $? "... a setxattr there leaves its xattrs" "$xattrs"
  run timeout -k 5 20 "$SLUICE" kill "$idm"
  wait_for 10 test -e "$jobs_dir/$idm.status"
  report $? "... and the job is killed" "rc=$rc" "$out" "$err"
else
  not_ok "the job trying its /proc/self/fd/1 ran" "rc=$rc" "$out" "$err" "$(cat "$filem" 2>&1)"
  [ -n "$idm" ] && "$SLUICE" kill "$idm" >/dev/null 2>&1
fi

start=$(date +%s%N)
"$SLUICE" run --mode background -- 'sleep 0' >/dev/null
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -lt 2000 ] && ok "background mode returns at once (${ms}ms)" || not_ok "background mode returns at once" "${ms}ms"

# Cleanup (sluice jobs runs it): a job that finished longer ago than
# [broker] jobs_max_age goes, files and all; so does a private TMPDIR that
# nothing holds any more (its run was killed before it could remove it),
# once old enough; a TMPDIR a running job holds stays, however old.
mkdir -p "$TEST_TMP/etc-age/sluice"
printf '[broker]\njobs_max_age = 1s\n' >"$TEST_TMP/etc-age/sluice/sluice.ini"
ws_age="$TEST_TMP/ws-age"
mkdir -p "$ws_age"
run "$SLUICE" run -C "$ws_age" --mode background -- 'exit 0'
id_old=$(sed -n 's/^\[started in background: job \([0-9-]*\),.*/\1/p' <<<"$out")
run "$SLUICE" run -C "$ws_age" --mode background --sandbox workspace-write -- \
  'echo started > ./tmpdir; sleep 323'
id_run=$(sed -n 's/^\[started in background: job \([0-9-]*\),.*/\1/p' <<<"$out")
mkdir "$jobs_dir/tmp-abandoned" && touch "$jobs_dir/tmp-abandoned/left"
if wait_for 10 test -e "$jobs_dir/$id_old.status" && wait_for 10 test -s "$ws_age/tmpdir"; then
  # the running job's TMPDIR on disk (inside, TMPDIR is its private /tmp),
  # once the finished job's is gone
  wait_for 10 sh -c '[ "$(find "$1" -maxdepth 1 -name "tmp-*" ! -name tmp-abandoned | wc -l)" -eq 1 ]' _ "$jobs_dir"
  held=$(find "$jobs_dir" -maxdepth 1 -name 'tmp-*' ! -name tmp-abandoned | head -1)
  touch -d '2 hours ago' "$jobs_dir/$id_old".* "$jobs_dir/tmp-abandoned" "$held"
  with_tmp_cleanup_lock run env SLUICE_SYSCONFDIR="$TEST_TMP/etc-age" "$SLUICE" jobs
  [ "$rc" -eq 0 ] && [ -z "$(ls "$jobs_dir" | grep -F "$id_old")" ]
  report $? "a job finished longer ago than jobs_max_age is cleaned up" "rc=$rc" "$(ls "$jobs_dir")"
  [ ! -e "$jobs_dir/tmp-abandoned" ]
  report $? "an old TMPDIR nothing holds is cleaned up" "$(ls "$jobs_dir")"
  [ -d "$held" ] && grep -Eq "^$id_run +running " <<<"$out"
  report $? "the TMPDIR of a running job stays, however old" "held=$held" "$out" "$(ls "$jobs_dir")"
  # A job that ended without a status (its monitor was SIGKILLed): its
  # files, old enough, go too; without the cleanup they stayed for ever.
  lost=19990101-000000-4242
  printf '{"command":"sleep 1","pid":2147483000,"monitor":2147483001,"monitorStart":1,"started":1}\n' \
    >"$jobs_dir/$lost.json"
  : >"$jobs_dir/$lost.out"
  touch -d '2 hours ago' "$jobs_dir/$lost".*
  run "$SLUICE" jobs
  grep -Eq "^$lost +lost " <<<"$out"
  report $? "positive control: a job without a status and no monitor is listed as lost" "$out"
  with_tmp_cleanup_lock run env SLUICE_SYSCONFDIR="$TEST_TMP/etc-age" "$SLUICE" jobs
  [ "$rc" -eq 0 ] && [ -z "$(ls "$jobs_dir" | grep -F "$lost")" ]
  report $? "a job that ended without a status is cleaned up once old" "rc=$rc" "$(ls "$jobs_dir")"
  run "$SLUICE" kill "$id_run"
  wait_for 10 test ! -e "$held"
  report $? "a killed job's monitor removes its TMPDIR" "$held"
else
  not_ok "the jobs for the cleanup started" "$(ls "$jobs_dir")"
  "$SLUICE" kill "$id_run" >/dev/null 2>&1
fi
