#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sluice-launch's own interface: --help and docs/launcher.md name every
# option of common/launch-spec.h, errors exit 125 naming the step, and the
# --report-fd and --print-features JSON.
. "$SLUICE_SRCDIR/tests/lib.sh"

PROBE=$SLUICE_BUILDDIR/tests/launcher/probe
L=$SLUICE_LAUNCH
W=(--workspace "$TEST_TMP")

run "$L" --version
expect "--version prints the package version" 0 '^sluice-launch [0-9]+\.[0-9]+\.[0-9]+$'
run "$L" -V
expect "-V prints it too" 0 '^sluice-launch [0-9]+\.[0-9]+\.[0-9]+$'
run "$L" -h
expect "-h prints the help" 0 '^Usage: sluice-launch '
run "$L" --profle restricted -- true
expect "a misspelt option is refused with the option meant, and no errno text" 125 '' \
  "^sluice-launch: options: unknown option '--profle'; did you mean '--profile'\?$"

options=$(sed -n 's/^#define LAUNCH_OPT_[A-Z_]* "\(--[a-z-]*\)".*/\1/p' "$SLUICE_SRCDIR/common/launch-spec.h")
run "$L" --help
help=$out
missing_help= missing_doc=
for o in $options; do
  [ "$o" = -- ] && continue
  grep -qE -- "^  (-[a-zA-Z], )?$o( |$)" <<<"$help" || missing_help+=" $o"
  grep -qF -- "\`$o" "$SLUICE_SRCDIR/docs/launcher.md" || missing_doc+=" $o"
done
[ -n "$options" ] && [ -z "$missing_help" ]
report $? "--help lists every option of launch-spec.h" "missing:$missing_help"
[ -z "$missing_doc" ]
report $? "docs/launcher.md documents every option" "missing:$missing_doc"

# --tmpdir-fallback: refused without --tmpdir, relative, or with --user;
# without a tmpfs over --tmpdir (--namespace off) it is made and is the
# TMPDIR, an existing one is refused; with the private /tmp it is not made.
shared=$TEST_TMP/shared-point
mkdir -p "$shared"
run "$L" --tmpdir-fallback "$shared/fb" -- true
expect "--tmpdir-fallback without --tmpdir is refused" 125 '' "^sluice-launch: options: --tmpdir-fallback needs --tmpdir"
run "$L" --tmpdir "$shared" --tmpdir-fallback fb -- true
expect "a relative --tmpdir-fallback is refused" 125 '' "^sluice-launch: options: --tmpdir-fallback: 'fb' is not an absolute path"
run "$L" --tmpdir "$shared" --tmpdir-fallback "$shared/fb" --user nobody -- true
expect "--tmpdir-fallback with --user is refused" 125 '' "^sluice-launch: options: --tmpdir-fallback needs --tmpdir DIR, and no --user"
features=$("$L" --print-features)
if grep -q '"landlock_abi":0' <<<"$features"; then
  skip "--tmpdir-fallback made without a tmpfs" "no Landlock here"
else
  run "$L" "${W[@]}" --namespace off --tmpdir "$shared" --tmpdir-fallback "$shared/fb" -- sh -c 'echo "$TMPDIR"; touch "$TMPDIR/mine" && echo ok; touch "$(dirname "$TMPDIR")/other" 2>/dev/null || echo denied'
  [ "$rc" -eq 0 ] && [ "$out" = "$(printf '%s\nok\ndenied' "$shared/fb")" ] && [ -e "$shared/fb/mine" ] && [ ! -e "$shared/other" ]
  report $? "without a tmpfs, --tmpdir-fallback is made and is the only writable TMPDIR" "rc=$rc" "$out" "$err"
  run "$L" "${W[@]}" --namespace off --tmpdir "$shared" --tmpdir-fallback "$shared/fb" -- true
  expect "an existing --tmpdir-fallback is refused" 125 '' "^sluice-launch: private-tmpdir: making '$shared/fb': File exists"
  rm -rf "$shared/fb"
fi
ns=$(sed -n 's/.*"namespace":"\([a-z]*\)".*/\1/p' <<<"$features")
if [ "$ns" = unavailable ]; then
  skip "--tmpdir-fallback unused with the private /tmp" "no mount namespace here"
else
  # a name of this test's own, not to be confused with anybody's in the host's /tmp
  mine="sluice-test-mine-$$-$(basename "$TEST_TMP")"
  run "$L" "${W[@]}" --tmpdir "$shared" --tmpdir-fallback "$shared/fb" -- sh -c 'echo "$TMPDIR"; touch "$TMPDIR/$1" && echo ok' sh "$mine"
  [ "$rc" -eq 0 ] && [ "$out" = "$(printf '/tmp\nok')" ] && [ ! -e "$shared/fb" ] && [ -z "$(ls -A "$shared")" ] &&
    [ ! -e "/tmp/$mine" ]
  report $? "with the private /tmp, TMPDIR is /tmp, --tmpdir stays empty and --tmpdir-fallback is not made" "rc=$rc" "$out" "$err"
fi

run "$L" --frobnicate -- true
expect "an unknown option is refused" 125 '' "^sluice-launch: options: unknown option '--frobnicate'"
run "$L"
expect "no program is refused" 125 '' '^sluice-launch: options: no program given'
run "$L" --profile lax -- true
expect "an unknown profile is refused" 125 '' "^sluice-launch: options: --profile: unknown profile 'lax'"
run "$L" --rlimit stack=1 -- true
expect "an unknown rlimit is refused" 125 '' "unknown limit 'stack'"
run "$L" --rlimit as=lots -- true
expect "a bad rlimit value is refused" 125 '' "bad value 'lots' for as"
run "$L" --report-fd 2 -- true
expect "--report-fd cannot be stderr" 125 '' 'stdin, stdout or stderr'
run "$L" "${W[@]}" --report-fd 9 -- true
expect "a report descriptor that is not open fails the close-fds step" 125 '' \
  '^sluice-launch: close-fds: report descriptor 9: Bad file descriptor$'
run "$L" "${W[@]}" --rw "$TEST_TMP/missing" -- true
# the mounts step sees it first where a namespace can be had
expect "a missing --rw path fails the mounts or landlock step" 125 '' \
  "^sluice-launch: (mounts: the writable path|landlock: opening) '$TEST_TMP/missing': No such file or directory$"
run "$L" "${W[@]}" --die-with-parent 1 -- touch "$TEST_TMP/orphan-ran"
# the monitor checks it (launcher/monitor.h), or, without one, step die-with-parent
expect "--die-with-parent refuses a parent that is not PID" 125 '' \
  '^sluice-launch: (monitor|die-with-parent): the parent 1 is gone: No such process$'
[ ! -e "$TEST_TMP/orphan-ran" ]
report $? "--die-with-parent: with the parent not PID, nothing runs"
run sh -c '"$0" --workspace "$1" --die-with-parent $$ -- echo with-its-parent; :' "$L" "$TEST_TMP"
expect "--die-with-parent PID, PID the parent: the program runs" 0 '^with-its-parent$'
run "$L" "${W[@]}" --chdir "$TEST_TMP/missing" -- true
expect "a missing --chdir fails the chdir step" 125 '' "^sluice-launch: chdir: '$TEST_TMP/missing'"
run "$L" "${W[@]}" --user no-such-user-here -- true
expect "an unknown --user fails the privileges step" 125 '' \
  "^sluice-launch: privileges: unknown user 'no-such-user-here'"

# --command-fd: the sandbox is built first, then "DIR\0COMMAND\0" arrives and
# COMMAND becomes the program's last argument.
mkdir -p "$TEST_TMP/cmd-dir"
run "$L" "${W[@]}" --chdir "$TEST_TMP" --command-fd 5 -- /bin/bash -c \
  5< <(printf '\0%s\0' 'echo "ran in $PWD"; [ -e /proc/self/fd/5 ] && echo fd5-open || echo fd5-closed')
expect "--command-fd: the command arrives on the descriptor" 0 "^ran in $TEST_TMP\$"
grep -qx fd5-closed <<<"$out"
report $? "--command-fd: the program does not inherit the command descriptor" "$out"
run "$L" "${W[@]}" --chdir "$TEST_TMP" --command-fd 5 -- /bin/bash -c \
  5< <(printf '%s\0%s\0' "$TEST_TMP/cmd-dir" 'pwd')
expect "--command-fd: the directory sent replaces --chdir" 0 "^$TEST_TMP/cmd-dir\$"
run "$L" "${W[@]}" --command-fd 5 -- touch "$TEST_TMP/withdrawn" 5</dev/null
if [ "$rc" -eq 125 ] && [ ! -e "$TEST_TMP/withdrawn" ] &&
  grep -q "^sluice-launch: command: nothing arrived on descriptor 5: the caller withdrew" <<<"$err"; then
  ok "--command-fd: end of file before any byte runs nothing (exit 125)"
else
  not_ok "--command-fd: end of file before any byte runs nothing" "status $rc" "$err"
fi
# A caller that dies while it writes leaves a message without its final
# NUL: a prefix of the command must not run.
run "$L" "${W[@]}" --command-fd 5 -- /bin/bash -c \
  5< <(printf '%s\0%s' "$TEST_TMP" 'echo first; touch cut-ran; echo second')
if [ "$rc" -eq 125 ] && [ -z "$out" ] && [ ! -e "$TEST_TMP/cut-ran" ] &&
  grep -q "^sluice-launch: command: the command is incomplete: the caller withdrew or died while sending it" <<<"$err"; then
  ok "--command-fd: a message cut before its final NUL runs nothing (exit 125)"
else
  not_ok "--command-fd: a message cut before its final NUL runs nothing" "status $rc" "$out" "$err"
fi
run "$L" "${W[@]}" --command-fd 5 -- /bin/echo 5< <(printf 'cut-in-the-directory')
expect "--command-fd: a message cut in the directory is refused" 125 '' \
  '^sluice-launch: command: the command is incomplete'
run "$L" "${W[@]}" --command-fd 5 -- /bin/echo 5< <(printf '%s\0' "$TEST_TMP")
expect "--command-fd: a message cut after the directory is refused" 125 '' \
  '^sluice-launch: command: the command is incomplete'
run "$L" "${W[@]}" --command-fd 5 -- /bin/echo 5< <(head -c 140000 /dev/zero | tr '\0' x)
expect "--command-fd: a directory longer than any message is refused" 125 '' \
  '^sluice-launch: command: no NUL byte after the directory'
run "$L" "${W[@]}" --command-fd 5 -- /bin/echo 5< <(printf '\0a\0b\0')
expect "--command-fd: a NUL byte in the command is refused" 125 '' \
  '^sluice-launch: command: the command holds a NUL byte'
run "$L" "${W[@]}" --command-fd 5 -- /bin/echo 5< <(printf '\0'; head -c 131072 /dev/zero | tr '\0' x; printf '\0')
expect "--command-fd: a command longer than one argument can be is refused" 125 '' \
  '^sluice-launch: command: the command is longer than 131071 bytes'
run "$L" "${W[@]}" --command-fd 5 -- /bin/echo 5< <(printf '\0'; head -c 131071 /dev/zero | tr '\0' x; printf '\0')
[ "$rc" -eq 0 ] && [ "${#out}" -eq 131071 ]
report $? "--command-fd: a command of exactly 131071 bytes runs" "status $rc, ${#out} bytes" "$err"
run "$L" --report-fd 5 --command-fd 5 -- true
expect "--command-fd and --report-fd must differ" 125 '' 'name the same descriptor'
run "$L" "${W[@]}" --command-fd 9 -- true
expect "a command descriptor that is not open fails the close-fds step" 125 '' \
  '^sluice-launch: close-fds: command descriptor 9: Bad file descriptor$'
# --spec-fd N alone: the options, an empty word and the program's
# environment arrive on the descriptor instead (the broker starts the
# launcher before it has read its configuration).
spec() { # spec OPTION... ::env NAME=VALUE...: the message, NUL-separated
  local w
  for w in "$@"; do
    if [ "$w" = ::env ]; then printf '\0'; else printf '%s\0' "$w"; fi
  done
}
run env OUTER_ONLY=1 "$L" --spec-fd 5 5< <(spec --profile restricted "${W[@]}" --chdir "$TEST_TMP" \
  -- /bin/bash -c 'echo "in $PWD"; env | grep -v "^_=\|^PWD=\|^SHLVL=" | sort' ::env \
  INNER=two PATH=/usr/bin:/bin)
expect "--spec-fd: the options arrive on the descriptor" 0 "^in $TEST_TMP\$"
env_seen=$(grep -v '^in ' <<<"$out" | tr '\n' ' ')
[ "$env_seen" = "INNER=two PATH=/usr/bin:/bin TMPDIR=${TMPDIR:-/tmp} " ] ||
  [ "$env_seen" = "INNER=two PATH=/usr/bin:/bin " ]
report $? "--spec-fd: the program's environment is the one sent, not the launcher's own" \
  "seen: $env_seen"
run "$L" --spec-fd 5 5< <(spec "${W[@]}" --command-fd 6 -- /bin/bash -c ::env PATH=/usr/bin:/bin) \
  6< <(printf '\0%s\0' 'echo command-after-spec')
expect "--spec-fd: the command still arrives on --command-fd" 0 '^command-after-spec$'
run "$L" --spec-fd 5 5</dev/null
expect "--spec-fd: end of file before any byte runs nothing (exit 125)" 125 '' \
  '^sluice-launch: options: --spec-fd: nothing arrived on descriptor 5: the caller withdrew'
run "$L" --spec-fd 5 5< <(spec "${W[@]}" -- touch "$TEST_TMP/spec-cut" ::env PATH=/bin | head -c -1)
[ "$rc" -eq 125 ] && [ ! -e "$TEST_TMP/spec-cut" ] && grep -q 'ended mid-word' <<<"$err"
report $? "--spec-fd: a message cut before its final NUL runs nothing" "status $rc" "$err"
run "$L" --spec-fd 5 5< <(printf '%s\0' "${W[@]}" touch "$TEST_TMP/spec-no-end")
[ "$rc" -eq 125 ] && [ ! -e "$TEST_TMP/spec-no-end" ] &&
  grep -q 'no empty word after the options' <<<"$err"
report $? "--spec-fd: options without the empty word after them are refused" "status $rc" "$err"
run "$L" --spec-fd 5 5< <(spec "${W[@]}" -- /bin/true ::env PATH=/bin NOT-AN-ASSIGNMENT)
expect "--spec-fd: an environment entry without '=' is refused" 125 '' \
  'an environment entry that is not NAME=VALUE'
run "$L" --spec-fd 5 5< <(spec "${W[@]}" -- /bin/true ::env PATH=/bin; printf '\0X=1\0')
expect "--spec-fd: an empty word in the environment is refused" 125 '' \
  'an empty word in the environment'
run "$L" --spec-fd 5 5< <(spec --profile lax -- /bin/true ::env PATH=/bin)
expect "--spec-fd: the options read are checked as on the command line" 125 '' \
  "^sluice-launch: options: --profile: unknown profile 'lax'"
run "$L" --spec-fd 5 5< <(spec --spec-fd 5 -- /bin/true ::env)
expect "--spec-fd: not among the options it sends" 125 '' 'only alone: sluice-launch --spec-fd N'
# --namespace-ahead, first and alone: the namespaces are entered as soon as
# it arrives, before the options (the broker sends it once it knows the
# mode, then prepares the rest).
namespace=$("$L" --print-features | sed -n 's/.*"namespace":"\([a-z]*\)".*/\1/p')
run "$L" --spec-fd 5 5< <(printf '%s\0' --namespace-ahead; spec --profile unrestricted -- \
  touch "$TEST_TMP/ahead-unrestricted" ::env PATH=/usr/bin:/bin)
[ "$rc" -eq 125 ] && [ ! -e "$TEST_TMP/ahead-unrestricted" ] &&
  grep -q '^sluice-launch: namespaces: the namespaces were entered ahead (--namespace-ahead), but the options plan none' <<<"$err"
report $? "--spec-fd: --namespace-ahead with options that plan no namespace runs nothing" \
  "status $rc" "$err"
run "$L" --spec-fd 5 5< <(printf '%s\0' --namespace-ahead; spec "${W[@]}" --namespace off -- \
  touch "$TEST_TMP/ahead-off" ::env PATH=/usr/bin:/bin)
[ "$rc" -eq 125 ] && [ ! -e "$TEST_TMP/ahead-off" ] && grep -q 'entered ahead' <<<"$err"
report $? "--spec-fd: --namespace-ahead with --namespace off runs nothing" "status $rc" "$err"
run "$L" --spec-fd 5 5< <(printf '%s\0' --namespace-ahead)
expect "--spec-fd: --namespace-ahead and then end of file runs nothing (exit 125)" 125 '' \
  '^sluice-launch: options: --spec-fd: no options arrived on descriptor 5 after --namespace-ahead: the caller withdrew'
for action in --version --help --print-features; do
  run "$L" --spec-fd 5 5< <(printf '%s\0' --namespace-ahead; spec "$action" ::env PATH=/bin)
  expect "--spec-fd: --namespace-ahead before $action (no program) is refused" 125 '' \
    '^sluice-launch: options: --namespace-ahead came before options that run nothing'
done
run "$L" --spec-fd 5 5< <(spec "${W[@]}" --namespace-ahead -- /bin/true ::env PATH=/bin)
expect "--spec-fd: --namespace-ahead anywhere but first is not an option" 125 '' \
  "^sluice-launch: options: unknown option '--namespace-ahead'"
run "$L" --namespace-ahead "${W[@]}" -- /bin/true
expect "--namespace-ahead is not an option of the command line" 125 '' \
  "^sluice-launch: options: unknown option '--namespace-ahead'"
if [ "$namespace" = privileged ] || [ "$namespace" = user ]; then
  # Sent alone, then nothing for a while: the launcher is in a mount
  # namespace of its own before the options arrive, and the program runs
  # in that one.
  mkfifo "$TEST_TMP/ahead.fifo"
  "$L" --spec-fd 5 5<"$TEST_TMP/ahead.fifo" >"$TEST_TMP/ahead.out" 2>"$TEST_TMP/ahead.err" &
  pid=$!
  exec {ahead_w}>"$TEST_TMP/ahead.fifo"
  printf '%s\0' --namespace-ahead >&"$ahead_w"
  outer=$(readlink /proc/self/ns/mnt) waiting=''
  for _ in $(seq 200); do
    waiting=$(readlink "/proc/$pid/ns/mnt" 2>/dev/null)
    [ -n "$waiting" ] && [ "$waiting" != "$outer" ] && break
    sleep 0.01
  done
  spec --profile restricted "${W[@]}" --chdir "$TEST_TMP" -- /bin/sh -c 'readlink /proc/self/ns/mnt' \
    ::env PATH=/usr/bin:/bin >&"$ahead_w"
  exec {ahead_w}>&-
  wait "$pid" && rc=0 || rc=$?
  inner=$(cat "$TEST_TMP/ahead.out")
  [ "$rc" -eq 0 ] && [ "$waiting" != "$outer" ] && [ "$inner" = "$waiting" ]
  report $? "--spec-fd: --namespace-ahead enters the namespaces before the options arrive ($namespace)" \
    "status $rc" "outside: $outer" "while waiting: $waiting" "the program's: $inner" \
    "$(cat "$TEST_TMP/ahead.err")"
  # The word may arrive in pieces; options that merely start like it
  # (--namespace off first) are options.
  run "$L" --spec-fd 5 5< <(printf -- '--namesp'; sleep 0.2; printf -- 'ace-ahead\0'; sleep 0.2
    spec --profile restricted "${W[@]}" -- /bin/sh -c 'readlink /proc/self/ns/mnt' ::env PATH=/usr/bin:/bin)
  [ "$rc" -eq 0 ] && [ -n "$out" ] && [ "$out" != "$outer" ]
  report $? "--spec-fd: --namespace-ahead sent in two pieces is still the word" "status $rc" \
    "outside: $outer" "the program's: $out" "$err"
  run "$L" --spec-fd 5 5< <(spec --namespace off --profile restricted "${W[@]}" -- /bin/sh -c \
    'readlink /proc/self/ns/mnt' ::env PATH=/usr/bin:/bin)
  [ "$rc" -eq 0 ] && [ "$out" = "$outer" ]
  report $? "--spec-fd: options that start with --namespace are not the word" "status $rc" \
    "outside: $outer" "the program's: $out" "$err"
  run "$L" --spec-fd 5 5< <(printf '%s\0' --namespace-ahead; spec --profile workspace-write \
    "${W[@]}" --report-fd 6 -- /bin/true ::env PATH=/usr/bin:/bin) 6>"$TEST_TMP/ahead.report"
  grep -q '"enforced":\[[^]]*"mount-namespace"[^]]*"ipc-namespace"' "$TEST_TMP/ahead.report"
  report $? "--spec-fd: --namespace-ahead: the report names the namespaces enforced" \
    "status $rc" "$(cat "$TEST_TMP/ahead.report")" "$err"
else
  skip "--spec-fd: --namespace-ahead enters the namespaces before the options arrive" \
    "no mount namespace here (--print-features: ${namespace:-?})"
  skip "--spec-fd: --namespace-ahead: the report names the namespaces enforced" \
    "no mount namespace here (--print-features: ${namespace:-?})"
  skip "--spec-fd: --namespace-ahead sent in two pieces is still the word" \
    "no mount namespace here (--print-features: ${namespace:-?})"
  skip "--spec-fd: options that start with --namespace are not the word" \
    "no mount namespace here (--print-features: ${namespace:-?})"
fi
run "$L" --spec-fd 5 "${W[@]}" -- true
expect "--spec-fd: only alone on the command line" 125 '' 'only alone: sluice-launch --spec-fd N'
run "$L" --spec-fd 5 5< <(spec --profile unrestricted ::env; head -c $((8 * 1024 * 1024)) /dev/zero | tr '\0' a)
expect "--spec-fd: more than 8 MiB is refused, saying so" 125 '' \
  '^sluice-launch: options: --spec-fd: more than 8388608 bytes on descriptor 5$'
run "$L" --spec-fd 9
expect "--spec-fd: a descriptor that is not open is named" 125 '' \
  '^sluice-launch: options: --spec-fd: reading descriptor 9: Bad file descriptor$'
run "$L" --spec-fd 1
expect "--spec-fd: not stdin, stdout or stderr" 125 '' "bad descriptor '1'"

# While it waits, the launcher already holds its sandbox: no new privileges
# and the seccomp filter, in a session of its own. With a monitor
# (launcher/monitor.h) the sandbox is its child's: the process that waits.
mkfifo "$TEST_TMP/cmd-fifo"
"$L" --profile restricted "${W[@]}" --command-fd 5 -- /bin/bash -c \
  5<"$TEST_TMP/cmd-fifo" >"$TEST_TMP/waited.out" 2>&1 &
waiter=$!
exec 6>"$TEST_TMP/cmd-fifo"
status=
for _ in $(seq 1 500); do
  inner=$(cat "/proc/$waiter/task/$waiter/children" 2>/dev/null)
  status=$(cat "/proc/${inner%% *}/status" "/proc/$waiter/status" 2>/dev/null)
  grep -q '^NoNewPrivs:.1' <<<"$status" && grep -q '^Seccomp:.2' <<<"$status" && break
  read -r -t 0.01 <> <(:) || true
done
sid=$(ps -o sid= -p "$waiter" 2>/dev/null | tr -d ' ')
printf '\0echo after-wait\0' >&6
exec 6>&-
wait "$waiter" && rc=0 || rc=$?
grep -q '^NoNewPrivs:.1' <<<"$status" && grep -q '^Seccomp:.2' <<<"$status" &&
  [ "$sid" = "$waiter" ] && [ "$rc" -eq 0 ] && grep -qx after-wait "$TEST_TMP/waited.out"
report $? "--command-fd: the sandbox is in place before the command arrives" "status $rc, sid $sid" \
    "$(grep -E 'NoNewPrivs|Seccomp' <<<"$status")" "$(cat "$TEST_TMP/waited.out")"

# The report: one JSON line, then end of file once exec succeeds; the
# descriptor is close-on-exec, so the program does not see it.
run "$L" "${W[@]}" --report-fd 3 -- "$PROBE" fds 3>"$TEST_TMP/report"
expect "the report descriptor is closed at exec" 0 '^fds 0 1 2$'
report=$(cat "$TEST_TMP/report")
[ "$(wc -l <"$TEST_TMP/report")" -eq 1 ] &&
  jq -e '.profile == "restricted" and (.landlock_abi | type == "number") and
         (.enforced | index("close-fds")) and (.missing | type == "array")' \
    <<<"$report" >/dev/null
report $? "--report-fd writes one JSON line" "report: $report"
# steps_us: each step's wall time, by name, in the order of the step
# table (step "report" writes it, so it is not in it). Sent a second after
# the launcher was started, the command shows in step "command" (the wait),
# and nowhere else: at least half of that second is left once a loaded
# machine has started the launcher (300 ms were not: 70 ms of the wait were
# left at load 14), and the other steps take far less.
want='["features","session","close-fds","namespaces","egress-audit","monitor","mounts","overlays","proc","private-tmpdir","rlimits","privileges","die-with-parent","landlock","seccomp","command","chdir","tmpdir","git-excludes","egress-env","address-space"]'
( "$L" "${W[@]}" --report-fd 3 --command-fd 5 -- true 3>"$TEST_TMP/report-steps" \
    5< <(sleep 1; printf '%s\0true\0' "$TEST_TMP") ) && rc=0 || rc=$?
steps=$(jq -c .steps_us "$TEST_TMP/report-steps" 2>/dev/null)
[ "$rc" -eq 0 ] &&
  jq -e --argjson want "$want" 'keys_unsorted == $want and all(.[]; type == "number" and . >= 0)
         and .command >= 500000 and ([to_entries[] | select(.key != "command") | .value] | add) < 500000' \
    <<<"$steps" >/dev/null
report $? "--report-fd: steps_us times each step in order, the command's wait in step command" \
  "status $rc" "steps_us: $steps"
run "$L" "${W[@]}" --report-fd 3 -- "$TEST_TMP/no-such-program" 3>"$TEST_TMP/report2"
expect "a failed exec exits 125" 125 '' "^sluice-launch: exec: '$TEST_TMP/no-such-program': No such file or directory$"
[ "$(wc -l <"$TEST_TMP/report2")" -eq 2 ] &&
  tail -1 "$TEST_TMP/report2" | jq -e '.error == "exec" and .errno == 2 and (.message | length > 0)' >/dev/null
report $? "a failed exec adds an error line to the report" "report: $(cat "$TEST_TMP/report2")"

# --end-fd: with a PID namespace the monitor writes the program's wait
# status there (4 bytes) once every process of the run is gone, its
# stdout and stderr closed first, so that the caller can take the run as
# over before the launcher's own exit; the program never has it; without
# a PID namespace nothing is written (the caller waits for the exit).
run "$L" --end-fd 5 --report-fd 5 -- true
expect "--end-fd and --report-fd must differ" 125 '' 'name the same descriptor'
end_word() { od -An -tu4 "$1" | tr -d ' '; }
if [ "$ns" = unavailable ]; then
  skip "--end-fd: the program's status once the namespace is empty" "no PID namespace here"
else
  run "$L" "${W[@]}" --end-fd 3 -- sh -c '"$1" fds; exit 7' sh "$PROBE" 3>"$TEST_TMP/end"
  [ "$rc" -eq 7 ] && [ "$(stat -c %s "$TEST_TMP/end")" -eq 4 ] &&
    [ "$(end_word "$TEST_TMP/end")" -eq $((7 << 8)) ] && [ "$out" = "fds 0 1 2" ]
  report $? "--end-fd: the exit status as a wait status, and the program does not have it"     "rc=$rc" "word: $(end_word "$TEST_TMP/end")" "fds: $out"
  run "$L" "${W[@]}" --end-fd 3 -- sh -c 'kill -TERM $$' 3>"$TEST_TMP/end"
  [ "$rc" -eq 143 ] && [ "$(end_word "$TEST_TMP/end")" -eq 15 ]
  report $? "--end-fd: a signal as a wait status" "rc=$rc" "word: $(end_word "$TEST_TMP/end")"
  # --wait-all: a process left running is still the run's: the word comes
  # only after it has ended
  python3 - "$L" "$TEST_TMP" <<'PY' >"$TEST_TMP/order" 2>&1 && rc=0 || rc=$?
import os, subprocess, sys, time
launch, tmp = sys.argv[1], sys.argv[2]
end_r, end_w = os.pipe()
t0 = time.monotonic()
p = subprocess.Popen([launch, "--workspace", tmp, "--wait-all", "--end-fd", str(end_w), "--",
                      "sh", "-c", "(sleep 0.3; echo late) & echo early"],
                     stdout=subprocess.PIPE, pass_fds=(end_w,))
os.close(end_w)
word = os.read(end_r, 8)
waited = time.monotonic() - t0 >= 0.3  # not before the sleep's end
out = p.stdout.read()
print(len(word), int.from_bytes(word[:4], sys.byteorder) if len(word) >= 4 else -1,
      out.decode().split(), waited, p.wait())
PY
  [ "$rc" -eq 0 ] && [ "$(cat "$TEST_TMP/order")" = "4 0 ['early', 'late'] True 0" ]
  report $? "--end-fd: written once the last process of the namespace is gone"     "$(cat "$TEST_TMP/order")"
  run "$L" "${W[@]}" --namespace off --end-fd 3 -- sh -c 'exit 7' 3>"$TEST_TMP/end"
  [ "$rc" -eq 7 ] && [ ! -s "$TEST_TMP/end" ]
  report $? "--end-fd: nothing without a PID namespace" "rc=$rc" "$(od -An -tx1 "$TEST_TMP/end")"
fi

# Step mounts makes every mount read-only while the monitor, beside it,
# lists folders for the Landlock rules; a listing that updates a folder's
# atime holds the mount's write access for a moment, and the kernel then
# answers EBUSY. mounts-busy answers EBUSY to the first N such calls: a
# few are tried through, and one that stays busy fails the run, named,
# after a bounded wait.
BUSY=$SLUICE_BUILDDIR/tests/launcher/mounts-busy
if [ "$ns" = unavailable ]; then
  skip "mounts: a mount busy for a moment is tried again" "no mount namespace here"
else
  run "$BUSY" 0 "$L" "${W[@]}" --profile workspace-write -- sh -c 'echo in >"$1/busy-in"; cat "$1/busy-in"' sh "$TEST_TMP"
  [ "$rc" -eq 0 ] && [ "$out" = in ] && grep -qx 'mounts-busy: 0 answered EBUSY' <<<"$err"
  report $? "mounts-busy 0 changes nothing (the control)" "rc=$rc" "$out" "$err"
  run "$BUSY" 3 "$L" "${W[@]}" --profile workspace-write --report-fd 3 -- \
    sh -c 'echo in >"$1/busy-in"; echo out >/busy-out 2>/dev/null || echo denied' sh "$TEST_TMP" 3>"$TEST_TMP/report-busy"
  [ "$rc" -eq 0 ] && [ "$out" = denied ] && grep -qx 'mounts-busy: 3 answered EBUSY' <<<"$err" &&
    jq -e '.enforced | index("mount-namespace")' "$TEST_TMP/report-busy" >/dev/null
  report $? "mounts: a mount busy for a moment is tried again, and everything is read-only" \
    "rc=$rc" "$out" "$err" "$(cat "$TEST_TMP/report-busy")"
  t0=$(date +%s%N)
  run "$BUSY" 1000000000 "$L" "${W[@]}" --profile workspace-write -- sh -c 'echo ran'
  ms=$((($(date +%s%N) - t0) / 1000000))
  [ "$rc" -eq 125 ] && [ -z "$out" ] && [ "$ms" -lt 20000 ] &&
    grep -qxE 'sluice-launch: mounts: making everything read-only: (Device or r|R)esource busy' <<<"$err"
  report $? "mounts: a mount that stays busy fails the run, named, after a bounded wait (half a second)" \
    "rc=$rc ms=$ms" "$out" "$err"
fi

run "$L" --print-features
features=$out
abi=$(jq -r .landlock_abi <<<"$features" 2>/dev/null)
if [ "$rc" -ne 0 ] || ! jq -e '.profiles | has("restricted") and has("workspace-write") and has("unrestricted")' \
  <<<"$features" >/dev/null; then
  not_ok "--print-features prints JSON for each profile" "$features"
else
  ok "--print-features prints JSON for each profile (Landlock ABI $abi)"
fi
# What --print-features promises is what a run reports as enforced.
run "$L" "${W[@]}" --report-fd 3 -- true 3>"$TEST_TMP/report3"
[ "$(jq -c .enforced "$TEST_TMP/report3")" = "$(jq -c .profiles.restricted.enforced <<<"$features")" ]
report $? "a restricted run enforces what --print-features lists" "run: $(cat "$TEST_TMP/report3")" "features: $features"
if [ "${abi:-0}" -ge 6 ]; then
  if jq -e '.profiles.restricted.missing == []' <<<"$features" >/dev/null; then
    ok "Landlock ABI $abi: nothing is missing from the restricted profile"
  else
    not_ok "Landlock ABI $abi: nothing is missing" "$features"
  fi
else
  skip "Landlock ABI >= 6: nothing missing" "Landlock ABI here is ${abi:-none}"
fi

if [ "$(id -u)" -eq 0 ]; then
  run "$L" "${W[@]}" --rlimit nproc=100 --best-effort --report-fd 3 -- true 3>"$TEST_TMP/report4"
  if [ "$rc" -eq 0 ] && jq -e '.missing == ["rlimit-nproc"]' "$TEST_TMP/report4" >/dev/null; then
    ok "as root, --best-effort runs and reports rlimit-nproc missing"
  else
    not_ok "as root, --best-effort reports rlimit-nproc missing" "status $rc: $(cat "$TEST_TMP/report4")" "$err"
  fi
else
  run "$L" "${W[@]}" --rlimit nproc=1000 --report-fd 3 -- true 3>"$TEST_TMP/report4"
  [ "$rc" -eq 0 ] && jq -e '(.enforced | index("rlimit-nproc")) and .missing == []' "$TEST_TMP/report4" >/dev/null
  report $? "as uid $(id -u), nproc is enforced" "status $rc: $(cat "$TEST_TMP/report4")" "$err"
  run "$L" "${W[@]}" --user root -- true
  expect "as an ordinary user, --user root is refused" 125 '' "^sluice-launch: privileges: only root can run as user 'root'"
  me=$(id -un)
  run "$L" "${W[@]}" --user "$me" --user-ids "$(($(id -u) + 1)):$(id -g)" -- true
  expect "as an ordinary user, --user-ids naming another uid is refused" 125 '' \
    "^sluice-launch: privileges: only root can run as user '$me'"
fi

# --user-ids: the ids are used as given, never looked up (a uid with no
# entry in the user database), groups included. Root only: an ordinary user
# may only name itself.
if [ "$(id -u)" -eq 0 ]; then
  uid=4242
  while getent passwd "$uid" >/dev/null; do uid=$((uid + 1)); done
  run "$L" "${W[@]}" --profile unrestricted --user nobody --user-ids "$uid:4343:5,6" -- \
    sh -c 'echo "$(id -u) $(id -g) $(id -G)"'
  expect "as root, --user-ids are used as given, groups too, without a lookup" 0 "^$uid 4343 4343 5 6\$" ''
fi

run "$L" "${W[@]}" --profile unrestricted --report-fd 3 -- true 3>"$TEST_TMP/report5"
if jq -e '.enforced == ["session","close-fds","no-new-privs","no-capabilities"]' "$TEST_TMP/report5" >/dev/null; then
  ok "unrestricted: session, descriptors, no_new_privs and capabilities only"
else
  not_ok "unrestricted reports its protections" "$(cat "$TEST_TMP/report5")"
fi
run "$L" "${W[@]}" --network allow --report-fd 3 -- "$PROBE" tcp6-socket 3>"$TEST_TMP/report6"
if [ "$out" = OK ] && ! grep -q 'seccomp-sockets\|landlock-tcp' "$TEST_TMP/report6"; then
  ok "--network allow lifts the socket filter and the TCP rules"
else
  not_ok "--network allow" "probe: $out" "$(cat "$TEST_TMP/report6")"
fi

# Every capability set is empty after the privileges step, as root (all of
# them held before) and as an ordinary user (none held).
run "$L" "${W[@]}" -- grep '^Cap' /proc/self/status
caps=$(awk '{ print $2 }' <<<"$out" | sort -u)
if [ "$rc" -eq 0 ] && [ "$caps" = 0000000000000000 ] && [ "$(wc -l <<<"$out")" -eq 5 ] ||
  { [ "$(id -u)" -ne 0 ] && [ "$rc" -eq 0 ] && grep -q '^CapEff:.0000000000000000' <<<"$out"; }; then
  ok "no capability is left (uid $(id -u))"
else
  not_ok "no capability is left" "status $rc" "$out"
fi
if [ "$(id -u)" -eq 0 ] && command -v capsh >/dev/null; then
  run capsh --caps="cap_net_raw,cap_setpcap+eip" --addamb=cap_net_raw -- -c \
    "grep '^CapAmb' /proc/self/status; exec \"\$0\" --workspace /tmp -- grep '^Cap' /proc/self/status" "$L"
  [ "$rc" -eq 0 ] && grep -q '^CapAmb:.0000000000002000' <<<"$out" &&
    [ "$(grep -c ':.0000000000000000$' <<<"$out")" -eq 5 ]
  report $? "ambient and bounding sets held before are emptied" "status $rc" "$out" "$err"
elif [ "$(id -u)" -eq 0 ]; then
  skip "ambient and bounding sets held before are emptied" "capsh (libcap2-bin) is missing"
fi
# A bounding set that cannot be emptied refuses the run: EINVAL from a
# drop is taken for the end of the set only past CAP_AUDIT_READ and when the
# kernel does not know the capability either (a seccomp profile that
# refuses the drop lets the read be).
REFUSED=$SLUICE_BUILDDIR/tests/launcher/capbset-refused
run "$REFUSED" "$L" "${W[@]}" -- touch "$TEST_TMP/capbset-ran"
if [ "$(id -u)" -eq 0 ] || [ "$namespace" = user ]; then
  [ "$rc" -eq 125 ] && [ ! -e "$TEST_TMP/capbset-ran" ] &&
    grep -q '^sluice-launch: privileges: dropping capability 20 from the bounding set' <<<"$err"
  report $? "a bounding-set drop refused with EINVAL runs nothing (uid $(id -u), namespace ${namespace:-?})" \
    "status $rc" "$err"
else
  skip "a bounding-set drop refused with EINVAL runs nothing" \
    "uid $(id -u) holds no capability to drop, here not even in a user namespace"
fi
