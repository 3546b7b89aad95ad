#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every protection of workspace-write attacked for real through `sluice
# run`, and checked from outside as a user would: git run afterwards,
# outside the sandbox, must not run anything the command planted (a hook,
# core.fsmonitor, core.hooksPath, a replaced .git, a commondir, a rewritten
# hooksPath folder or worktree .git file); files outside keep their mode,
# times, xattrs, ACLs and flags; message queues and System V IPC stay
# apart; hidden secrets stay unreadable; TMPDIR stops at its cap; sluice's
# own configuration stays as it was. Each attack runs first with
# --sandbox unrestricted and must work there (attack_check in
# tests/lib.sh: the positive control), then with workspace-write. Then,
# inside a child user namespace where user namespaces are forbidden, the
# Landlock-only fallback: what it still holds, and that it names what it
# lacks.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# the commands must meet the home, repositories and files there.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"

PROBE=$SLUICE_BUILDDIR/tests/launcher/probe

# fresh_repo DIR: DIR made again as a new repository, the marks cleared:
# each attack, with and without the sandbox, starts from the same place.
fresh_repo() {
  rm -rf "$marks"/*
  new_repo "$1"
}

# boxed DIR COMMAND [SLUICE-OPTION...]: boxed_as in workspace-write.
boxed() {
  boxed_as workspace-write "$@"
}

# hook_ran DIR MARK: the user's own git, run outside afterwards (git
# status, which runs core.fsmonitor, then a commit, which runs the hooks),
# ran what the command planted: the mark MARK appeared. Git itself failing
# counts as the attack having worked: a repository the command broke
# cannot show that nothing planted would run.
hook_ran() {
  local git_out
  if ! git_out=$(cd "$1" && git status 2>&1 && git commit -q --allow-empty -m outside 2>&1); then
    echo "# the user's git failed in $1: $git_out"
    return 0
  fi
  [ -e "$marks/$2" ]
}

# attack NAME DIR COMMAND EFFECT [SETUP] [SLUICE-OPTION...]: attack_check
# with COMMAND run through sluice run in DIR, --sandbox unrestricted for
# the positive control, workspace-write for the attack.
attack() {
  local name=$1 dir=$2 command=$3 effect=$4 setup=${5:-}
  shift 5
  attack_opts=("$@")
  attack_check "$name" 'boxed_as unrestricted "$dir" "$command" "${attack_opts[@]}"' \
    'boxed_as workspace-write "$dir" "$command" "${attack_opts[@]}"' "$effect" "$setup"
}

# evil NAME: a program that leaves the mark NAME, as a hook or fsmonitor.
evil() {
  printf '#!/bin/sh\ntouch "%s/%s"\n' "$marks" "$1" >"$TEST_TMP/evil-$1"
  chmod +x "$TEST_TMP/evil-$1"
  echo "$TEST_TMP/evil-$1"
}

repo=$TEST_TMP/repo

# --- the repository's hooks and config
attack "a hook planted in .git/hooks does not run outside" "$repo" \
  "printf '#!/bin/sh\ntouch $marks/hook\n' >.git/hooks/pre-commit; chmod +x .git/hooks/pre-commit" \
  'hook_ran "$repo" hook' 'fresh_repo "$repo"'
attack "core.fsmonitor written to .git/config does not run outside" "$repo" \
  "git config core.fsmonitor '$(evil fsmonitor)'" 'hook_ran "$repo" fsmonitor' 'fresh_repo "$repo"'
mkdir -p "$TEST_TMP/evil-hooks" && cp "$(evil hooks-path)" "$TEST_TMP/evil-hooks/pre-commit"
attack "core.hooksPath written to .git/config does not take effect" "$repo" \
  "git config core.hooksPath $TEST_TMP/evil-hooks" 'hook_ran "$repo" hooks-path' 'fresh_repo "$repo"'
attack "a .git moved away and replaced does not take effect" "$repo" \
  "mv .git .git-old; mkdir -p .git; git init -q; git config core.fsmonitor '$(evil replaced)'" \
  'hook_ran "$repo" replaced' 'fresh_repo "$repo"'
# The repository's data is the command's to damage, like the workspace's
# files; what git would run later is not. (find -delete: the rm_targets
# policy stops rm -rf first.)
doomed=$TEST_TMP/doomed
attack "deleting .git leaves .git, its config and hooks in place" "$doomed" \
  "find .git -delete; mkdir -p .git/hooks; cp $(evil doomed) .git/hooks/pre-commit" \
  '[ "$(git config -f "$doomed/.git/config" core.fsmonitor)" != false ] || [ -e "$doomed/.git/hooks/pre-commit" ]' \
  'fresh_repo "$doomed" && git -C "$doomed" config core.fsmonitor false'
evil_repo=$TEST_TMP/evil-repo
new_repo "$evil_repo"
git -C "$evil_repo" config core.fsmonitor "$(evil commondir)"
attack "a commondir pointing at another repository does not take effect" "$repo" \
  "echo '$evil_repo/.git' >.git/commondir" 'hook_ran "$repo" commondir' 'fresh_repo "$repo"'
attack "the hooks folder cannot be replaced" "$repo" \
  "rm -rf .git/hooks; mkdir .git/hooks && cp $(evil hooks-folder) .git/hooks/post-commit" \
  'hook_ran "$repo" hooks-folder' 'fresh_repo "$repo"'

# core.hooksPath inside the worktree (as husky sets it): the folder is
# read-only, whether it existed or not.
husky=$TEST_TMP/husky
# fresh_husky HOOKS-PATH: a repository whose core.hooksPath is HOOKS-PATH,
# with a harmless .husky/pre-commit.
fresh_husky() {
  fresh_repo "$husky"
  mkdir -p "$husky/.husky"
  printf '#!/bin/sh\nexit 0\n' >"$husky/.husky/pre-commit"
  chmod +x "$husky/.husky/pre-commit"
  git -C "$husky" config core.hooksPath "$1"
}
attack "a core.hooksPath folder in the worktree cannot be rewritten" "$husky" \
  "cp $(evil husky) .husky/pre-commit; cp $TEST_TMP/evil-husky .husky/post-commit" \
  'hook_ran "$husky" husky' 'fresh_husky .husky'
attack "a core.hooksPath folder that did not exist cannot be planted" "$husky" \
  "mkdir -p .hooks-not-yet; cp $(evil husky-new) .hooks-not-yet/pre-commit" \
  'hook_ran "$husky" husky-new' 'fresh_husky .hooks-not-yet'

# A linked worktree: its .git file names the repository. Rewritten to name
# another repository, the user's git there would run that one's fsmonitor.
wt=$TEST_TMP/wt
wt_evil=$TEST_TMP/wt-evil-repo
new_repo "$wt_evil"
git -C "$wt_evil" config core.fsmonitor "$(evil worktree)"
# fresh_worktree: $repo made again, with $wt as a linked worktree of it.
fresh_worktree() {
  rm -rf "$wt" "$TEST_TMP/wt-dotgit"
  fresh_repo "$repo" && git -C "$repo" worktree add -q "$wt" -b wt-branch &&
    cp "$wt/.git" "$TEST_TMP/wt-dotgit"
}
attack "a worktree's .git file cannot be rewritten" "$wt" \
  "echo 'gitdir: $wt_evil/.git' >.git" 'hook_ran "$wt" worktree' fresh_worktree
attack "a worktree's .git file cannot be removed" "$wt" "rm -f .git" \
  '! cmp -s "$wt/.git" "$TEST_TMP/wt-dotgit"' fresh_worktree
attack "a worktree's .git file cannot be moved" "$wt" "mv .git moved" \
  '! cmp -s "$wt/.git" "$TEST_TMP/wt-dotgit"' fresh_worktree
if [ -n "$namespace" ]; then
  fresh_worktree
  boxed "$wt" "echo work >w.txt && git add w.txt && git commit -q -m in-worktree"
  ran "git commit works in a linked worktree" &&
    { [ "$(git -C "$wt" log -1 --format=%s)" = in-worktree ] && ok "git commit works in a linked worktree" ||
      not_ok "git commit works in a linked worktree" "$out"; }
else
  skip "git commit works in a linked worktree" "no mount namespace here: .git's top level is read-only"
fi

# --- files outside the workspace: metadata Landlock has no right for
victim=$HOME/outside.txt
# meta_changed: the victim's mode, times, extended attributes (ACLs among
# them: system.posix_acl_access) or flags are not as fresh_victim left
# them. Python lists the attributes: getfattr may be missing, and an empty
# answer from a missing tool would read as "unchanged".
meta_changed() {
  [ "$(stat -c '%a %Y' "$victim")" != "644 $(date -d 2020-02-02 +%s)" ] ||
    python3 -c 'import os, sys; sys.exit(0 if os.listxattr(sys.argv[1]) else 1)' "$victim" ||
    lsattr "$victim" 2>/dev/null | cut -d' ' -f1 | grep -q A
}
fresh_victim() {
  rm -f "$victim"
  echo data >"$victim"
  chmod 644 "$victim"
  touch -d 2020-02-02 "$victim"
}
# meta NAME PROBE-ACTION: the probe's attack on the victim, a file outside
# the workspace.
meta() {
  local name=$1 action=$2
  echo data >"$TEST_TMP/control.txt"
  local control
  control=$("$PROBE" "$action" "$TEST_TMP/control.txt")
  if [ "$control" != OK ]; then
    skip "$name" "this filesystem refuses it even unsandboxed: $control"
    return
  fi
  if [ -n "$namespace" ]; then
    attack "$name" "$HOME/work" "$PROBE $action $victim" meta_changed fresh_victim --timeout 10s
    return
  fi
  # Landlock alone has no right for this: reported, not enforced
  fresh_victim
  boxed "$HOME/work" "$PROBE $action $victim" --timeout 10s
  if [ "$(json_get "$out" '"mount-namespace" in d["sandbox"]["missing"]')" = True ]; then
    ok "$name: not enforced without a namespace, and named missing"
  else
    not_ok "$name: named missing without a namespace" "$out"
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
if [ -z "$namespace" ]; then
  skip "POSIX message queues stay apart" "no IPC namespace here (named missing below)"
else
  attack "POSIX message queues: outside's cannot be removed" "$repo" "$PROBE mq-unlink $mq" \
    '[ "$("$PROBE" mq-unlink "$mq")" = ENOENT ]' \
    '"$PROBE" mq-unlink "$mq" >/dev/null; "$PROBE" mq-create "$mq" >/dev/null'
  "$PROBE" mq-unlink "$mq" >/dev/null
  attack "POSIX message queues: one made inside is gone with the run" "$repo" \
    "$PROBE mq-create $mq-inside" '[ "$("$PROBE" mq-unlink "$mq-inside")" = OK ]' \
    '"$PROBE" mq-unlink "$mq-inside" >/dev/null; true'
fi
# queues: the ids of the System V message queues outside (`ipcs -q -i ID`
# exits 0 for an id that is gone).
queues() { ipcs -q | awk '/^0x/ { print $2 }' | sort; }
if ! command -v ipcmk >/dev/null || ! command -v ipcs >/dev/null; then
  skip "System V IPC stays apart" "ipcmk/ipcs (util-linux) missing"
elif [ -z "$namespace" ]; then
  skip "System V IPC stays apart" "no IPC namespace here (named missing below)"
else
  qid=
  # The queue's id is known only once the setup made it: attack_check
  # itself, so the command is expanded then.
  attack_check "System V IPC: outside's queue cannot be removed" \
    'boxed_as unrestricted "$repo" "ipcrm -q $qid"' 'boxed "$repo" "ipcrm -q $qid"' \
    '! queues | grep -qx "$qid"' \
    '[ -z "$qid" ] || ipcrm -q "$qid" 2>/dev/null; qid=$(ipcmk -Q | grep -o "[0-9]*$")'
  ipcrm -q "$qid" 2>/dev/null
  # left_behind: a queue is there outside that was not before the attack
  # (removed, so the positive control leaves nothing).
  left_behind() {
    local new
    new=$(comm -13 <(printf '%s\n' "$queues_before") <(queues))
    [ -n "$new" ] || return 1
    for q in $new; do ipcrm -q "$q" 2>/dev/null; done
  }
  attack "System V IPC: a queue made inside does not outlive the run" "$repo" 'ipcmk -Q' \
    left_behind 'queues_before=$(queues)'
fi

# --- secrets
mkdir -p "$HOME/.ssh" "$HOME/.aws"
echo "SECRET-KEY-$$" >"$HOME/.ssh/id_test"
echo "SECRET-AWS-$$" >"$HOME/.aws/credentials"
echo "machine example.invalid password SECRET-NETRC-$$" >"$HOME/.netrc"
attack "hidden secrets stay unreadable (~/.ssh, ~/.aws, ~/.netrc)" "$repo" \
  'cat ~/.ssh/id_test ~/.aws/credentials ~/.netrc; ls -la ~/.ssh; grep -r SECRET ~ 2>/dev/null' \
  'grep -q "SECRET-" <<<"$(json_get "$out" "d[\"stdout\"]")"' 'fresh_repo "$repo"'
[ "$(json_get "$out" '"hidden-paths" in d["sandbox"]["enforced"]')" = True ]
report $? "the result names hidden-paths enforced" "$out"

# --- TMPDIR's cap
printf '[sandbox]\ntmpdir_size = 1MiB\n' >"$TEST_TMP/small-tmp.ini"
if [ -z "$namespace" ]; then
  boxed "$repo" 'head -c 4M /dev/zero >"$TMPDIR/big"' --config "$TEST_TMP/small-tmp.ini"
  [ "$(json_get "$out" '"tmpdir-tmpfs" in d["sandbox"]["missing"]')" = True ] &&
    ok "TMPDIR has no cap without a namespace, and says so" ||
    not_ok "TMPDIR's cap named missing without a namespace" "$out"
else
  # Unrestricted has no TMPDIR of its own: the user's, on disk, uncapped.
  attack "TMPDIR stops at its cap" "$repo" \
    't=${TMPDIR:-'"$TEST_TMP"'}; head -c 4M /dev/zero >"$t/big"; stat -c "size=%s" "$t/big"; rm -f "$t/big"' \
    'grep -qx size=4194304 <<<"$(json_get "$out" "d[\"stdout\"]")"' '' --config "$TEST_TMP/small-tmp.ini"
fi

# --- sluice's own configuration, inside the workspace
cfg=$repo/sluice-own.ini
attack "sluice's own configuration stays read-only in the workspace" "$repo" \
  "echo 'network = allow' >>sluice-own.ini; rm -f sluice-own.ini" \
  '[ "$(cat "$cfg" 2>/dev/null)" != "$(printf "[sandbox]\nnetwork = deny")" ]' \
  'fresh_repo "$repo" && printf "[sandbox]\nnetwork = deny\n" >"$cfg"' --config "$cfg"

# --- the fallback: a child user namespace where user namespaces are
# forbidden and nothing holds CAP_SYS_ADMIN. Landlock alone must still keep
# the repository's hooks and config and the secrets, and name what it lacks.
# fallback CMD... (sandbox-lib.sh) runs CMD there.
if ! fallback_works; then
  skip_rest "the fallback without user namespaces" "cannot make a child user namespace here (unshare -U -r, setpriv)"
fi
# fallback_as MODE DIR COMMAND: boxed_as, in the fallback.
fallback_as() {
  local mode=$1 dir=$2 command=$3 kind
  run fallback "$SLUICE" run -C "$dir" --sandbox "$mode" --format json -- "$command"
  kind=$(json_get "$out" '(d["error"] or {}).get("kind", "")' 2>/dev/null) || kind=unparsable
  [ -z "$kind" ]
}
fb=$TEST_TMP/fallback-repo
# fb_attack NAME COMMAND EFFECT [SETUP]: attack_check in the fallback, on
# $fb made afresh (and SETUP after that).
fb_attack() {
  local command=$2
  attack_check "the fallback: $1" 'fallback_as unrestricted "$fb" "$command"' \
    'fallback_as workspace-write "$fb" "$command"' "$3" "fresh_repo \"\$fb\"${4:+ && $4}"
}
fresh_repo "$fb"
fallback_as workspace-write "$fb" true
if ran "the fallback runs"; then
  ok "the fallback runs where user namespaces are forbidden"
  missing=$(json_get "$out" '" ".join(d["sandbox"]["missing"])')
  [[ " $missing " == *" mount-namespace "* && " $missing " == *" ipc-namespace "* && " $missing " == *" tmpdir-tmpfs "* ]] &&
    ok "the fallback names what it lacks: $missing" || not_ok "the fallback names what it lacks" "$out"
  fb_attack "a hook planted in .git/hooks does not run outside" \
    "printf '#!/bin/sh\ntouch $marks/fb-hook\n' >.git/hooks/pre-commit; chmod +x .git/hooks/pre-commit" \
    'hook_ran "$fb" fb-hook'
  fb_attack "core.fsmonitor written to .git/config does not run outside" \
    "git config core.fsmonitor '$(evil fb-fsmonitor)'" 'hook_ran "$fb" fb-fsmonitor'
  fb_attack ".git cannot be moved away" "mv .git .git-old" '[ -e "$fb/.git-old" ]'
  fb_attack "a commondir pointing at another repository does not take effect" \
    "echo '$evil_repo/.git' >.git/commondir" 'hook_ran "$fb" commondir'
  fb_attack "Landlock hides the secrets" 'cat ~/.ssh/id_test ~/.aws/credentials ~/.netrc' \
    'grep -q SECRET- <<<"$(json_get "$out" "d[\"output\"]")"'
  [ "$(json_get "$out" '"hidden-paths" in d["sandbox"]["enforced"]')" = True ]
  report $? "the fallback names hidden-paths enforced" "$out"
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
fb_attack "a core.hooksPath folder in the workspace stays read-only" \
  "cp $(evil fb-hooks-path) tools/hooks/pre-commit; echo edit >tools/other.txt" \
  'hook_ran "$fb" fb-hooks-path' \
  'mkdir -p "$fb/tools/hooks" && echo old >"$fb/tools/other.txt" && git -C "$fb" config core.hooksPath tools/hooks'
[ "$(cat "$fb/tools/other.txt")" = edit ]
report $? "the fallback keeps a core.hooksPath folder's neighbours writable" "$out"
fresh_repo "$fb"
run fallback "$SLUICE" run -C "$fb" --sandbox workspace-write -- 'echo x >top.txt && git add top.txt'
if [ "$rc" -ne 0 ] && grep -q '^\[sandbox: this system allows no private mount namespace' <<<"$out" &&
  grep -q 'user.max_user_namespaces' <<<"$out"; then
  ok "the fallback tells the model why a git write failed and what an administrator can do"
else
  not_ok "the fallback tells the model why a git write failed" "rc=$rc" "$out"
fi
