#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Faults that must fail closed, against a real system configuration: a
# configuration rewritten in place while commands run (a read between the
# truncate and the write must never mean "the defaults"), a required audit
# log on a full file system (nothing runs unaudited), and a broker killed
# while its command runs (the request's start line is in the log).
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/sysconf-lib.sh"

ws="$TEST_TMP/ws"
mkdir -p "$ws"

# -- a configuration rewritten in place --------------------------------------
# Both versions deny `touch ...denied...`; they differ only in a comment.
deny='[plugin regex]\nrule = no-denied\npattern = denied-\naction = deny\nmessage = not this one\n'
system_ini ''
run "$SYS" run -C "$ws" -- "touch $ws/denied-control"
[ "$rc" -eq 0 ] && [ -e "$ws/denied-control" ]
report $? "positive control: read empty, the configuration is the defaults and the command runs" \
  "rc=$rc" "$out" "$err"
rm -f "$ws/denied-control"
printf "; version A\n$deny" >"$TEST_TMP/a.ini"
printf "; version B, a longer comment than A's\n$deny" >"$TEST_TMP/b.ini"
cp "$TEST_TMP/a.ini" "$ETC/sluice.ini"
run "$SYS" run -C "$ws" -- "touch $ws/denied-0"
[ "$rc" -ne 0 ] && [ ! -e "$ws/denied-0" ]
report $? "either version denies the command" "rc=$rc" "$out"
# cat > FILE: truncate, then write, as editors and configuration management do
( while :; do cat "$TEST_TMP/a.ini" >"$ETC/sluice.ini"; cat "$TEST_TMP/b.ini" >"$ETC/sluice.ini"; done ) &
writer=$!
runs=30 denied=0 refused=0
for i in $(seq 1 "$runs"); do
  "$SYS" run -C "$ws" -- "touch $ws/denied-$i" >"$TEST_TMP/run.out" 2>"$TEST_TMP/run.err" && rc=0 || rc=$?
  if grep -q 'denied by policy regex' "$TEST_TMP/run.out"; then
    denied=$((denied + 1))
  elif grep -Eq 'changed while it was read|open for writing by another program' "$TEST_TMP/run.err"; then
    refused=$((refused + 1))
  fi
done
kill "$writer"
wait "$writer" 2>/dev/null
ran=$(find "$ws" -name 'denied-*' | wc -l)
echo "# rewritten in a loop: $runs runs, $denied denied by the policy, $refused refused as a file being rewritten, $ran ran"
[ "$ran" -eq 0 ] && [ $((denied + refused)) -eq "$runs" ]
report $? "a configuration rewritten in a tight loop: 0 of $runs denied commands ran" \
  "$denied denied, $refused refused, $ran ran" "last stderr: $(cat "$TEST_TMP/run.err")"
sleep 0.3 # the last rewrite settles
run "$SYS" run -C "$ws" -- "touch $ws/denied-after"
[ "$rc" -ne 0 ] && [ ! -e "$ws/denied-after" ] && grep -q 'denied by policy regex' <<<"$out"
report $? "once the rewrites stop, the file is read again and the command denied" "rc=$rc" "$out" "$err"

# A slow writer: the shell's `>` truncates, and the text comes later (a
# template rendered, a program that prints when it is done). The run starts
# once the empty file is older than the 200ms a file must hold still, and
# the text comes 0.8s after that: inside the 2s an empty file must hold
# still. The writer waits on a FIFO, not a fixed sleep, so that a loaded
# machine cannot turn the pause into something else.
sleep 0.3 # version A settles
mkfifo "$TEST_TMP/slow-go"
( { read -r _ <"$TEST_TMP/slow-go"; sleep 0.8; cat "$TEST_TMP/a.ini"; } >"$ETC/sluice.ini" ) &
writer=$!
# empty_for MS: the file is empty and was last changed MS ago or more
empty_for() {
  local size changed_ns
  size=$(stat -c %s "$ETC/sluice.ini") &&
    changed_ns=$(python3 -c 'import os,sys; print(os.stat(sys.argv[1]).st_ctime_ns)' "$ETC/sluice.ini") &&
    [ "$size" -eq 0 ] && [ $((($(date +%s%N) - changed_ns) / 1000000)) -ge "$1" ]
}
for _ in $(seq 200); do empty_for 250 && break; sleep 0.05; done
empty_for 250
report $? "positive control: in the slow writer's pause the file is empty, its truncate older than the 200ms a file must hold still" \
  "size $(stat -c %s "$ETC/sluice.ini")"
echo go >"$TEST_TMP/slow-go"
run "$SYS" run -C "$ws" -- "touch $ws/denied-slow"
wait "$writer"
[ "$rc" -ne 0 ] && [ ! -e "$ws/denied-slow" ] && grep -q 'denied by policy regex' <<<"$out"
report $? "a run in the slow writer's pause waits for the text and is denied, not run with the defaults" \
  "rc=$rc" "$out" "$err"

# now_ms: the wall clock in ms (bash's own, no process started)
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
# A writer that pauses with part of the text written, until the test lets
# it go on. The part is valid alone and lacks the rule: here a setting of
# another key. Still open for writing, which a read lease sees (sluice
# runs as root here, or owns the file).
sleep 0.3
mkfifo "$TEST_TMP/go"
( { printf '[broker]\ntimeout = 30\n'; read -r _ <"$TEST_TMP/go"; printf "$deny"; } >"$ETC/sluice.ini" ) &
writer=$!
until grep -q timeout "$ETC/sluice.ini"; do sleep 0.05; done
written=$(now_ms)
sleep 0.3
part=$(cat "$ETC/sluice.ini")
waited=$(($(now_ms) - written))
[ "$waited" -ge 200 ] && [ "$part" = "$(printf '[broker]\ntimeout = 30')" ]
report $? "positive control: ${waited}ms into the pause (past the 200ms a whole-looking text must hold still), the file is whole lines with a key, and no rule" \
  "$part"
run "$SYS" run -C "$ws" -- "touch $ws/denied-part"
echo >"$TEST_TMP/go"
wait "$writer"
[ "$rc" -ne 0 ] && [ ! -e "$ws/denied-part" ] && grep -q 'open for writing by another program' <<<"$err"
report $? "a run while a writer holds the file open with part of it written is refused, and says why" \
  "rc=$rc" "$out" "$err"

# paused_writer PART REST NAME: write PART and close the file, start a run
# of `touch denied-NAME` at once, and append REST after 300ms, once the
# test has seen that PART alone was in the file (the positive control: a
# reader that waits 200ms, as for a whole text, would have taken it).
paused_writer() {
  sleep 0.3
  printf '%s' "$1" >"$ETC/sluice.ini"
  written=$(now_ms)
  "$SYS" run -C "$ws" -- "touch $ws/denied-$3" >"$TEST_TMP/paused.out" 2>"$TEST_TMP/paused.err" &
  local runner=$!
  sleep 0.3
  part=$(cat "$ETC/sluice.ini")
  waited=$(($(now_ms) - written))
  printf '%s' "$2" >>"$ETC/sluice.ini"
  wait "$runner" && rc=0 || rc=$?
  out=$(cat "$TEST_TMP/paused.out") err=$(cat "$TEST_TMP/paused.err")
}

# A writer that wrote a comment and closed the file, and appends the rest
# a moment later (no lease sees this): a text with no KEY = VALUE line
# counts only after 2s, as an empty one does.
paused_writer $'; version C\n' "$(printf "$deny")" comment
[ "$waited" -ge 200 ] && [ "$part" = '; version C' ]
report $? "positive control: ${waited}ms into the pause the file is one comment line" "$part"
[ "$rc" -ne 0 ] && [ ! -e "$ws/denied-comment" ] && grep -q 'denied by policy regex' <<<"$out"
report $? "a run in that pause waits for the rest and is denied, not run with the defaults" \
  "rc=$rc" "$out" "$err"

# The same, cut mid-line: no newline at the text's end. Read then, the
# rule would deny with the message "not".
full=$(printf "$deny")
paused_writer "${full%% this one}" ' this one' mid
[ "$waited" -ge 200 ] && [ "${part: -3}" = 'not' ]
report $? "positive control: ${waited}ms into the pause the text ends mid-line" "$part"
[ "$rc" -ne 0 ] && [ ! -e "$ws/denied-mid" ] && grep -q 'not this one' <<<"$out"
report $? "a text cut mid-line is read only once its line ends: the denial gives the rule's whole message" \
  "rc=$rc" "$out" "$err"

# -- a required audit log on a full file system ------------------------------
# A small tmpfs, filled, in a mount namespace of its own: as root only. In
# an unprivileged user namespace (unshare -Ur) every folder root owns
# belongs to an unmapped user, and sluice rightly trusts no plugin there.
full="$TEST_TMP/full"
mkdir -p "$full"
in_full_fs() { # SCRIPT: run SCRIPT in bash with a full tmpfs on $full
  unshare -m bash -c "mount -t tmpfs -o size=64k tmpfs '$full' &&
    : >'$full/audit.log' && (dd if=/dev/zero of='$full/fill' bs=4k 2>/dev/null; true) && $1"
}
if [ "$(id -u)" -ne 0 ]; then
  skip "a required audit log on a full file system refuses the command" \
    "needs root to mount a small tmpfs (in a user namespace root's folders are not trusted); the file size limit below stands in"
elif ! unshare -m true 2>/dev/null; then
  skip "a required audit log on a full file system refuses the command" "no mount namespace here (unshare -m)"
else
  system_ini "[audit]\nfile = $full/audit.log\nrequired = no\n"
  run in_full_fs "'$SYS' run -C '$ws' -- 'touch $ws/unaudited'"
  [ "$rc" -eq 0 ] && [ -e "$ws/unaudited" ] && grep -q 'audit line of this request could not be written' <<<"$out"
  report $? "positive control: on a full file system, not required, the command runs unaudited" \
    "rc=$rc" "$out" "$err"
  rm -f "$ws/unaudited"
  system_ini "[audit]\nfile = $full/audit.log\nrequired = yes\n"
  run in_full_fs "'$SYS' run --format json -C '$ws' -- 'touch $ws/unaudited'"
  [ "$rc" -ne 0 ] && [ ! -e "$ws/unaudited" ] &&
    [ "$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["ok"], d["error"]["kind"])' "$out" 2>&1)" = "False config_error" ] &&
    grep -q 'the audit log is required and the request.s line could not be written' <<<"$out"
  report $? "required = yes on a full file system: nothing runs unaudited" "rc=$rc" "$out" "$err"
fi

# A log that cannot grow, for any user: past the file size limit (its
# signal ignored, as a service manager may set it) a write fails with EFBIG.
big="$TEST_TMP/big-audit.log"
head -c 8192 /dev/zero | tr '\0' '\n' >"$big"
system_ini "[audit]\nfile = $big\nrequired = yes\n"
run bash -c "trap '' XFSZ; ulimit -f 4; exec '$SYS' run -C '$ws' -- 'touch $ws/unaudited'"
[ "$rc" -ne 0 ] && [ ! -e "$ws/unaudited" ] && grep -q 'line could not be written' <<<"$out"
report $? "required = yes and a log that cannot grow: nothing runs unaudited" "rc=$rc" "$out" "$err"
system_ini "[audit]\nfile = $big\nrequired = no\n"
run bash -c "trap '' XFSZ; ulimit -f 4; exec '$SYS' run -C '$ws' -- 'touch $ws/unaudited'"
[ "$rc" -eq 0 ] && [ -e "$ws/unaudited" ]
report $? "positive control: not required, the same command runs, unaudited" "rc=$rc" "$out" "$err"

# -- a broker killed while its command runs ----------------------------------
log="$TEST_TMP/audit.log"
system_ini "[audit]\nfile = $log\nrequired = yes\n"
"$SYS" run -C "$ws" -- "touch $ws/started; sleep 30" >/dev/null 2>&1 &
broker=$!
for _ in $(seq 1 200); do [ -e "$ws/started" ] && break; sleep 0.05; done
kill -9 "$broker"
wait "$broker" 2>/dev/null
lines=$(cat "$log" 2>&1)
[ -e "$ws/started" ] && python3 -c '
import json, sys
l = [json.loads(x) for x in open(sys.argv[1])]
ok = len(l) == 1 and l[0].get("phase") == "start" and l[0].get("id") and l[0]["command"].startswith("touch ")
sys.exit(0 if ok else 1)' "$log"
report $? "a broker killed with SIGKILL leaves the request's start line in the audit log" "$lines"
"$SYS" run -C "$ws" -- 'echo done' >/dev/null 2>&1
python3 -c '
import json, sys
l = [json.loads(x) for x in open(sys.argv[1])][1:]
sys.exit(0 if [d["phase"] for d in l] == ["start", "end"] and l[0]["id"] == l[1]["id"] and l[1]["exitCode"] == 0 else 1)' "$log"
report $? "a request that ran has a start line and an end line with the same id" "$(cat "$log")"

# -- a full jobs directory -----------------------------------------------------
# A cut run's full output goes to a file in the jobs directory; when it
# cannot be written (here past the file size limit, its signal ignored), the
# result must not name a file that does not hold it.
big_out="head -c 300000 /dev/zero | tr '\\0' x"
run bash -c "trap '' XFSZ; ulimit -f 0; exec '$SLUICE' run -C '$ws' -- \"$big_out\""
[ "$rc" -eq 0 ] && grep -q 'the whole output could not be kept: File too large' <<<"$out" &&
  ! grep -q 'the whole output is in' <<<"$out"
report $? "no room for a cut run's full output: the result says it could not be kept" \
  "rc=$rc" "$(grep -o '\[\.\.\. .*\]' <<<"$out")" "$err"
run bash -c "trap '' XFSZ; ulimit -f 8; exec '$SLUICE' run -C '$ws' -- \"$big_out\""
[ "$rc" -eq 0 ] && grep -Eq 'run-[^ ]*\.out holds only the start of the whole output: File too large' <<<"$out"
report $? "room for part of it: the result says the file holds only its start" \
  "rc=$rc" "$(grep -o '\[\.\.\. .*\]' <<<"$out")"
run "$SLUICE" run -C "$ws" -- "$big_out"
[ "$rc" -eq 0 ] && grep -q 'the whole output is in ' <<<"$out"
report $? "positive control: with room, the whole output is kept and named" "rc=$rc"

# -- /proc hidden --------------------------------------------------------------
# A tmpfs over /proc in a mount namespace of its own (as a user, in a user
# namespace too): the error names /proc, not the workspace.
if [ "$(id -u)" -eq 0 ]; then proc_ns=(-m); else proc_ns=(-Ur -m); fi
if unshare "${proc_ns[@]}" bash -c 'mount -t tmpfs none /proc' 2>/dev/null; then
  run unshare "${proc_ns[@]}" bash -c "mount -t tmpfs none /proc && exec '$SLUICE' run -C '$ws' -- 'echo hi'"
  # A sanitizer build's leak check at exit needs /proc (it reads even its
  # options there) and ends the process with 1: the message counts then.
  { [ "$rc" -eq 125 ] || { [ "$rc" -eq 1 ] && grep -q 'LeakSanitizer has encountered a fatal error' <<<"$err"; }; } &&
    grep -q '/proc is not mounted, or hidden' <<<"$out" &&
    ! grep -q "workspace root" <<<"$out"
  report $? "with /proc hidden the error says so, not that the workspace is wrong" "rc=$rc" "$out" "$err"
else
  skip "with /proc hidden the error says so" "no mount namespace here (unshare ${proc_ns[*]})"
fi

# -- a plugin's forked child ---------------------------------------------------
# A plugin that starts a helper and returns: the helper must not outlive
# the check (before, it stayed, reparented, for as long as it liked).
fx="$SLUICE_BUILDDIR/tests/plugins/fx_ok.so"
spawned="$TEST_TMP/spawned.pid"
printf '[plugin fx]\npath = %s\nspawn = %s\n' "$fx" "$spawned" >"$TEST_TMP/spawn.ini"
run "$SLUICE" run --config "$TEST_TMP/spawn.ini" -C "$ws" -- 'echo checked'
helper=$(cat "$spawned" 2>/dev/null)
gone() { ! kill -0 "$1" 2>/dev/null || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
[ "$rc" -eq 0 ] && [ -n "$helper" ] &&
  for _ in $(seq 1 40); do gone "$helper" && break; sleep 0.05; done && gone "$helper"
report $? "a plugin's forked child does not outlive the check" "rc=$rc" "helper=$helper" \
  "$(ps -o pid,ppid,stat,cmd -p "${helper:-1}" 2>&1)"
if [ -n "$helper" ]; then kill "$helper" 2>/dev/null || true; fi
