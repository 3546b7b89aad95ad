# SPDX-License-Identifier: MIT
# TAP helpers for the integration scripts: plan-less "ok N - name" lines,
# a closing plan, loud skips, and a failure for a script that stops before
# its end. Sourced, not run.
# Not for: unit tests (Criterion does those).
set -u

: "${SLUICE:?run through make check, which sets SLUICE}"
: "${SLUICE_LAUNCH:?run through make check, which sets SLUICE_LAUNCH}"

# The broker ignores SLUICE_SYSCONFDIR when a configuration is installed in
# the sysconfdir it was built with; the tests would then run with that one.
if [ -n "${SLUICE_BUILD_SYSCONFDIR:-}" ] && { [ -e "$SLUICE_BUILD_SYSCONFDIR/sluice/sluice.ini" ] ||
  [ -e "$SLUICE_BUILD_SYSCONFDIR/sluice/policies.d" ]; }; then
  echo "Bail out! an installed configuration in $SLUICE_BUILD_SYSCONFDIR/sluice overrides" \
    "the test configuration; configure with another --sysconfdir"
  exit 1
fi

tap_count=0
tap_stopped_early=
tap_last= # "skip" when the last line was a skip

# The plan is printed at exit, counted from the checks that ran: a script
# that stopped early with status 0 would drop the checks after it and
# still pass. So an explicit `exit` of the script itself (not of a
# subshell) with status 0 is a failure, unless it came through skip_rest or
# right after a skip line, either of which says what was left out and why;
# falling off the end is the normal way out. A non-zero exit fails on its
# status already.
exit() {
  local status=${1:-$?}
  if [ "$BASH_SUBSHELL" -eq 0 ] && [ "$status" -eq 0 ] && [ -z "$tap_stopped_early" ] &&
    [ "$tap_last" != skip ]; then
    tap_stopped_early="exit 0 at line ${BASH_LINENO[0]} of ${BASH_SOURCE[1]:-the script}"
  fi
  builtin exit "$status"
}

# skip_rest NAME REASON: the rest of the script cannot run here (a missing
# tool or kernel feature): one skip line naming it, and the end.
skip_rest() {
  skip "$1" "$2"
  tap_stopped_early=skip_rest
  builtin exit 0
}

tap_end() {
  rm -rf "$TEST_TMP"
  if [ -n "$tap_stopped_early" ] && [ "$tap_stopped_early" != skip_rest ]; then
    not_ok "the script ran to its end" "it stopped early ($tap_stopped_early): the checks" \
      "after it were dropped; end with skip_rest NAME REASON if that is meant"
  fi
  echo "1..$tap_count"
}

# A private scratch directory per script, removed at exit.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/sluice-test.XXXXXX")
trap tap_end EXIT
# The scripts run there: sluice's default workspace is the current directory,
# and the build tree holds the tests' configuration directories, which the
# built-in default mode (workspace-write) refuses as a workspace.
cd "$TEST_TMP" || exit 1

ok() {
  tap_count=$((tap_count + 1)) tap_last=ok
  echo "ok $tap_count - $1"
}

not_ok() {
  tap_count=$((tap_count + 1)) tap_last=not_ok
  echo "not ok $tap_count - $1"
  shift
  # local: a failure must not change a variable of the test's own
  local line
  for line in "$@"; do echo "# $line"; done
}

# ci_run: this is a CI run (CI=true, as CI services set it, or
# SLUICE_TESTS_STRICT, as .ci/run sets it), where a golden file must be
# compared, never rewritten.
ci_run() {
  [ "${CI:-}" = true ] || [ -n "${SLUICE_TESTS_STRICT:-}" ]
}

skip() {
  tap_count=$((tap_count + 1)) tap_last=skip
  if [ -n "${SLUICE_TESTS_STRICT:-}" ]; then
    echo "not ok $tap_count - $1 # strict mode: would skip: $2"
  else
    echo "ok $tap_count - $1 # SKIP $2"
  fi
}

# report STATUS NAME [DETAIL...]: "ok NAME" when STATUS (the $? of the
# check just before) is 0, else "not ok NAME" with the details; so that each
# check's description is written once. Pass $? first: the details' own
# command substitutions would change it. Returns STATUS, for a cleanup after
# a failure (`report $? NAME "$out" || kill ...`).
#   [ "$rc" -eq 0 ] && grep -q '^x$' <<<"$out"
#   report $? "x is printed" "rc=$rc" "$(cat "$log")"
report() {
  local status=$1 name=$2
  shift 2
  if [ "$status" -eq 0 ]; then
    ok "$name"
  else
    not_ok "$name" "$@"
  fi
  return "$status"
}

# run CMD...: run it, keeping stdout, stderr and the status in out, err, rc.
run() {
  out=$("$@" 2>"$TEST_TMP/.stderr") && rc=0 || rc=$?
  err=$(cat "$TEST_TMP/.stderr")
}

# expect NAME WANT-STATUS [GREP-PATTERN-ON-STDOUT [GREP-PATTERN-ON-STDERR]]
expect() {
  local name=$1 want=$2 out_pat=${3:-} err_pat=${4:-}
  if [ "$rc" -ne "$want" ]; then
    not_ok "$name" "exit status $rc, wanted $want" "stdout: $out" "stderr: $err"
  elif [ -n "$out_pat" ] && ! grep -qE -- "$out_pat" <<<"$out"; then
    not_ok "$name" "stdout lacks /$out_pat/" "stdout: $out"
  elif [ -n "$err_pat" ] && ! grep -qE -- "$err_pat" <<<"$err"; then
    not_ok "$name" "stderr lacks /$err_pat/" "stderr: $err"
  else
    ok "$name"
  fi
}

# attack_check NAME CONTROL PROTECTED EFFECT [SETUP]: one protection,
# attacked twice. SETUP (bash, optional) makes a fresh fixture before each
# run. CONTROL runs the attack WITHOUT the protection (--sandbox
# unrestricted, --profile unrestricted, plain bash): EFFECT must then hold,
# the positive control that the attack works at all. PROTECTED runs the
# same attack WITH the protection: EFFECT must then not hold. EFFECT checks
# the harm itself (the file written, the mark a planted hook leaves when
# the user's own `git commit` runs it, the process signalled), never only a
# side effect that a broken attack would also give. CONTROL and PROTECTED
# fail (non-zero) only when the attack could not be started at all (the
# broker refused, the launcher failed): an attack stopped because nothing
# ran proves nothing either. All four are bash, evaluated in the caller's
# variables; a check is written once:
#   attack_check "a hook planted in .git/hooks does not run outside" \
#     'boxed_as unrestricted "$r" "$plant"' 'boxed_as workspace-write "$r" "$plant"' \
#     'hook_ran "$r" hook' 'fresh_repo "$r"'
attack_check() {
  local _ac_name=$1 _ac_control=$2 _ac_protected=$3 _ac_effect=$4 _ac_setup=${5:-}
  local _ac_side
  for _ac_side in control protected; do
    if [ -n "$_ac_setup" ] && ! eval "$_ac_setup"; then
      not_ok "$_ac_name" "$_ac_side: the setup failed: $_ac_setup"
      return 1
    fi
    local _ac_cmd=$_ac_control
    [ "$_ac_side" = protected ] && _ac_cmd=$_ac_protected
    if ! eval "$_ac_cmd"; then
      not_ok "$_ac_name" "$_ac_side: the attack could not be started: $_ac_cmd" \
        "stdout: ${out:-}" "stderr: ${err:-}"
      return 1
    fi
    if [ "$_ac_side" = control ] && ! eval "$_ac_effect"; then
      not_ok "$_ac_name" "positive control: without the protection the attack did not work" \
        "(the check proves nothing): $_ac_effect" "stdout: ${out:-}" "stderr: ${err:-}"
      return 1
    fi
    if [ "$_ac_side" = protected ] && eval "$_ac_effect"; then
      not_ok "$_ac_name" "the attack worked through the protection: $_ac_effect" \
        "stdout: ${out:-}" "stderr: ${err:-}"
      return 1
    fi
  done
  ok "$_ac_name (without the protection the attack worked)"
}

# with_tmp_cleanup_lock CMD...: run CMD holding the lock that keeps apart,
# across the test scripts make runs at once, a cleanup that may take an
# abandoned /tmp/sluice-tmp-* directory only minutes old (as root, with a
# short [broker] jobs_max_age) and a check that such a directory is left
# alone. Only root cleans /tmp, so an ordinary user just runs CMD.
with_tmp_cleanup_lock() {
  if [ "$(id -u)" -ne 0 ]; then
    "$@"
    return
  fi
  local fd status
  exec {fd}>>/tmp/sluice-tests-tmp-cleanup.lock
  flock "$fd"
  "$@" && status=0 || status=$?
  exec {fd}>&-
  return "$status"
}

# start_coprocess NAME CMD...: CMD as a coprocess (its descriptors are not
# inherited by later commands): write to its stdin on fd $NAME_in, read its
# stdout on fd $NAME_out; its pid is $NAME_pid. Copied at once from the
# coprocess's own variables, which bash unsets as soon as it reaps the
# process: with set -u, naming them after the process may have exited (a
# `wait "$X_PID"` right after closing its input) can end the script.
start_coprocess() {
  local name=$1
  shift
  coproc COPROCESS { exec "$@"; }
  printf -v "${name}_pid" %s "${COPROCESS_PID:-0}"
  printf -v "${name}_in" %s "${COPROCESS[1]:-}"
  printf -v "${name}_out" %s "${COPROCESS[0]:-}"
}
