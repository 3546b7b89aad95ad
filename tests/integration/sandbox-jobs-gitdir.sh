#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Attacks on the default sandbox through a background job's life (issue
# 30): the sweep of the gitdir runs once a job's last process is gone, but
# a job (a dev server's way to run) lives on, and what it plants in the
# repository acts on the user's own git while it lives:
# - .git/logs/HEAD made a symlink to a file outside: the user's next
#   `git commit` appends its reflog line there (a shell startup file, with
#   text the command chose in a branch name);
# - a nested repository with a core.fsmonitor, added to the index as a
#   gitlink: the user's plain `git status` at the top runs it;
# - a loose objects folder made a symlink to a folder outside: the user's
#   next `git commit` writes its objects there;
# - a core.fsmonitor in the config of a nested repository kept in the work
#   tree (a clone added as a gitlink): the user's `git status` runs it.
# Each attack first as an unrestricted job (the positive control: it
# works, while the job lives), then as a default-mode job, whose
# repository is read-only, and so are its nested repositories' gitdirs:
# nothing happens. The user's git runs outside,
# while the job still waits. Also: the job still writes the workspace, and
# a foreground run's git still commits.
# Its scratch folder lies outside /tmp, as sandbox-redteam42.sh's.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="a background job's plants in the repository"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
if [ -z "$namespace" ]; then
  skip_rest "$sandbox_subject" "no mount namespace here: the fallback keeps .git read-only for every run"
fi

repo=$TEST_TMP/repo
outside=$TEST_TMP/outside
evil=$TEST_TMP/evil-fsmonitor
printf '#!/bin/sh\ntouch "%s/fsmonitor"\n' "$marks" >"$evil"
chmod +x "$evil"

# job MODE COMMAND: COMMAND as a background job in $repo, in MODE ("" for
# the default), which touches $repo/.ready once it has planted and then
# waits; 0 once it is ready (its id in job).
job() {
  local mode=$1 command=$2
  rm -f "$repo/.ready"
  run "$SLUICE" run -C "$repo" ${mode:+--sandbox "$mode"} --mode background --format json \
    --timeout 60s -- "$command; touch .ready; sleep 50"
  job=$(json_get "$out" 'd.get("jobId") or ""' 2>/dev/null) || job=
  [ -n "$job" ] && wait_for 30 test -e "$repo/.ready"
}
# end_job: the job killed, and gone.
end_job() {
  [ -z "${job:-}" ] || "$SLUICE" kill "$job" >/dev/null 2>&1 || true
  job=
}
trap 'end_job; tap_end' EXIT

# attack NAME COMMAND EFFECT [SETUP]: attack_check with COMMAND as an
# unrestricted job (control) and a default-mode one, in $repo made afresh
# (then SETUP); EFFECT is checked (after the user's git) while the job
# waits, and the job is ended after it.
attack() {
  local name=$1 command=$2 effect=$3 setup=${4:-true}
  attack_check "$name" "job unrestricted '$command'" "job '' '$command'" \
    "$effect; _r=\$?; end_job; (exit \$_r)" \
    "end_job; rm -rf \"\$marks\"/* \"\$outside\"; mkdir -p \"\$outside\"; new_repo \"\$repo\" && $setup"
}

# --- .git/logs/HEAD to a file outside; the user's git commit appends there
echo '# the user startup file' >"$outside/rc" 2>/dev/null || true
attack "a background job's symlinked reflog does not make the user's git commit write outside" \
  'ln -sf "'"$outside"'/rc" .git/logs/HEAD' \
  '(cd "$repo" && git commit -q --allow-empty -m outside) && grep -q outside "$outside/rc"' \
  'echo "# the user startup file" >"$outside/rc"'

# --- a nested repository with a core.fsmonitor, as a gitlink of the index
attack "a background job's nested repository does not run its fsmonitor in the user's git status" \
  'git init -q sub && git -C sub commit -q --allow-empty -m sub && git -C sub config core.fsmonitor "'"$evil"'"; git add sub' \
  '(cd "$repo" && git status >/dev/null 2>&1); [ -e "$marks/fsmonitor" ]'

# --- a loose objects folder to a folder outside; the user's commit writes there
attack "a background job's symlinked objects folder does not take the user's new objects outside" \
  'for x in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do for y in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do [ -e .git/objects/$x$y ] || ln -s "'"$outside"'" .git/objects/$x$y; done; done' \
  '(cd "$repo" && echo "$RANDOM" >new.txt && git add new.txt && git commit -q -m outside) && [ -n "$(ls "$outside")" ]'

# --- a nested repository kept in the work tree (a clone added as a
# gitlink, its .git a folder there): a core.fsmonitor in its config runs
# in the user's git status at the top, which enters it
nested_setup='git init -q "$repo/lib" && git -C "$repo/lib" commit -q --allow-empty -m lib && git -C "$repo" add lib && git -C "$repo" commit -q -m lib'
attack "a background job's core.fsmonitor in a nested repository's gitdir does not run in the user's git status" \
  'git -C lib config core.fsmonitor "'"$evil"'"' \
  '(cd "$repo" && git status >/dev/null 2>&1); [ -e "$marks/fsmonitor" ]' "$nested_setup"

# --- what a background job still does, and what it is told
new_repo "$repo"
if job "" 'echo built >out.txt; git commit -q --allow-empty -m job 2>err.txt; echo "commit=$?" >>out.txt'; then
  ok "a default-mode background job starts in a repository"
  [ "$(head -1 "$repo/out.txt")" = built ] && grep -q 'commit=128' "$repo/out.txt" &&
    grep -q 'Read-only file system' "$repo/err.txt"
  report $? "the job writes the workspace, and its git commit fails on the read-only repository" \
    "$(cat "$repo/out.txt" "$repo/err.txt" 2>&1)"
  end_job
else
  not_ok "a default-mode background job starts in a repository" "$out" "$err"
fi
run "$SLUICE" run -C "$repo" -- 'git commit -q --allow-empty -m foreground && echo committed'
[ "$rc" -eq 0 ] && grep -qx committed <<<"$out" && [ "$(git -C "$repo" log -1 --format=%s)" = foreground ]
report $? "a foreground run's git commit still works" "$out" "$err"
run "$SLUICE" run -C "$repo" --mode background -- true
grep -q '^\[the repository.s \.git is read-only for a background job' <<<"$out"
report $? "the job's start says its .git is read-only, and to run git in the foreground" "$out"

# --- a job whose nested repositories' gitdirs cannot all be listed (past
# the sweep's list of 256) is refused, not started with the rest writable
new_repo "$repo"
git init -q --template= "$repo/s" && git -C "$repo/s" commit -q --allow-empty -m s &&
  for i in $(seq -w 1 300); do cp -a "$repo/s" "$repo/sub$i"; done &&
  (cd "$repo" && git add sub* 2>/dev/null && git commit -q -m subs)
run "$SLUICE" run -C "$repo" --mode background --format json -- 'touch job-ran'
sleep 1
[ "$rc" -ne 0 ] && [ ! -e "$repo/job-ran" ] &&
  grep -q "could not all be kept read-only for a background job" <<<"$out$err"
report $? "a job past the list of nested gitdirs kept read-only is refused, and says why" "$out" "$err"
