#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The folders the launcher makes for the missing folder entries of
# [sandbox] protect (.claude/, .vscode/ ...: a mount needs a name to
# cover), broker/run/protect-folders.c: a run leaves none of them in the
# user's work tree, and none is taken away while another run of the
# workspace still covers it. The attack: while one run (or background
# job) of the workspace waits, another one ends; had its end removed the
# empty .claude that the first run's read-only bind covers, the kernel
# would have detached that bind, and the waiting command could make
# .claude/settings.json, which the user's agent reads on its next start.
# The positive control removes the folder from outside, as such an end
# would, and the plant must then work. Checked from outside. Most runs
# here have [sandbox] protect_folders_idle = 0 (removed as each run ends);
# the last part checks the default's wait: runs in a row keep the same
# folders, which go once the workspace has been idle that long.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the protected folders"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"

# The folder entries of the default protect list, from the one table that
# holds it (a folder entry ends in "/" and has no wildcard).
folders=$(sed -n 's/^[[:space:]]*X("\([^"*?[]*\)\/", .*/\1/p' "$SLUICE_SRCDIR/broker/core/run-settings.h" |
  grep -v /)
if [ -z "$folders" ]; then
  not_ok "the default protect list has folder entries" "$SLUICE_SRCDIR/broker/core/run-settings.h"
  exit
fi
n_folders=$(wc -l <<<"$folders")

# the folders removed as each run ends
now=$TEST_TMP/now.ini
printf '[sandbox]\nprotect_folders_idle = 0\n' >"$now"

# left_in DIR: what of DIR's top level is not the repository's own (.git,
# README), one name a line.
left_in() { ls -A "$1" | grep -vx '.git\|README\|.ready\|.go' || true; }

hook='{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch /tmp/x"}]}]}}'
# The waiting command: it saw .claude (the launcher made it), says it is
# ready, waits for .go, then tries to fill .claude as a planting command
# would; the outcome of its write is in .claude-tried's absence or not.
waiter='test -d .claude || exit 3; touch .ready; while [ ! -e .go ]; do sleep 0.1; done; '
waiter+="mkdir -p .claude 2>/dev/null; echo '$hook' >.claude/settings.json"

# --- one run: the folders are there for the command, read-only, and gone after
repo=$TEST_TMP/one
new_repo "$repo"
check='n=0; for d in '$(tr '\n' ' ' <<<"$folders")'; do test -d "$d" || exit 3; touch "$d/x" 2>/dev/null && exit 4; n=$((n+1)); done; echo "folders=$n"'
run "$SLUICE" run -C "$repo" --config "$now" -- "$check"
grep -qx "folders=$n_folders" <<<"$out"
report $? "the command finds the $n_folders protected folders made, and cannot write in them" "$out" "$err"
[ -z "$(left_in "$repo")" ]
report $? "the run leaves none of the folders it made in the work tree" "$(left_in "$repo")"
run "$SLUICE" run -C "$repo" --config "$now" -- "$check"
[ -z "$(left_in "$repo")" ] && grep -qx "folders=$n_folders" <<<"$out"
report $? "the next run makes them again, and leaves none" "$(left_in "$repo")" "$out"

# --- the user's own folders stay: an empty one, and one with a file
repo=$TEST_TMP/own
new_repo "$repo"
mkdir "$repo/.vscode" "$repo/.claude"
echo '{}' >"$repo/.claude/settings.json"
run "$SLUICE" run -C "$repo" --config "$now" -- true
[ "$(left_in "$repo" | sort | tr '\n' ' ')" = ".claude .vscode " ] && [ -f "$repo/.claude/settings.json" ]
report $? "the user's own empty .vscode and .claude with settings stay" "$(left_in "$repo")"

# --- a folder the launcher made that the user filled while the run lasted stays
repo=$TEST_TMP/filled
new_repo "$repo"
waiting_run "$TEST_TMP/filled.json" 'touch .ready; while [ ! -e .go ]; do sleep 0.1; done' --config "$now"
echo '{"editor":1}' >"$repo/.vscode/settings.json" 2>/dev/null
touch "$repo/.go"
wait "$boxed_pid"
[ "$(left_in "$repo")" = ".vscode" ] && grep -q editor "$repo/.vscode/settings.json"
report $? "a made folder the user filled while the run lasted stays, with the user's file" "$(left_in "$repo")"

# --- the attack: another run ends while a command waits to fill .claude
# control: the folder removed from outside while the command waits (what
# an end that did not wait for the other runs would do)
repo=$TEST_TMP/control
new_repo "$repo"
if waiting_run "$TEST_TMP/control.json" "$waiter" --config "$now"; then
  rmdir "$repo/.claude"
  touch "$repo/.go"
  wait "$boxed_pid"
  grep -qs SessionStart "$repo/.claude/settings.json"
  report $? "a folder taken away while a run covers it lets the command plant .claude/settings.json (positive control)" \
    "$(cat "$TEST_TMP/control.json")"
else
  not_ok "the waiting command started (positive control)" "$(cat "$TEST_TMP/control.json")"
fi
# shipped: another run of the workspace ends meanwhile, then a background
# job starts and ends too
for other in foreground background; do
  repo=$TEST_TMP/other-$other
  new_repo "$repo"
  if ! waiting_run "$TEST_TMP/waiter-$other.json" "$waiter" --config "$now"; then
    not_ok "the waiting command started ($other)" "$(cat "$TEST_TMP/waiter-$other.json")"
    continue
  fi
  if [ $other = foreground ]; then
    run "$SLUICE" run -C "$repo" --config "$now" -- true
  else
    run "$SLUICE" run -C "$repo" --config "$now" --mode background -- true
    job_out=$(sed -n 's/^\[output: \([^ ]*\) .*/\1/p' <<<"$out")
    wait_for 20 grep -q '^\[sluice: job' "$job_out"
  fi
  [ -d "$repo/.claude" ]
  report $? "a $other run that ends while another covers the folders leaves them" "$(left_in "$repo")" "$out"
  touch "$repo/.go"
  wait "$boxed_pid"
  ! grep -qs SessionStart "$repo/.claude/settings.json" && [ -z "$(left_in "$repo")" ]
  report $? "the waiting command could not plant .claude/settings.json ($other), and the last run's end removed the folders" \
    "$(left_in "$repo")" "$(cat "$TEST_TMP/waiter-$other.json")"
done

# --- anyone who can read the workspace can lock it (a command of another
# workspace's run, which sees the file system read-only, among them):
# runs are not held up by that, and a tidier still removes nothing a run
# covers (the runs' own lock in sluice's jobs directory, which no sandboxed
# command sees; notes-redteam/50-flock-dos.sh)
repo=$TEST_TMP/locked
new_repo "$repo"
flock -x "$repo" sleep 60 &
locker=$!
wait_for 10 sh -c "! flock -n -s '$repo' true"
run timeout 30 "$SLUICE" run -C "$repo" --config "$now" -- "$check"
[ "$rc" -eq 0 ] && grep -qx "folders=$n_folders" <<<"$out"
report $? "a process holding the workspace folder locked does not stop a run" "rc=$rc" "$out" "$err"
if waiting_run "$TEST_TMP/locked.json" "$waiter" --config "$now"; then
  # the waiting run could not lock the folder; now no one holds it, and
  # another run's end tidies
  # (flock(1) keeps the lock in its child, the sleep)
  pkill -P "$locker" sleep
  wait "$locker" 2>/dev/null
  flock -n -x "$repo" true
  report $? "the workspace folder is let go of" "$(ls -l /proc/locks 2>&1)"
  run "$SLUICE" run -C "$repo" --config "$now" -- true
  [ -d "$repo/.claude" ]
  report $? "with the folder let go, another run's end still removes nothing the waiting run covers" \
    "$(left_in "$repo")" "$out"
  touch "$repo/.go"
  wait "$boxed_pid"
  ! grep -qs SessionStart "$repo/.claude/settings.json" && [ -z "$(left_in "$repo")" ]
  report $? "the waiting command could not plant .claude/settings.json, and the last run's end removed the folders" \
    "$(left_in "$repo")" "$(cat "$TEST_TMP/locked.json")"
else
  not_ok "the waiting command started beside a locked workspace folder" "$(cat "$TEST_TMP/locked.json")"
  pkill -P "$locker" sleep
fi

# --- a run of another jobs directory (another user's, or an agent's
# started without XDG_RUNTIME_DIR) has another runs' lock: the workspace
# folder's lock, which every run holds too, keeps its tidier off the
# folders a run covers (notes-redteam/50-cross-user.sh)
repo=$TEST_TMP/other-jobs
new_repo "$repo"
mkdir -m 0700 "$TEST_TMP/xdg-other"
if waiting_run "$TEST_TMP/other-jobs.json" "$waiter" --config "$now"; then
  XDG_RUNTIME_DIR=$TEST_TMP/xdg-other run "$SLUICE" run -C "$repo" --config "$now" -- true
  [ -d "$repo/.claude" ] && ls "$TEST_TMP/xdg-other/sluice/jobs" | grep -q '^folders-.*\.runs$'
  report $? "a run of another jobs directory that ends while a run covers the folders leaves them" \
    "$(left_in "$repo")" "$(ls "$TEST_TMP/xdg-other/sluice/jobs" 2>&1)" "$out" "$err"
  touch "$repo/.go"
  wait "$boxed_pid"
  ! grep -qs SessionStart "$repo/.claude/settings.json" && [ -z "$(left_in "$repo")" ]
  report $? "the waiting command could not plant .claude/settings.json (another jobs directory)" \
    "$(left_in "$repo")" "$(cat "$TEST_TMP/other-jobs.json")"
else
  not_ok "the waiting command started (another jobs directory)" "$(cat "$TEST_TMP/other-jobs.json")"
fi

# --- a background job covers the folders while it lives; a foreground run
# ending meanwhile leaves them, the job's end removes them
repo=$TEST_TMP/job
new_repo "$repo"
run "$SLUICE" run -C "$repo" --config "$now" --mode background --timeout 60s -- "$waiter"
job_out=$(sed -n 's/^\[output: \([^ ]*\) .*/\1/p' <<<"$out")
if wait_for 30 test -e "$repo/.ready"; then
  run "$SLUICE" run -C "$repo" --config "$now" -- true
  [ -d "$repo/.claude" ]
  report $? "a foreground run that ends while a background job covers the folders leaves them" "$(left_in "$repo")"
  touch "$repo/.go"
  wait_for 20 grep -q '^\[sluice: job' "$job_out"
  wait_for 10 test -z "$(left_in "$repo")"
  ! grep -qs SessionStart "$repo/.claude/settings.json" && [ -z "$(left_in "$repo")" ]
  report $? "the job could not plant .claude/settings.json, and its end removed the folders" "$(left_in "$repo")" \
    "$(cat "$job_out")"
else
  not_ok "the background job started" "$out" "$(cat "$job_out" 2>/dev/null)"
fi

# --- the Landlock-only fallback makes the folders too, and takes them away
if fallback_works; then
  repo=$TEST_TMP/fallback
  new_repo "$repo"
  out=$(fallback "$SLUICE" run -C "$repo" --config "$now" -- "$check" 2>&1)
  grep -qx "folders=$n_folders" <<<"$out" && [ -z "$(left_in "$repo")" ]
  report $? "without namespaces (Landlock alone) the run leaves none of the folders either" "$out" "$(left_in "$repo")"
else
  skip "the Landlock-only fallback" "this system cannot take user namespaces away (unshare -U, setpriv)"
fi


# --- the default: the folders stay while runs follow each other, and go
# once the workspace has been idle [sandbox] protect_folders_idle (3 s
# here); sluice does not wait for that
idle=$TEST_TMP/idle.ini
printf '[sandbox]\nprotect_folders_idle = 3s\n' >"$idle"
repo=$TEST_TMP/idle
new_repo "$repo"
start=$(date +%s%N)
run "$SLUICE" run -C "$repo" --config "$idle" -- "$check"
took_ms=$((($(date +%s%N) - start) / 1000000))
inode=$(stat -c %i "$repo/.claude" 2>/dev/null)
[ -n "$inode" ] && grep -qx "folders=$n_folders" <<<"$out" && [ "$took_ms" -lt 2500 ]
report $? "right after a run the folders are still there, and sluice returned without waiting (${took_ms} ms)" \
  "$(left_in "$repo")" "$out" "$err"
tidier=$(pgrep -f -- "--tidy-protected .* --workspace $repo " | head -1)
[ -n "$tidier" ]
report $? "one tidier waits after sluice has returned" "$(pgrep -a -f -- --tidy-protected)"
run "$SLUICE" run -C "$repo" --config "$idle" -- true
[ "$(stat -c %i "$repo/.claude" 2>/dev/null)" = "$inode" ] &&
  [ "$(pgrep -f -c -- "--tidy-protected .* --workspace $repo ")" = 1 ]
report $? "the next run keeps the same folders, and starts no second tidier" "$(left_in "$repo")"
wait_for 20 test -z "$(left_in "$repo")"
[ -z "$(left_in "$repo")" ] && ! pgrep -f -- "--tidy-protected .* --workspace $repo " >/dev/null
report $? "once the workspace has been idle, the folders are gone and the tidier with them" "$(left_in "$repo")"

# --- the tidier called wrongly says so, and removes nothing
launch=${LAUNCH:-$(dirname "$SLUICE")/sluice-launch}
repo=$TEST_TMP/bad-call
new_repo "$repo"
run "$SLUICE" run -C "$repo" -- true
run "$launch" --tidy-protected "$TEST_TMP/bad.lock" --tidy-after 0 --protect .claude/
[ "$rc" -eq 125 ] && grep -q -- '--tidy-protected needs --workspace DIR, absolute' <<<"$err" && [ -d "$repo/.claude" ]
report $? "--tidy-protected without --workspace is refused, naming what it needs" "rc=$rc" "$err"
run "$launch" --tidy-protected relative.lock --workspace "$repo"
[ "$rc" -eq 125 ] && grep -q "'relative.lock' is not an absolute path" <<<"$err"
report $? "--tidy-protected with a relative lock file is refused, naming it" "rc=$rc" "$err"
