#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Nothing planted sends the user's data elsewhere (issue 30): a command run
# through `sluice run` writes a key into the repository's config that makes
# the user's own later `git push` send the commits somewhere the command
# chose (url.*.insteadOf, a remote's pushurl or second url, a branch's push
# remote or remote.pushDefault naming a remote it added, mirror, a legacy
# .git/remotes/origin file). Two local
# bare repositories, origin.git (the user's) and elsewhere.git (the
# command's); after the run the user commits and runs a plain `git push`
# outside, and the test looks from outside at which one received the commit.
# The command gets .git/config through `[sandbox] git_writable = yes` (by
# default the launcher keeps it read-only, and one row plants through the
# window that leaves: the user's own `git config` while a run lasts). Each
# attack runs with `git_sweep = no` (the positive control: the commit lands
# in elsewhere.git), then as shipped (it lands in origin.git, and the
# result, the text and the audit line name the disabled key). Then the
# everyday rows the rule must keep: `git remote add upstream` and a fetch
# of it in the next run, `git push -u origin HEAD`. Needs the namespace
# layer (git_writable's binds, the window's detached bind).
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# the commands must meet the repositories there.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="keys that send the repository elsewhere"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
if [ -z "$namespace" ]; then
  skip_rest "$sandbox_subject" "no mount namespace here: git_writable and the sweep's window need it"
fi
repo=$HOME/proj
remotes=$TEST_TMP/remotes
origin=$remotes/origin.git
elsewhere=$remotes/elsewhere.git
mkdir -p "$remotes"
# the bare repositories are outside the workspace: a push from inside (the
# everyday rows) needs them writable
printf '[sandbox]\ngit_writable = yes\nwritable = %s\n[audit]\nfile = %s\n' \
  "$remotes" "$TEST_TMP/audit.log" >"$TEST_TMP/shipped.ini"
printf '[sandbox]\ngit_writable = yes\nwritable = %s\ngit_sweep = no\n' "$remotes" \
  >"$TEST_TMP/sweep-off.ini"
printf '[sandbox]\ngit_sweep = no\n' >"$TEST_TMP/default-sweep-off.ini"

# fresh: the user's repository with one commit pushed to origin.git (which
# also holds a branch "keep" the user has not fetched), main tracking
# origin; elsewhere.git empty.
fresh() {
  rm -rf "$repo" "$origin" "$elsewhere"
  new_repo "$repo"
  git init -q --bare "$origin"
  git init -q --bare "$elsewhere"
  git -C "$repo" remote add origin "$origin"
  git -C "$repo" push -q -u origin main
  git -C "$repo" push -q origin main:keep
}

# user_push: the user's own commit and plain push, outside the sandbox; the
# commit's name in $commit, the push's status in $prc.
user_push() {
  echo "user's $RANDOM" >>"$repo/README"
  git -C "$repo" commit -q -am "the user's work"
  commit=$(git -C "$repo" rev-parse HEAD)
  (cd "$repo" && timeout 20 git push -q) >"$TEST_TMP/push.out" 2>&1
  prc=$?
}

# has BARE: the user's last commit is in BARE.
has() {
  git -C "$1" cat-file -e "$commit^{commit}" 2>/dev/null
}

# swept_names: the what of the last result's gitSweep items, one line.
swept_names() {
  json_get "$out" '" | ".join(i["what"] for i in (d.get("gitSweep") or {}).get("items", []))' 2>/dev/null
}

# attack NAME PLANT KEY [EFFECT [SHIPPED]]: PLANT through sluice run with
# the repository's config writable; then the user's push. EFFECT (bash,
# outside) holds when the data went where the command chose (default: the
# commit is in elsewhere.git); SHIPPED holds as shipped (default: the
# commit is in origin.git and not in elsewhere.git). KEY is the name the
# sweep reports.
attack() {
  local name=$1 plant=$2 key=$3 effect=${4:-'has "$elsewhere"'}
  local shipped=${5:-'[ "$prc" -eq 0 ] && has "$origin" && ! has "$elsewhere"'}
  fresh
  run "$SLUICE" run -C "$repo" --config "$TEST_TMP/sweep-off.ini" --format json -- "$plant"
  local planted=$rc
  user_push
  if [ "$planted" -eq 0 ] && (eval "$effect"); then
    ok "$name: positive control (no sweep): the user's push went where the command chose"
  else
    not_ok "$name: positive control (no sweep): the user's push went where the command chose" \
      "plant: $planted $out $err" "push: $prc $(cat "$TEST_TMP/push.out")"
  fi

  fresh
  run "$SLUICE" run -C "$repo" --config "$TEST_TMP/shipped.ini" --format json -- "$plant"
  local swept
  swept=$(swept_names)
  user_push
  if [ "$rc" -ne 0 ]; then
    not_ok "$name: stopped by the sweep" "the run failed: $rc $out $err"
  elif (eval "$effect") || ! (eval "$shipped"); then
    not_ok "$name: stopped by the sweep" "the push: $prc $(cat "$TEST_TMP/push.out")" \
      "$out" "$(cat "$repo/.git/config")"
  elif ! grep -qF "$key" <<<"$swept"; then
    not_ok "$name: stopped by the sweep" "gitSweep does not name $key: $swept" "$out"
  elif ! tail -n 1 "$TEST_TMP/audit.log" | grep -q '"swept":[1-9]'; then
    not_ok "$name: stopped by the sweep" "the audit line says nothing" "$(tail -n 1 "$TEST_TMP/audit.log")"
  else
    ok "$name: stopped by the sweep, $key named in the result and the audit line"
  fi
}

attack "url.<elsewhere>.insteadOf origin's URL" \
  "git config url.'$elsewhere'.insteadOf '$origin'" "url.$elsewhere.insteadof"
attack "url.<elsewhere>.pushInsteadOf origin's URL" \
  "git config url.'$elsewhere'.pushInsteadOf '$origin'" "url.$elsewhere.pushinsteadof"
attack "a pushurl for origin (git remote set-url --push)" \
  "git remote set-url --push origin '$elsewhere'" "remote.origin.pushurl"
attack "a second url for origin (push goes to both)" \
  "git config --add remote.origin.url '$elsewhere'" "remote.origin.url"
attack "a remote added and made main's push remote" \
  "git remote add evil '$elsewhere' && git config branch.main.pushRemote evil" \
  "branch.main.pushremote"
attack "a remote added and made remote.pushDefault" \
  "git remote add evil '$elsewhere' && git config remote.pushDefault evil" "remote.pushdefault"
attack "a URL as main's remote" \
  "git config branch.main.remote '$elsewhere'" "branch.main.remote"
# the user's push then deletes origin's branch "keep"
attack "origin made a mirror (appended: sluice's git_push policy refuses the git config)" \
  "printf '[remote \"origin\"]\\n\\tmirror = true\\n' >>.git/config" "remote.origin.mirror" \
  '! git -C "$origin" rev-parse -q --verify refs/heads/keep >/dev/null' \
  '[ "$prc" -eq 0 ] && has "$origin" && git -C "$origin" rev-parse -q --verify refs/heads/keep >/dev/null'
# git rewrites the user's line in place: the new one disabled, the user's
# is put back beside it
attack "origin's url replaced (git remote set-url)" \
  "git remote set-url origin '$elsewhere'" "remote.origin.url" 'has "$elsewhere"' \
  '[ "$prc" -eq 0 ] && has "$origin" && grep -q "#sluice-disabled# url = $elsewhere" "$repo/.git/config"'

# Two runs, each harmless to a sweep that looked at remotes alone: the
# first adds a remote (kept: used where the user names it), the second
# points main at it. The second's key is not the user's choice.
two_steps() {
  local config=$1
  fresh
  run "$SLUICE" run -C "$repo" --config "$config" --format json -- "git remote add up '$elsewhere'"
  first=$out
  run "$SLUICE" run -C "$repo" --config "$config" --format json -- "git config branch.main.remote up"
  user_push
}
two_steps "$TEST_TMP/sweep-off.ini"
has "$elsewhere"
report $? "a remote added in one run and made main's remote in the next: positive control (no sweep)" \
  "$out" "push: $prc $(cat "$TEST_TMP/push.out")"
two_steps "$TEST_TMP/shipped.ini"
[ "$(json_get "$first" 'd["gitSweep"]')" = None ] && [ "$prc" -eq 0 ] && has "$origin" &&
  ! has "$elsewhere" && grep -q branch.main.remote <<<"$(swept_names)" &&
  [ "$(git -C "$repo" config remote.up.url)" = "$elsewhere" ]
report $? "a remote added in one run and made main's remote in the next: the remote stays, the second step is disabled" \
  "first: $first" "$out" "push: $prc $(cat "$TEST_TMP/push.out")"

# --- in the default mode (config read-only): the window the user's own
# git config opens while a run lasts (docs/launcher.md, the threat model)
# The command appends an insteadOf once .git/config takes writes, and counts
# it planted only when the file it wrote is the one at .git/config then.
# The kernel's rename detaches the mounts on the name it replaces before the
# name moves to the new file (vfs_rename(): detach_mounts(), then d_move()):
# an open in that instant finds the user's old file, no longer read-only and
# already unlinked, and what is written there is lost with it (measured:
# about 1 append in 18 under load, links 0; the push then went to origin
# without any sweep). Such a write plants nothing; a command that wants its
# key in the config writes again, as this one does.
plant_insteadof='touch .ready; for i in $(seq 600); do
  if exec 3>>.git/config; then
    printf "[url \"%s\"]\n\tinsteadOf = %s\n" "'"$elsewhere"'" "'"$origin"'" >&3
    if [ /dev/fd/3 -ef .git/config ]; then echo PLANTED; exit 0; fi
    exec 3>&-
  fi 2>/dev/null; sleep 0.05; done; echo NEVER'
window_attack() {
  fresh
  if ! waiting_run "$TEST_TMP/window.json" "$plant_insteadof" "$@"; then
    kill "$boxed_pid" 2>/dev/null
    wait "$boxed_pid" 2>/dev/null
    out="the command never started: $(cat "$TEST_TMP/window.json")"
    return 1
  fi
  git -C "$repo" config user.name "The User"
  wait "$boxed_pid"
  out=$(cat "$TEST_TMP/window.json")
  user_push
}
window_attack --config "$TEST_TMP/default-sweep-off.ini" && grep -q PLANTED <<<"$out" && has "$elsewhere"
report $? "default mode: an insteadOf appended once the user's git config replaced .git/config sends the push elsewhere (positive control: git_sweep = no)" \
  "$out" "push: $prc $(cat "$TEST_TMP/push.out")" "$(cat "$repo/.git/config")"
window_attack && grep -q PLANTED <<<"$out" && [ "$prc" -eq 0 ] && has "$origin" && ! has "$elsewhere" &&
  grep -q "url.$elsewhere.insteadof" <<<"$(swept_names)" &&
  [ "$(git -C "$repo" config user.name)" = "The User" ]
report $? "default mode: as shipped the sweep disables it, the push lands in origin, the user's own key stays" \
  "$out" "push: $prc $(cat "$TEST_TMP/push.out")" "$(cat "$repo/.git/config")"
window_attack --format text && grep -q "config keys that run programs or send data elsewhere: url.$elsewhere.insteadof" <<<"$out"
report $? "default mode: the text a model reads names the disabled insteadOf" "$out" \
  "$(cat "$repo/.git/config")"

# --- a legacy remote file, in the default mode (.git is writable there but
# for its config and hooks): git reads .git/remotes/origin for a remote
# the config lacks, and a plain push uses "origin" when nothing is chosen
legacy() {
  new_repo "$repo"
  rm -rf "$elsewhere"
  git init -q --bare "$elsewhere"
  run "$SLUICE" run -C "$repo" --format json "$@" -- \
    "mkdir -p .git/remotes && printf 'URL: %s\nPush: refs/heads/main:refs/heads/main\n' '$elsewhere' >.git/remotes/origin"
  user_push
}
legacy --config "$TEST_TMP/default-sweep-off.ini"
has "$elsewhere"
report $? "a planted .git/remotes/origin takes the user's plain push elsewhere (positive control: git_sweep = no)" \
  "$out" "push: $prc $(cat "$TEST_TMP/push.out")"
legacy
[ "$rc" -eq 0 ] && ! has "$elsewhere" && [ ! -e "$repo/.git/remotes/origin" ] &&
  grep -q "legacy remote file" <<<"$(swept_names)"
report $? "as shipped the sweep moves it to the quarantine and says so; the push has no destination" \
  "$out" "push: $prc $(cat "$TEST_TMP/push.out")"

# --- the everyday rows the rule keeps
fresh
run "$SLUICE" run -C "$repo" --config "$TEST_TMP/shipped.ini" --format json -- \
  "git remote add upstream '$origin' && git fetch -q upstream"
first=$out
run "$SLUICE" run -C "$repo" --config "$TEST_TMP/shipped.ini" --format json -- \
  "git fetch -q upstream && git rev-parse upstream/keep"
[ "$rc" -eq 0 ] && [ "$(json_get "$first" 'd["exitCode"], d["gitSweep"]')" = "(0, None)" ] &&
  [ "$(json_get "$out" 'd["exitCode"], d["gitSweep"]')" = "(0, None)" ] &&
  [ "$(git -C "$repo" config remote.upstream.url)" = "$origin" ] &&
  git -C "$repo" fetch -q upstream
report $? "git remote add upstream, and its fetch in the next run: nothing disabled" "$first" "$out"

fresh
run "$SLUICE" run -C "$repo" --config "$TEST_TMP/shipped.ini" --format json -- \
  'git switch -q -c topic && git commit -q --allow-empty -m topic && git push -q -u origin HEAD'
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["exitCode"], d["gitSweep"]')" = "(0, None)" ] &&
  [ "$(git -C "$repo" config branch.topic.remote)" = origin ] &&
  (cd "$repo" && git commit -q --allow-empty -m more && git push -q) &&
  [ "$(git -C "$origin" rev-parse topic)" = "$(git -C "$repo" rev-parse HEAD)" ]
report $? "git push -u origin HEAD: branch.topic.remote = origin kept, the user's next plain push goes to origin" \
  "$out" "$(cat "$repo/.git/config")"
