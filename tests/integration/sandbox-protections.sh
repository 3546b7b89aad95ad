#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every protection of workspace-write attacked for real through `sluice
# run`, and checked from outside as a user would: git run afterwards,
# outside the sandbox, must not run anything the command planted (a hook,
# core.fsmonitor, core.hooksPath, a replaced .git, a commondir, a rewritten
# hooksPath folder or worktree .git file); files outside keep their mode,
# times, xattrs, ACLs and flags; message queues and System V IPC stay
# apart; hidden secrets stay unreadable; TMPDIR stops at its cap; sluice's
# own configuration stays as it was. Then, inside a child user namespace
# where user namespaces are forbidden, the Landlock-only fallback: what it
# still holds, and that it names what it lacks.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

PROBE=$SLUICE_BUILDDIR/tests/launcher/probe
export HOME=$TEST_TMP/home
marks=$TEST_TMP/marks
mkdir -p "$HOME" "$marks"
git config --global user.name "Sluice Test"
git config --global user.email test@example.invalid
git config --global init.defaultBranch main

# new_repo DIR: a repository with one commit.
new_repo() {
  mkdir -p "$1"
  git -C "$1" init -q
  echo one >"$1/README"
  git -C "$1" add README
  git -C "$1" commit -q -m init
}

features=$("$SLUICE_LAUNCH" --print-features 2>/dev/null || true)
if [ -n "$launch_is_fake" ] || ! grep -q '"landlock_abi":[1-9]' <<<"$features"; then
  skip_rest "the protections of workspace-write" "no working launcher or no Landlock here"
fi
namespace=yes
if grep -q '"namespace":"unavailable"' <<<"$features"; then
  namespace=
  echo "# no namespace here (${features#*\"namespace_error\":}): the fallback is what runs"
fi

# boxed DIR COMMAND [SLUICE-OPTION...]: COMMAND through sluice run in
# workspace-write, the JSON result in out.
boxed() {
  local dir=$1 command=$2
  shift 2
  run "$SLUICE" run -C "$dir" --sandbox workspace-write --format json "$@" -- "$command"
}

# ran NAME: the last boxed command ran (whatever its status), or not_ok.
ran() {
  local kind
  kind=$(json_get "$out" '(d["error"] or {}).get("kind", "")' 2>/dev/null) || kind=unparsable
  [ -z "$kind" ] && return 0
  not_ok "$1" "the command did not run: $kind" "$out" "$err"
  return 1
}

# outside_git DIR MARK: git run outside as a user would (status, then a
# commit that runs the hooks); MARK must not appear.
outside_git() {
  (cd "$1" && git status >/dev/null 2>&1 && git commit -q --allow-empty -m outside >/dev/null 2>&1)
  [ ! -e "$marks/$2" ]
}

# held NAME CHECK: after a boxed attack that ran, CHECK (bash) holds.
held() {
  ran "$1" || return 0
  if eval "$2"; then ok "$1"; else not_ok "$1" "check failed: $2" "$out"; fi
}

repo=$TEST_TMP/repo
new_repo "$repo"
evil=$TEST_TMP/evil-hook
printf '#!/bin/sh\ntouch "%s/$1"\n' "$marks" >"$evil"
chmod +x "$evil"

# --- the repository's hooks and config
boxed "$repo" "printf '#!/bin/sh\ntouch $marks/hook\n' >.git/hooks/pre-commit; chmod +x .git/hooks/pre-commit"
held "a hook planted in .git/hooks does not run outside" \
  '[ ! -e "$repo/.git/hooks/pre-commit" ] && outside_git "$repo" hook'
boxed "$repo" "git config core.fsmonitor '$evil fsmonitor'"
held "core.fsmonitor written to .git/config does not run outside" 'outside_git "$repo" fsmonitor'
mkdir -p "$TEST_TMP/evil-hooks" && cp "$evil" "$TEST_TMP/evil-hooks/pre-commit"
boxed "$repo" "git config core.hooksPath $TEST_TMP/evil-hooks"
held "core.hooksPath written to .git/config does not take effect" \
  '! git -C "$repo" config core.hooksPath >/dev/null && outside_git "$repo" pre-commit'
boxed "$repo" "mv .git .git-old; mkdir -p .git; git init -q; git config core.fsmonitor '$evil replaced'"
held "a .git moved away and replaced does not take effect" \
  '[ ! -e "$repo/.git-old" ] && [ "$(git -C "$repo" log -1 --format=%s)" != "" ] && outside_git "$repo" replaced'
# The repository's data is the command's to damage, like the workspace's
# files; what git would run later is not.
new_repo "$TEST_TMP/doomed"
git -C "$TEST_TMP/doomed" config core.fsmonitor false # a setting that must survive
boxed "$TEST_TMP/doomed" "find .git -delete; mkdir -p .git/hooks; cp $evil .git/hooks/pre-commit" # rm -rf: the rm_targets policy stops it first
held "deleting .git leaves .git, its config and hooks in place" \
  '[ "$(git config -f "$TEST_TMP/doomed/.git/config" core.fsmonitor)" = false ] && [ ! -e "$TEST_TMP/doomed/.git/hooks/pre-commit" ]'
new_repo "$TEST_TMP/evil-repo"
git -C "$TEST_TMP/evil-repo" config core.fsmonitor "$evil commondir"
boxed "$repo" "echo '$TEST_TMP/evil-repo/.git' >.git/commondir"
held "a commondir pointing at another repository does not take effect" \
  'outside_git "$repo" commondir'
boxed "$repo" "rm -rf .git/hooks; mkdir .git/hooks && cp $evil .git/hooks/post-commit"
held "the hooks folder cannot be replaced" 'outside_git "$repo" post-commit'

# core.hooksPath inside the worktree (as husky sets it): the folder is
# read-only, whether it existed or not.
husky=$TEST_TMP/husky
new_repo "$husky"
mkdir -p "$husky/.husky"
printf '#!/bin/sh\nexit 0\n' >"$husky/.husky/pre-commit"
chmod +x "$husky/.husky/pre-commit"
git -C "$husky" config core.hooksPath .husky
boxed "$husky" "cp $evil .husky/pre-commit; cp $evil .husky/post-commit"
held "a core.hooksPath folder in the worktree cannot be rewritten" \
  'outside_git "$husky" pre-commit && outside_git "$husky" post-commit'
git -C "$husky" config core.hooksPath .hooks-not-yet
boxed "$husky" "mkdir -p .hooks-not-yet; cp $evil .hooks-not-yet/pre-commit"
held "a core.hooksPath folder that did not exist cannot be planted" \
  'outside_git "$husky" pre-commit'

# A linked worktree: its .git file names the repository.
git -C "$repo" worktree add -q "$TEST_TMP/wt" -b wt-branch
cp "$TEST_TMP/wt/.git" "$TEST_TMP/wt-dotgit"
boxed "$TEST_TMP/wt" "echo 'gitdir: $TEST_TMP/evil-repo/.git' >.git; rm -f .git; mv .git moved"
held "a worktree's .git file cannot be rewritten, removed or moved" \
  'cmp -s "$TEST_TMP/wt/.git" "$TEST_TMP/wt-dotgit" && outside_git "$TEST_TMP/wt" worktree'
boxed "$TEST_TMP/wt" "echo work >w.txt && git add w.txt && git commit -q -m in-worktree"
if [ -n "$namespace" ]; then
  ran "git commit works in a linked worktree" &&
    { [ "$(git -C "$TEST_TMP/wt" log -1 --format=%s)" = in-worktree ] && ok "git commit works in a linked worktree" ||
      not_ok "git commit works in a linked worktree" "$out"; }
fi

# --- files outside the workspace: metadata Landlock has no right for
victim=$HOME/outside.txt
# meta NAME PROBE-ACTION CHECK: the probe's attack on a fresh file outside
# must succeed unsandboxed (the positive control) and fail boxed.
meta() {
  local name=$1 action=$2
  echo data >"$TEST_TMP/control.txt"
  local control
  control=$("$PROBE" "$action" "$TEST_TMP/control.txt")
  if [ "$control" != OK ]; then
    skip "$name" "this filesystem refuses it even unsandboxed: $control"
    return
  fi
  echo data >"$victim"
  chmod 644 "$victim"
  touch -d 2020-02-02 "$victim"
  local before
  before=$(stat -c '%a %Y' "$victim")
  boxed "$HOME/work" "$PROBE $action $victim" --timeout 10s
  local got
  got=$(json_get "$out" 'd["stdout"].strip()')
  if [ -z "$namespace" ]; then
    # Landlock alone has no right for this: reported, not enforced
    if [ "$(json_get "$out" '"mount-namespace" in d["sandbox"]["missing"]')" = True ]; then
      ok "$name: not enforced without a namespace, and named missing ($got)"
    else
      not_ok "$name: named missing without a namespace" "$out"
    fi
  elif [ "$got" = EROFS ] && [ "$(stat -c '%a %Y' "$victim")" = "$before" ] &&
    [ -z "$(getfattr -d -m - "$victim" 2>/dev/null)" ]; then
    ok "$name: EROFS, the file unchanged"
  else
    not_ok "$name" "got '$got'" "$(stat -c '%a %Y' "$victim") vs $before" "$out"
  fi
}
mkdir -p "$HOME/work" # a workspace beside the victim, not containing it
meta "chmod of a file outside" chmod
meta "timestamps of a file outside" utime
meta "a user xattr on a file outside" xattr
meta "a POSIX ACL granting another user a file outside" acl
meta "chattr +A through a read-only descriptor" chattr

# --- IPC
mq=/sluice-test-$$
"$PROBE" mq-create "$mq" >/dev/null
boxed "$repo" "$PROBE mq-unlink $mq; $PROBE mq-create $mq-inside"
if ran "message queues"; then
  inside=$(json_get "$out" 'd["stdout"]')
  outside_left=$("$PROBE" mq-unlink "$mq")
  outside_new=$("$PROBE" mq-unlink "$mq-inside")
  if [ -z "$namespace" ]; then
    skip "POSIX message queues stay apart" "no IPC namespace here (named missing below)"
  elif [ "$outside_left" = OK ] && [ "$outside_new" = ENOENT ] && grep -q '^ENOENT' <<<"$inside"; then
    ok "POSIX message queues stay apart: outside's not seen, inside's gone with the run"
  else
    not_ok "POSIX message queues stay apart" "inside: $inside" "outside: $outside_left / $outside_new"
  fi
fi
if command -v ipcmk >/dev/null && command -v ipcs >/dev/null; then
  qid=$(ipcmk -Q | grep -o '[0-9]*$')
  before=$(ipcs -q | grep -c '^0x')
  boxed "$repo" "ipcrm -q $qid; ipcmk -Q; ipcs -q"
  after=$(ipcs -q | grep -c '^0x')
  ipcs -q -i "$qid" >/dev/null 2>&1 && still=yes || still=no
  ipcrm -q "$qid" 2>/dev/null
  if ! ran "System V message queues"; then
    :
  elif [ -z "$namespace" ]; then
    skip "System V IPC stays apart" "no IPC namespace here (named missing below)"
  elif [ "$still" = yes ] && [ "$after" = "$before" ]; then
    ok "System V IPC stays apart: outside's queue untouched, inside's not left behind"
  else
    not_ok "System V IPC stays apart" "still=$still before=$before after=$after" "$out"
  fi
else
  skip "System V IPC stays apart" "ipcmk/ipcs (util-linux) missing"
fi

# --- secrets
mkdir -p "$HOME/.ssh" "$HOME/.aws"
echo "SECRET-KEY-$$" >"$HOME/.ssh/id_test"
echo "SECRET-AWS-$$" >"$HOME/.aws/credentials"
echo "machine example.invalid password SECRET-NETRC-$$" >"$HOME/.netrc"
boxed "$repo" 'cat ~/.ssh/id_test ~/.aws/credentials ~/.netrc; ls -la ~/.ssh; grep -r SECRET ~ 2>/dev/null'
held "hidden secrets stay unreadable (~/.ssh, ~/.aws, ~/.netrc)" \
  '! grep -q "SECRET-" <<<"$(json_get "$out" "d[\"stdout\"]")" && [ "$(json_get "$out" "\"hidden-paths\" in d[\"sandbox\"][\"enforced\"]")" = True ]'

# --- TMPDIR's cap
printf '[sandbox]\ntmpdir_size = 1MiB\n' >"$TEST_TMP/small-tmp.ini"
boxed "$repo" 'head -c 4M /dev/zero >"$TMPDIR/big"' --config "$TEST_TMP/small-tmp.ini"
if [ -z "$namespace" ]; then
  [ "$(json_get "$out" '"tmpdir-tmpfs" in d["sandbox"]["missing"]')" = True ] &&
    ok "TMPDIR has no cap without a namespace, and says so" ||
    not_ok "TMPDIR's cap named missing without a namespace" "$out"
else
  held "TMPDIR stops at its cap" \
    '[ "$(json_get "$out" "d[\"exitCode\"]")" = 1 ] && grep -q "No space left" <<<"$(json_get "$out" "d[\"output\"]")"'
fi

# --- sluice's own configuration, inside the workspace
cfg=$repo/sluice-own.ini
printf '[sandbox]\nnetwork = deny\n' >"$cfg"
boxed "$repo" "echo 'network = allow' >>sluice-own.ini; rm -f sluice-own.ini" --config "$cfg"
held "sluice's own configuration stays read-only in the workspace" \
  '[ "$(cat "$cfg")" = "$(printf "[sandbox]\nnetwork = deny")" ]'

# --- the fallback: a child user namespace where user namespaces are
# forbidden and nothing holds CAP_SYS_ADMIN. Landlock alone must still keep
# the repository's hooks and config and the secrets, and name what it lacks.
# fallback CMD...: run CMD there.
fallback() {
  unshare -U -r "$BASH" -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec setpriv --bounding-set -all -- "$@"' fallback "$@"
}
if ! command -v setpriv >/dev/null || ! fallback true 2>/dev/null; then
  skip_rest "the fallback without user namespaces" "cannot make a child user namespace here (unshare -U -r, setpriv)"
fi
fb=$TEST_TMP/fallback-repo
new_repo "$fb"
run fallback "$SLUICE" run -C "$fb" --sandbox workspace-write --format json -- \
  "printf '#!/bin/sh\ntouch $marks/fb-hook\n' >.git/hooks/pre-commit; git config core.fsmonitor '$evil fb-fsmonitor'; mv .git .git-old; echo x >.git/commondir; cat ~/.ssh/id_test"
if ran "the fallback runs"; then
  ok "the fallback runs where user namespaces are forbidden"
  missing=$(json_get "$out" '" ".join(d["sandbox"]["missing"])')
  [[ " $missing " == *" mount-namespace "* && " $missing " == *" ipc-namespace "* && " $missing " == *" tmpdir-tmpfs "* ]] &&
    ok "the fallback names what it lacks: $missing" || not_ok "the fallback names what it lacks" "$out"
  [ ! -e "$fb/.git/hooks/pre-commit" ] && [ ! -e "$fb/.git-old" ] && [ ! -e "$fb/.git/commondir" ] &&
    outside_git "$fb" fb-hook && outside_git "$fb" fb-fsmonitor &&
    ok "the fallback keeps the hooks, the config and .git itself" ||
    not_ok "the fallback keeps the hooks, the config and .git itself" "$out"
  ! grep -q SECRET- <<<"$(json_get "$out" 'd["output"]')" &&
    [ "$(json_get "$out" '"hidden-paths" in d["sandbox"]["enforced"]')" = True ] &&
    ok "the fallback hides secrets with Landlock" || not_ok "the fallback hides secrets with Landlock" "$out"
fi
# Without a tmpfs of its own over the shared mount point, the run makes its
# TMPDIR in it (the launcher's --tmpdir-fallback): writable, the point
# around it not, and removed after the run.
run fallback "$SLUICE" run -C "$fb" --sandbox restricted -- 'echo "tmpdir=$TMPDIR"; echo x >"$TMPDIR/f" && cat "$TMPDIR/f"; touch "$(dirname "$TMPDIR")/planted" 2>/dev/null || echo point-denied'
fb_tmp=$(sed -n 's/^tmpdir=//p' <<<"$out")
if [ "$rc" -eq 0 ] && grep -qx x <<<"$out" && grep -qx point-denied <<<"$out" && [ -n "$fb_tmp" ] &&
  [ "$(basename "$(dirname "$fb_tmp")")" = namespace-tmp ] &&
  [ ! -e "$fb_tmp" ] && [ ! -e "$(dirname "$fb_tmp")/planted" ]; then
  ok "the fallback makes the run a TMPDIR of its own, and removes it"
else
  not_ok "the fallback makes the run a TMPDIR of its own, and removes it" "rc=$rc tmp='$fb_tmp'" "$out" "$err"
fi
mkdir -p "$fb/tools/hooks"
echo old >"$fb/tools/other.txt"
git -C "$fb" config core.hooksPath tools/hooks
run fallback "$SLUICE" run -C "$fb" --sandbox workspace-write -- "cp $evil tools/hooks/pre-commit; echo edit >tools/other.txt"
if [ "$(cat "$fb/tools/other.txt")" = edit ] && [ ! -e "$fb/tools/hooks/pre-commit" ] && outside_git "$fb" pre-commit; then
  ok "the fallback keeps a core.hooksPath folder in the workspace read-only, its neighbours writable"
else
  not_ok "the fallback keeps a core.hooksPath folder read-only" "rc=$rc" "$out" "$err"
fi
git -C "$fb" config --unset core.hooksPath
run fallback "$SLUICE" run -C "$fb" --sandbox workspace-write -- 'echo x >top.txt && git add top.txt'
if [ "$rc" -ne 0 ] && grep -q '^\[sandbox: this system allows no private mount namespace' <<<"$out" &&
  grep -q 'user.max_user_namespaces' <<<"$out"; then
  ok "the fallback tells the model why a git write failed and what an administrator can do"
else
  not_ok "the fallback tells the model why a git write failed" "rc=$rc" "$out"
fi
