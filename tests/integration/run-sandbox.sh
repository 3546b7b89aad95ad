#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sandboxed modes through `sluice run --sandbox`: the result's `sandbox`
# says what was enforced, and a failure that looks like a denial gets one
# line saying what the sandbox forbids. Needs Landlock.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

ws="$TEST_TMP/ws"
mkdir -p "$ws"
abi=$("$SLUICE_LAUNCH" --print-features 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["landlock_abi"])' 2>/dev/null || echo 0)

run "$SLUICE" run -C "$ws" -- 'ls /nonexistent-path'
[ "$rc" -ne 0 ] && ! grep -q '^\[sandbox:' <<<"$out"
report $? "unrestricted: no sandbox line" "$out"

if [ "$abi" -lt 1 ]; then
  skip "workspace-write denies writes outside the workspace" "no Landlock (ABI $abi)"
  skip "a denial gets the sandbox line" "no Landlock (ABI $abi)"
  skip_rest "the result says what was enforced" "no Landlock (ABI $abi)"
fi

run "$SLUICE" run -C "$ws" --sandbox workspace-write -- "echo inside > '$ws/f' && cat '$ws/f' && touch /etc/sluice-must-not-exist"
[ "$rc" -eq 1 ] && grep -q '^inside$' <<<"$out" && [ ! -e /etc/sluice-must-not-exist ]
report $? "workspace-write denies writes outside the workspace" "rc=$rc" "$out"
grep -q '^\[sandbox: this looks like a denial by the workspace-write sandbox, which forbids writing outside the workspace' <<<"$out"
report $? "a denial gets the sandbox line" "$out"
# A command that reports the denial and goes on to exit 0 gets it too (one
# stream: two pipes read apart may interleave a line of each).
run "$SLUICE" run -C "$ws" --sandbox workspace-write -- "touch /etc/sluice-must-not-exist 2>&1; echo went on"
[ "$rc" -eq 0 ] && grep -q '^\[sandbox: this looks like a denial by the workspace-write sandbox' <<<"$out" &&
  grep -q '^went on$' <<<"$out"
report $? "a denial in a command that exits 0 gets the sandbox line too" "rc=$rc" "$out"

# A git push to a repository outside the workspace (a local remote): git
# names no errno, only its own words, which the note must know. The remote
# is not under /tmp, which the sandbox replaces with its own.
remotes=$(mktemp -d /var/tmp/sluice-test-push.XXXXXX)
git init -q --bare "$remotes/remote-ok.git" && git init -q --bare "$remotes/remote.git"
mkdir -p "$TEST_TMP/pusher" && git -C "$TEST_TMP/pusher" init -q && echo one >"$TEST_TMP/pusher/README" &&
  git -C "$TEST_TMP/pusher" add README && git -C "$TEST_TMP/pusher" -c user.name=t -c user.email=t@example.org commit -q -m init
run "$SLUICE" run -C "$TEST_TMP/pusher" --sandbox unrestricted -- "git push -q '$remotes/remote-ok.git' HEAD:refs/heads/day"
[ "$rc" -eq 0 ] && git -C "$remotes/remote-ok.git" rev-parse -q --verify refs/heads/day >/dev/null
report $? "control: unrestricted, a push to a repository outside the workspace works" "rc=$rc" "$out"
run "$SLUICE" run -C "$TEST_TMP/pusher" --sandbox workspace-write -- "git push -q '$remotes/remote.git' HEAD:refs/heads/day"
[ "$rc" -ne 0 ] && ! git -C "$remotes/remote.git" rev-parse -q --verify refs/heads/day >/dev/null &&
  grep -q 'unable to create temporary object directory' <<<"$out" &&
  grep -q '^\[sandbox: this looks like a denial by the workspace-write sandbox' <<<"$out"
report $? "workspace-write: the push is refused, and git's 'unable to create temporary object directory' gets the sandbox line" "rc=$rc" "$out"
rm -rf "$remotes"

out=$("$SLUICE" run -C "$ws" --sandbox restricted --format json -- true) && rc=0 || rc=$?
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["sandbox"]["mode"] == "restricted" and "landlock-fs" in d["sandbox"]["enforced"]')" = True ]
report $? "the result says what was enforced" "$out"

# What each step cost: sluice's own (stepsUs) in the order they ran, the
# sweep's two among them in a sandboxed run in a repository, and the
# launcher's (sandbox.steps_us); a command of 2 s shows in step command of
# sluice's, and the rest of sluice's steps take less (a loaded machine took
# 0.9 s to decide: a command of 300 ms did not tell them apart).
git init -q "$ws/repo"
out=$("$SLUICE" run -C "$ws/repo" --sandbox workspace-write --format json -- 'sleep 2') && rc=0 || rc=$?
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'list(d["stepsUs"]) == ["workspace", "decide", "prepare", "sweep-begin", "git-later-begin", "audit-start", "watch-begin", "git-later-nested", "send", "command", "watch-end", "evaluate", "sweep", "git-later", "audit"] and all(isinstance(v, int) and v >= 0 for v in d["stepsUs"].values()) and d["stepsUs"]["command"] >= 2000000 and sum(v for k, v in d["stepsUs"].items() if k != "command") < 2000000 and "mounts" in d["sandbox"]["steps_us"]')" = True ]
report $? "the result times sluice's steps in order (the command's in step command) and the launcher's" \
  "rc=$rc" "$(json_get "$out" 'd.get("stepsUs")')" "$(json_get "$out" 'd["sandbox"].get("steps_us")')"
out=$("$SLUICE" run -C "$ws/repo" --sandbox unrestricted --format json -- true) && rc=0 || rc=$?
[ "$rc" -eq 0 ] && [ "$(json_get "$out" '"command" in d["stepsUs"] and "sweep" not in d["stepsUs"] and "sweep-begin" not in d["stepsUs"]')" = True ]
report $? "an unrestricted run, which has no sweep, times none" "rc=$rc" "$(json_get "$out" 'd.get("stepsUs")')"

# A private TMPDIR: the one place outside the workspace a sandboxed command
# may write, and what the command left there gone when the run is done:
# with the namespace layer, the run's own /tmp (a tmpfs: nothing of it on
# disk); without it ([sandbox] namespace = off), a directory of the run's
# own, removed.
private_tmp=yes
if [ "$("$SLUICE_LAUNCH" --print-features | sed -n 's/.*"namespace":"\([a-z]*\)".*/\1/p')" = unavailable ]; then
  private_tmp=
fi
# tmpdir_emptied DIR: nothing a command left in its TMPDIR DIR is there.
tmpdir_emptied() {
  [ ! -e "$1" ] || { [ -d "$1" ] && [ -z "$(ls -A "$1")" ]; }
}
printf '[sandbox]\nnamespace = off\n' >"$TEST_TMP/namespace-off.ini"
for mode in restricted workspace-write; do
  for layer in namespace off; do
    cfg=()
    [ "$layer" = off ] && cfg=(--config "$TEST_TMP/namespace-off.ini")
    run "$SLUICE" run -C "$ws" --sandbox "$mode" "${cfg[@]}" -- 'f=$(mktemp) && echo scratch >"$f" && cat "$f" && echo "tmpdir=$TMPDIR" && echo "file=$f"'
    tmp=$(sed -n 's/^tmpdir=//p' <<<"$out")
    f=$(sed -n 's/^file=//p' <<<"$out")
    if [ "$layer" = namespace ] && [ -n "$private_tmp" ]; then
      [ "$tmp" = /tmp ] && [ -n "$f" ] && [ ! -e "$f" ]
    else
      [ -n "$tmp" ] && [ "$tmp" != /tmp ] && tmpdir_emptied "$tmp"
    fi
    [ $? -eq 0 ] && [ "$rc" -eq 0 ] && grep -q '^scratch$' <<<"$out"
    report $? "$mode ($layer): mktemp works in a private TMPDIR, emptied after the run" "rc=$rc tmp='$tmp'" "$out" "$err" "$(ls -la "$tmp" 2>&1)"
  done
done
[ "$layer" = off ] && [ -n "$tmp" ] && [ ! -e "$tmp" ]
report $? "without the namespace layer, the run's own TMPDIR is removed" "tmp='$tmp'"

# Two runs at once do not see each other's TMPDIR files; with the
# namespace layer both have the same TMPDIR path, /tmp, each a tmpfs of its
# own there. The file has a name of this test's own, so that what is
# checked in the host's /tmp is not anybody else's file.
mine="sluice-test-mine-$$-$(basename "$TEST_TMP")"
"$SLUICE" run -C "$ws" --sandbox restricted -- 'echo a >"$TMPDIR/'"$mine"'" && sleep 4 && cat "$TMPDIR/'"$mine"'" && echo "$TMPDIR"' >"$TEST_TMP/run-a.out" 2>&1 &
a_pid=$!
sleep 1
run "$SLUICE" run -C "$ws" --sandbox restricted -- 'echo "seen=$(cat "$TMPDIR/'"$mine"'" 2>/dev/null)"; echo b >"$TMPDIR/'"$mine"'" && cat "$TMPDIR/'"$mine"'" && echo "$TMPDIR"'
kill -0 "$a_pid" 2>/dev/null && a_running=yes || a_running=no
wait "$a_pid" && a_rc=0 || a_rc=$?
a_out=$(cat "$TEST_TMP/run-a.out")
a_tmp=$(sed -n 2p <<<"$a_out") b_tmp=$(sed -n 3p <<<"$out")
[ "$a_running" = yes ] && [ "$rc" -eq 0 ] && [ "$(head -2 <<<"$out")" = "$(printf 'seen=\nb')" ] &&
  [ "$a_rc" -eq 0 ] && [ "$(head -1 <<<"$a_out")" = a ] && [ -n "$a_tmp" ] && [ -n "$b_tmp" ]
report $? "two runs at once: neither sees the other's TMPDIR files" "running=$a_running rc=$rc a_rc=$a_rc" "$out" "$a_out"
if [ -z "$private_tmp" ]; then
  skip "two runs at once both have TMPDIR=/tmp" "no mount namespace here"
else
  [ "$a_tmp" = /tmp ] && [ "$b_tmp" = /tmp ] && [ ! -e "/tmp/$mine" ]
  report $? "two runs at once both have TMPDIR=/tmp, each its own, nothing on disk" "a=$a_tmp b=$b_tmp"
fi

# Another run's TMPDIR is not writable from inside the sandbox.
run "$SLUICE" run -C "$ws" --sandbox restricted -- 'echo "tmpdir=$TMPDIR"; touch "$(dirname "$TMPDIR")/planted"'
tmp=$(sed -n 's/^tmpdir=//p' <<<"$out")
[ "$rc" -eq 1 ] && [ -n "$tmp" ] &&
  grep -qE 'Permission denied|Read-only file system' <<<"$out" && [ ! -e "$(dirname "$tmp")/planted" ]
report $? "restricted: the directory around the private TMPDIR stays read-only" "rc=$rc" "$out"

# A background job's TMPDIR lasts until the job ends, then goes.
run "$SLUICE" run -C "$ws" --sandbox restricted --mode background --format json -- "echo \"tmpdir=\$TMPDIR\"; test -d \"\$TMPDIR\" && touch \"\$TMPDIR/bg-$$\" && echo alive"
job=$(json_get "$out" 'd["jobId"]')
file=$(json_get "$out" 'd["outputFile"]')
wait_for 10 grep -q "^\[sluice: job $job completed\]$" "$file"
tmp=$(sed -n 's/^tmpdir=//p' "$file")
# The monitor removes the directory just after it writes the completion line.
if [ -n "$private_tmp" ]; then
  [ "$tmp" = /tmp ] && [ ! -e "/tmp/bg-$$" ]
else
  [ -n "$tmp" ] && wait_for 10 test ! -e "$tmp"
fi
[ $? -eq 0 ] && [ "$rc" -eq 0 ] && grep -q '^alive$' "$file"
report $? "background: the job had its private TMPDIR, removed when it ended" "rc=$rc tmp='$tmp'" "$err" "$(cat "$file")"

# A background job that said "started" and then died on a denial (a dev
# server's "listen EACCES", here a write outside the workspace): its output
# ends with the sandbox note after the completion line; one that failed for
# a reason of its own does not get it.
bg_note() { # COMMAND: the job's output file once it ended, in file
  run "$SLUICE" run -C "$ws" --sandbox workspace-write --mode background --format json -- "$1"
  job=$(json_get "$out" 'd["jobId"]')
  file=$(json_get "$out" 'd["outputFile"]')
  wait_for 10 grep -q "^\[sluice: job $job failed with exit code" "$file"
}
bg_note 'sleep 0.2; echo "listening"; touch /etc/sluice-must-not-exist'
tail -1 "$file" | grep -q '^\[sandbox: this looks like a denial by the workspace-write sandbox' &&
  grep -q "^\[sluice: job $job failed with exit code 1\]$" "$file"
report $? "a background job that died on a denial ends with the sandbox note" "$(cat "$file")"
bg_note 'sleep 0.2; echo "no such target"; exit 3'
! grep -q '^\[sandbox:' "$file" && grep -q "^\[sluice: job $job failed with exit code 3\]$" "$file"
report $? "a background job that failed for its own reason gets no sandbox note" "$(cat "$file")"

# workspace-write and .git: read-only by default (no planted hooks), writable
# when the administrator says so ([sandbox] git_writable).
gws="$TEST_TMP/gws"
mkdir -p "$gws/.git/hooks" "$gws/src"
run "$SLUICE" run -C "$gws" --sandbox workspace-write -- 'echo edit > src/f && echo "#!/bin/sh" > .git/hooks/pre-commit'
[ "$rc" -ne 0 ] && [ -f "$gws/src/f" ] && [ ! -e "$gws/.git/hooks/pre-commit" ]
report $? "workspace-write: the workspace is writable, its .git/hooks is not" "rc=$rc" "$out"
printf '[sandbox]\ngit_writable = yes\n' >"$TEST_TMP/git-writable.ini"
run "$SLUICE" run -C "$gws" --config "$TEST_TMP/git-writable.ini" --sandbox workspace-write -- 'echo "#!/bin/sh" > .git/hooks/pre-commit && touch new-top-level-file'
[ "$rc" -eq 0 ] && [ -e "$gws/.git/hooks/pre-commit" ] && [ -e "$gws/new-top-level-file" ]
report $? "workspace-write with git_writable: .git and the workspace root are writable" "rc=$rc" "$out"

# A profile this kernel cannot enforce as asked is refused as
# sandbox_unavailable, naming what is missing. The kernel ignores
# RLIMIT_NPROC for uid 0, so as root a process limit is such a case; as an
# ordinary user it holds and the command runs.
printf '[sandbox]\nrlimit_nproc = 64\n' >"$TEST_TMP/nproc.ini"
out=$("$SLUICE" run -C "$ws" --config "$TEST_TMP/nproc.ini" --sandbox restricted --format json -- 'echo ran') && rc=0 || rc=$?
if [ "$(id -u)" -eq 0 ]; then
  [ "$rc" -eq 125 ] && [ "$(json_get "$out" 'd["error"]["kind"]')" = sandbox_unavailable ] &&
    grep -q 'rlimit-nproc' <<<"$out"
  report $? "as root, a process limit the kernel ignores is refused as sandbox_unavailable" "rc=$rc" "$out"
else
  [ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["stdout"].strip() + " " + str("rlimit-nproc" in d["sandbox"]["enforced"])')" = "ran True" ]
  report $? "as an ordinary user, the process limit is enforced and the command runs" "rc=$rc" "$out"
fi

# What a command leaves in a TMPDIR of its own (no tmpfs over it: the
# namespace layer off) goes with it, even a directory it made unwritable
# and a symlink pointing out (removed, never followed).
keep="$TEST_TMP/keep-me"
echo precious >"$keep"
run "$SLUICE" run -C "$ws" --sandbox restricted --config "$TEST_TMP/namespace-off.ini" -- "echo \"tmpdir=\$TMPDIR\"; mkdir -p \"\$TMPDIR/a/b\" && touch \"\$TMPDIR/a/b/f\" && ln -s '$keep' \"\$TMPDIR/a/link\" && chmod 0500 \"\$TMPDIR/a\""
tmp=$(sed -n 's/^tmpdir=//p' <<<"$out")
[ "$rc" -eq 0 ] && [ -n "$tmp" ] && [ ! -e "$tmp" ] && [ "$(cat "$keep")" = precious ]
report $? "the private TMPDIR is removed whole, without following a symlink out" "rc=$rc tmp='$tmp'" "$out"

# Directories it made unreadable, one inside another, go too (as an
# ordinary user each must get its mode back before the next is reached).
run "$SLUICE" run -C "$ws" --sandbox restricted --config "$TEST_TMP/namespace-off.ini" -- 'echo "tmpdir=$TMPDIR"; mkdir -p "$TMPDIR/a/b/c" && touch "$TMPDIR/a/b/c/f" && chmod 000 "$TMPDIR/a/b/c" "$TMPDIR/a/b" "$TMPDIR/a"'
tmp=$(sed -n 's/^tmpdir=//p' <<<"$out")
[ "$rc" -eq 0 ] && [ -n "$tmp" ] && [ ! -e "$tmp" ]
report $? "the private TMPDIR is removed whole, with unreadable directories nested in it" "rc=$rc tmp='$tmp'" "$out" "$(ls -laR "$tmp" 2>&1 | head -20)"

# [sandbox] user: as root, commands run as that user; otherwise refused.
# user_refused NAME: the last run was refused, saying only root can do it.
user_refused() {
  [ "$rc" -eq 125 ] && grep -q "only root can run as user 'nobody'" <<<"$out"
  report $? "$1" "rc=$rc" "$out"
}
uws="$TEST_TMP/uws"
mkdir -p "$uws"
chmod 755 "$TEST_TMP" "$uws"
printf '[sandbox]\nuser = nobody\n' >"$TEST_TMP/user.ini"
run "$SLUICE" run -C "$uws" --config "$TEST_TMP/user.ini" -- 'id -u'
if [ "$(id -u)" -eq 0 ]; then
  [ "$rc" -eq 0 ] && [ "$out" = "$(id -u nobody)" ]
  report $? "as root, [sandbox] user runs the command as that user" "rc=$rc" "$out"
else
  user_refused "as an ordinary user, [sandbox] user is refused, saying why"
fi

# The broker looks the user up and hands the launcher its ids (--user-ids),
# so that a launcher whose C library sees fewer user databases (a static
# musl build) never looks the name up itself.
if [ "$(id -u)" -eq 0 ]; then
  # sluice starts the launcher with --spec-fd 5 and an empty environment:
  # its options arrive there, NUL-separated
  printf '#!/bin/sh
if [ "$1" = --spec-fd ]; then
  /bin/cat <&5 >"%s.raw" && /usr/bin/tr "\\000" "\\n" <"%s.raw" >"%s"
  exec "%s" --spec-fd 5 5<"%s.raw"
fi
printf "%%s\\n" "$@" >"%s"
exec "%s" "$@"
' "$TEST_TMP/launch-args" "$TEST_TMP/launch-args" "$TEST_TMP/launch-args" "$SLUICE_LAUNCH" \
    "$TEST_TMP/launch-args" "$TEST_TMP/launch-args" "$SLUICE_LAUNCH" >"$TEST_TMP/logging-launch"
  chmod +x "$TEST_TMP/logging-launch"
  run env SLUICE_LAUNCH="$TEST_TMP/logging-launch" "$SLUICE" run -C "$uws" \
    --config "$TEST_TMP/user.ini" -- 'id -G'
  ids="$(id -u nobody):$(id -g nobody):$(id -G nobody | tr ' ' ,)"
  [ "$rc" -eq 0 ] && grep -qx -- "--user-ids" "$TEST_TMP/launch-args" &&
    grep -qx -- "$ids" "$TEST_TMP/launch-args" && [ "$out" = "$(id -G nobody)" ]
  report $? "as root, [sandbox] user's ids go to the launcher as the broker looked them up" \
      "rc=$rc, want $ids" "$out" "$(cat "$TEST_TMP/launch-args" 2>/dev/null)"
fi

# [sandbox] user with a sandboxed mode: the private TMPDIR is that user's (it
# could not enter root's jobs directory), and it is removed whole after the
# run, unreadable directories and a symlink out included, the symlink's
# target untouched.
chmod 777 "$uws"
# a name of this test's own: with the namespace layer the TMPDIR is the
# private /tmp, and what is checked outside is that this name is not in the
# host's /tmp (a fixed name could be anybody's file there)
sub="sluice-test-tmp-$$-$(basename "$TEST_TMP")"
cmd='id -un; echo "$TMPDIR" > ./tmpname; echo in-tmp > "$TMPDIR/f" && cat "$TMPDIR/f"
mkdir -p "$TMPDIR/'"$sub"'/b"; touch "$TMPDIR/'"$sub"'/b/c"; chmod 000 "$TMPDIR/'"$sub"'"; ln -s "$PWD" "$TMPDIR/out"'
touch "$uws/keep"
run "$SLUICE" run -C "$uws" --config "$TEST_TMP/user.ini" --sandbox workspace-write -- "$cmd"
if [ "$(id -u)" -eq 0 ]; then
  tmp=$(cat "$uws/tmpname" 2>/dev/null)
  # its own /tmp with the namespace layer: nothing of it outside
  [ "$tmp" = /tmp ] && tmp=/tmp/$sub
  [ "$rc" -eq 0 ] && [ "$out" = "$(printf 'nobody\nin-tmp')" ] && [ -n "$tmp" ] && [ ! -e "$tmp" ] &&
    [ -e "$uws/keep" ]
  report $? "as root, [sandbox] user with workspace-write: the command writes its TMPDIR, which is then removed whole" \
      "rc=$rc tmp='$tmp'" "$out" "$(ls -la "$uws" 2>&1)"
  run "$SLUICE" run -C "$uws" --config "$TEST_TMP/user.ini" --sandbox restricted -- \
    'touch "$TMPDIR/f" && echo tmp-ok; touch ./x 2>/dev/null || echo ws-denied'
  [ "$rc" -eq 0 ] && [ "$out" = "$(printf 'tmp-ok\nws-denied')" ]
  report $? "as root, [sandbox] user with restricted: the TMPDIR is writable, the workspace is not" "rc=$rc" "$out"
  # Such a TMPDIR left behind by a killed run goes at the next cleanup
  # (sluice jobs), once old; a young one stays.
  stale=$(mktemp -d /tmp/sluice-tmp-XXXXXX) && young=$(mktemp -d /tmp/sluice-tmp-XXXXXX)
  touch "$stale/left" && chown -R nobody "$stale" "$young" && touch -d '2 days ago' "$stale"
  run "$SLUICE" jobs
  [ "$rc" -eq 0 ] && [ ! -e "$stale" ] && [ -d "$young" ]
  report $? "as root, an old [sandbox] user TMPDIR nothing holds is cleaned up; a young one stays" \
      "rc=$rc" "$(ls -ld "$stale" "$young" 2>&1)"
  rm -rf "$stale" "$young"
else
  user_refused "as an ordinary user, [sandbox] user with a sandboxed mode is refused, saying why"
fi
