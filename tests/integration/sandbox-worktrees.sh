#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The state of the user's other worktrees (red team 48, hole 7;
# launcher/git-paths.c). A repository with a linked worktree w2: a run in
# the main worktree may write the repository's .git, its objects, refs
# and its own index, but not w2's index (.git/worktrees/w2/index) or HEAD;
# a run in w2 not the main worktree's index or HEAD (in the common
# directory). The command stages, or points HEAD at, a commit holding an
# executable bin/git of its own, writing git objects and that file only;
# the user's routine `git checkout .` (or `git reset --hard`) in that other
# worktree would write bin/git, and the next `git status` there with
# direnv's PATH_add bin runs it (the mark, checked from outside). Each
# attack runs with `[sandbox] git_writable = yes` first (the positive
# control: those binds given up, the sweep still on; the main worktree's
# .git also in `writable`, since from w2 it lies outside the workspace),
# then as shipped.
# Then what must keep working beside it: add, commit, switch, stash in the
# run's own worktree, from the main one and from w2; git gc and git reflog
# expire --all; and the text a model reads when git is refused names the
# protection.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# the commands must meet the repositories there.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the index and HEAD of the user's other worktrees"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
if [ -z "$namespace" ]; then
  skip_rest "$sandbox_subject" "no mount namespace here: .git is read-only as a whole"
fi
main=$HOME/main
w2=$HOME/w2
# the control: git's binds given up, and the common directory (outside
# w2, the workspace of a run there) writable too
printf '[sandbox]\ngit_writable = yes\nwritable = %s\n' "$main/.git" >"$TEST_TMP/git-writable.ini"

# scene: the user's repository with a linked worktree w2 on branch
# feature, and one ordinary run in the main worktree before (which gives
# the common directory the commondir a run from w2 needs to write there).
scene() {
  rm -rf "$main" "$w2"
  new_repo "$main" && git -C "$main" worktree add -q "$w2" -b feature &&
    "$SLUICE" run -C "$main" -- true >/dev/null 2>&1
}

# plant MARK PARENT: shell text, run in the box, that writes git objects
# only: $C a commit of PARENT's tree plus bin/git, an executable that
# touches MARK and then runs git.
plant() {
  cat <<EOF
G='env PATH=/usr/bin:/bin git' &&
b=\$(printf '#!/bin/sh\\ntouch $1\\nexec /usr/bin/git "\$@"\\n' | \$G hash-object -w --stdin) &&
bt=\$(printf '100755 blob %s\\tgit\\n' \$b | \$G mktree) &&
t=\$( (\$G ls-tree $2; printf '040000 tree %s\\tbin\\n' \$bt) | \$G mktree) &&
C=\$(\$G commit-tree -p $2 -m 'format helper' \$t)
EOF
}

# user_git DIR TRIGGER: the user's git in DIR, TRIGGER (its words:
# checkout -- ., or reset --hard), then git status with DIR/bin first on
# PATH (direnv's PATH_add bin), whether TRIGGER succeeded or not (a git
# that writes the work tree and then fails still wrote it)
user_git() {
  local words
  read -ra words <<<"$2"
  (cd "$1" && { git "${words[@]}" >/dev/null 2>&1; PATH=$1/bin:$PATH git status >/dev/null 2>&1; })
}

# other_attack KIND SLUG NAME DIR COMMAND VICTIM TRIGGER: the run of
# COMMAND (a plant, then its use; $mark the mark, named SLUG) in DIR, the
# user's TRIGGER in VICTIM; once as the positive control (harmed), once as
# shipped (not harmed: no bin/git written, no mark). KIND bind: what the
# launcher's read-only binds refuse (the control gives them up with
# git_writable; as shipped the run's git fails). KIND check: what the
# check after the run undoes (the control turns the sweep, and that check,
# off; as shipped the run succeeds and its report names what it undid),
# with the run's workspace's bin/ on the PATH (direnv's PATH_add bin, in
# the .envrc both worktrees share): bin/git is a name that runs later.
other_attack() {
  local kind=$1 name=$3 dir=$4 command=$5 victim=$6 trigger=$7 mark=$marks/$2 how config found
  local env=() control=$TEST_TMP/git-writable.ini off="with git_writable, the user's"
  if [ "$kind" = check ]; then
    env=(env PATH="$dir/bin:$PATH") control=$TEST_TMP/sweep-off.ini off="with the sweep off, the user's git"
  fi
  for how in control shipped; do
    { scene && ${scene_more:-true}; } || { not_ok "$name: the scene" "git or the first run failed"; return; }
    rm -f "$mark"
    config=()
    [ "$how" = control ] && config=(--config "$control")
    run "${env[@]}" "$SLUICE" run -C "$dir" --format json "${config[@]}" -- "$(eval "$command" | tr '\n' ' ')"
    ran "$name ($how)" || continue
    found=$(json_get "$out" '(d["gitSweep"] or {}).get("found", 0)' 2>/dev/null)
    user_git "$victim" "$trigger"
    if [ "$how" = control ]; then
      [ -e "$mark" ]
      report $? "$name: $off $trigger there runs the command's bin/git (positive control)" "$out" "$err"
    elif [ "$kind" = bind ]; then
      [ ! -e "$mark" ] && [ ! -e "$victim/bin/git" ] && [ "$(json_get "$out" 'd["exitCode"]')" != 0 ]
      report $? "$name: stopped as shipped (the run's git fails, the user's $trigger writes no bin/git)" "$out" "$err"
    else
      [ ! -e "$mark" ] && [ ! -e "$victim/bin/git" ] && [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] &&
        [ "${found:-0}" -ge 1 ] && grep -q "where the user's git .* would go" <<<"$out"
      report $? "$name: undone after the run and reported (the user's git $trigger writes no bin/git)" "$out" "$err"
    fi
  done
}
worktree_attack() { other_attack bind "$@"; }
pointer_attack() { other_attack check "$@"; }
# the control of the check after the run
printf '[sandbox]\ngit_sweep = no\n' >"$TEST_TMP/sweep-off.ini"

# shellcheck disable=SC2016 # expanded by the inner shell
worktree_attack main-w2-index "from the main worktree, w2's index" "$main" \
  'plant "$mark" HEAD; echo "&& GIT_INDEX_FILE=.git/worktrees/w2/index \$G read-tree \$C"' \
  "$w2" "checkout -q -- ."
# shellcheck disable=SC2016
worktree_attack main-w2-head "from the main worktree, w2's HEAD" "$main" \
  'plant "$mark" feature; echo "&& \$G --git-dir=.git/worktrees/w2 update-ref --no-deref HEAD \$C"' \
  "$w2" "reset -q --hard"
# shellcheck disable=SC2016
worktree_attack w2-main-index "from w2, the main worktree's index" "$w2" \
  'plant "$mark" main; echo "&& GIT_INDEX_FILE=\$(\$G rev-parse --git-common-dir)/index \$G read-tree \$C"' \
  "$main" "checkout -q -- ."
# shellcheck disable=SC2016
worktree_attack w2-main-head "from w2, the main worktree's HEAD" "$w2" \
  'plant "$mark" main; echo "&& \$G update-ref --no-deref main-worktree/HEAD \$C"' \
  "$main" "reset -q --hard"

# --- the other worktree's operation state: files git must be able to
# write there (git gc rewrites every worktree's HEAD log), so they stay
# writable, and are checked after the run instead (git-later-pointers.c):
# one that names a commit of the run's with content at a name that runs
# later is undone, and reported.
# shellcheck disable=SC2016 # expanded by the inner shell
pointer_attack main-w2-rebase "from the main worktree, a paused rebase in w2" "$main" \
  'plant "$mark" feature; echo "&& d=.git/worktrees/w2/rebase-merge && mkdir -p \$d && echo refs/heads/feature >\$d/head-name && echo \$C >\$d/orig-head && \$G rev-parse feature >\$d/onto && touch \$d/interactive \$d/done \$d/git-rebase-todo"' \
  "$w2" "rebase --abort"
# shellcheck disable=SC2016
pointer_attack main-w2-orig "from the main worktree, w2's ORIG_HEAD" "$main" \
  'plant "$mark" feature; echo "&& echo \$C >.git/worktrees/w2/ORIG_HEAD"' \
  "$w2" "reset -q --hard ORIG_HEAD"
# shellcheck disable=SC2016
pointer_attack main-w2-reflog "from the main worktree, a line of w2's HEAD reflog" "$main" \
  'plant "$mark" feature; echo "&& f=\$(\$G rev-parse feature) && printf \"%s %s x <x@x> 1700000000 +0000\tcheckout: moving from %s to feature\n\" \$f \$f \$C >>.git/worktrees/w2/logs/HEAD"' \
  "$w2" "checkout -q -"
# The autostash of a paused rebase or merge: a stash-like commit of the
# command's that git rebase --abort, git merge --abort or the commit that
# concludes the merge applies to the work tree (red team 49, 8-10).
# shellcheck disable=SC2016
stash_like='plant "$mark" $1; echo "&& f=\$(\$G rev-parse $1) && I=\$(\$G commit-tree -p \$f -m index \$(\$G rev-parse $1^{tree})) && S=\$(\$G commit-tree -p \$f -p \$I -m wip \$t)"'
# shellcheck disable=SC2016
pointer_attack main-w2-autostash "from the main worktree, a paused rebase's autostash in w2" "$main" \
  "set -- feature; $stash_like"'; echo "&& d=.git/worktrees/w2/rebase-merge && mkdir -p \$d && echo refs/heads/feature >\$d/head-name && echo \$f >\$d/orig-head && echo \$f >\$d/onto && echo \$S >\$d/autostash && touch \$d/interactive \$d/done \$d/git-rebase-todo"' \
  "$w2" "rebase --abort"
# shellcheck disable=SC2016
pointer_attack main-w2-merge-autostash "from the main worktree, a paused merge's MERGE_AUTOSTASH in w2" "$main" \
  "set -- feature; $stash_like"'; echo "&& d=.git/worktrees/w2 && echo \$f >\$d/MERGE_HEAD && echo \$S >\$d/MERGE_AUTOSTASH && echo merge >\$d/MERGE_MSG && touch \$d/MERGE_MODE"' \
  "$w2" "commit -q --no-edit"
# shellcheck disable=SC2016
pointer_attack w2-main-autostash "from w2, a paused rebase's autostash in the main worktree" "$w2" \
  "set -- main; $stash_like"'; echo "&& d=\$(\$G rev-parse --git-common-dir)/rebase-apply && mkdir -p \$d && echo refs/heads/main >\$d/head-name && echo \$f >\$d/orig-head && echo \$f >\$d/onto && echo \$S >\$d/autostash && touch \$d/rebasing && echo 1 >\$d/next && echo 1 >\$d/last"' \
  "$main" "rebase --abort"
# A paused rebase's todo list that picks a commit of the command's: git
# rebase --continue applies it (red team 49, 11).
# shellcheck disable=SC2016
pointer_attack main-w2-todo "from the main worktree, a paused rebase's todo list in w2" "$main" \
  'plant "$mark" feature; echo "&& f=\$(\$G rev-parse feature) && d=.git/worktrees/w2/rebase-merge && mkdir -p \$d && echo refs/heads/feature >\$d/head-name && echo \$f >\$d/orig-head && echo \$f >\$d/onto && echo \"pick \$C format helper\" >\$d/git-rebase-todo && touch \$d/interactive \$d/done"' \
  "$w2" "rebase --continue"
# Its reset line naming a label the command planted in w2's own refs
# (refs/rewritten/fmt, read before the revision): commented out (red team 50).
# shellcheck disable=SC2016
pointer_attack main-w2-todo-reset "from the main worktree, a todo list's reset to a label in w2" "$main" \
  'plant "$mark" feature; echo "&& f=\$(\$G rev-parse feature) && d=.git/worktrees/w2/rebase-merge && mkdir -p \$d \$d/../refs/rewritten && echo \$C >\$d/../refs/rewritten/fmt && echo refs/heads/feature >\$d/head-name && echo \$f >\$d/orig-head && echo \$f >\$d/onto && echo \"reset fmt\" >\$d/git-rebase-todo && touch \$d/interactive \$d/done"' \
  "$w2" "rebase --continue"
# A git am session paused in w2, whose next patch (mail text, no commit)
# adds bin/git: git am --skip applies it (red team 49, 16). Moved aside.
# shellcheck disable=SC2016
pointer_attack main-w2-am "from the main worktree, a paused git am session in w2" "$main" \
  'plant "$mark" feature; echo "&& f=\$(\$G rev-parse feature) && d=.git/worktrees/w2/rebase-apply && mkdir \$d && \$G format-patch -1 --stdout \$C >\$d/0001 && \$G format-patch -1 --stdout \$C >\$d/0002 && echo 1 >\$d/next && echo 2 >\$d/last && echo \$f >\$d/abort-safety && echo false >\$d/quiet && touch \$d/applying"' \
  "$w2" "am --skip"
# The user's own session, paused at its first patch of two, its second
# written over in place by the command (the folder's entries unchanged).
user_am_session() {
  git -C "$main" switch -q -c patches && echo x >"$main/README" && git -C "$main" commit -qam one &&
    echo n >"$main/n" && git -C "$main" add n && git -C "$main" commit -qm two &&
    git -C "$main" format-patch -q -2 -o "$TEST_TMP/mbox" && git -C "$main" switch -q main &&
    echo y >"$w2/README" && git -C "$w2" commit -qam mine &&
    ! git -C "$w2" am -q "$TEST_TMP"/mbox/*.patch >/dev/null 2>&1
}
# shellcheck disable=SC2016
scene_more=user_am_session pointer_attack main-w2-am-in-place "from the main worktree, the next patch of the user's paused git am session in w2 written over" "$main" \
  'plant "$mark" feature; echo "&& \$G format-patch -1 --stdout \$C >.git/worktrees/w2/rebase-apply/0002"' \
  "$w2" "am --skip"
# A bisect planted in w2, its bad commit a child of the command's: git
# bisect good checks out a commit between bad and good (red team 49, 12).
# shellcheck disable=SC2016
pointer_attack main-w2-bisect "from the main worktree, a bisect's refs/bisect/bad in w2" "$main" \
  'plant "$mark" feature; echo "&& f=\$(\$G rev-parse feature) && E=\$(\$G commit-tree -p \$C -m more \$t) && d=.git/worktrees/w2 && echo feature >\$d/BISECT_START && touch \$d/BISECT_NAMES && mkdir -p \$d/refs/bisect && echo \$E >\$d/refs/bisect/bad && echo \$f >\$d/refs/bisect/good-\$f && printf \"git bisect start\ngit bisect bad %s\ngit bisect good %s\n\" \$E \$f >\$d/BISECT_LOG"' \
  "$w2" "bisect good"
# The log rewritten (another inode): its old text, the planted line, then
# a copy of its old last bytes, where a search for them would begin the
# run's lines (red team 49, 13). A rewritten log's newest lines count.
# shellcheck disable=SC2016
pointer_attack main-w2-reflog-tail "from the main worktree, w2's HEAD reflog rewritten with its old tail copied last" "$main" \
  'plant "$mark" feature; echo "&& f=\$(\$G rev-parse feature) && l=.git/worktrees/w2/logs/HEAD && { cat \$l; printf \"%s %s x <x@x> 1700000000 +0000\tcheckout: moving from %s to feature\n\" \$f \$f \$C; tail -c 256 \$l; } >\$l.new && mv \$l.new \$l"' \
  "$w2" "checkout -q -"
# The same with a line git reset --hard HEAD@{2} takes (no checkout
# line, which is read wherever it lies; git's HEAD@{N} is the old id of
# the Nth newest line, the copy's one whole line the newest): the copy of
# the old tail moves the start of the run's lines past nothing.
# shellcheck disable=SC2016
pointer_attack main-w2-reflog-tail-at2 "from the main worktree, w2's HEAD reflog rewritten with its old tail copied after a line HEAD@{2} reads" "$main" \
  'plant "$mark" feature; echo "&& l=.git/worktrees/w2/logs/HEAD && { cat \$l; printf \"%s %s x <x@x> 1700000000 +0000\tcommit: tidy\n\" \$C \$C; tail -c 256 \$l; } >\$l.new && mv \$l.new \$l"' \
  "$w2" "reset -q --hard HEAD@{2}"
# A line whose old id is the command's commit and new id w2's own HEAD:
# git reset --hard HEAD@{1} takes the old id (red team 50, 4).
# shellcheck disable=SC2016
pointer_attack main-w2-reflog-old-id "from the main worktree, a line of w2's HEAD reflog whose old id HEAD@{1} takes" "$main" \
  'plant "$mark" feature; echo "&& f=\$(\$G rev-parse feature) && printf \"%s %s x <x@x> \$(date +%s) +0000\treset: moving to HEAD\n\" \$C \$f >>.git/worktrees/w2/logs/HEAD"' \
  "$w2" "reset -q --hard HEAD@{1}"
# The log rewritten with its old last line left out (no old tail to find):
# the planted checkout line, then 70 lines that switch nothing, so that the
# newest 64 hold no checkout line and git checkout - takes the planted one
# (red team 50, 3). A rewritten log's newest checkout line counts too.
# shellcheck disable=SC2016
pointer_attack main-w2-reflog-deep "from the main worktree, w2's HEAD reflog rewritten with a checkout line past its newest 64" "$main" \
  'plant "$mark" feature; echo "&& f=\$(\$G rev-parse feature) && l=.git/worktrees/w2/logs/HEAD && { sed \"\\\$d\" \$l; printf \"%s %s x <x@x> 1700000000 +0000\tcheckout: moving from %s to feature\n\" \$f \$f \$C; for i in \$(seq 70); do printf \"%s %s x <x@x> 1700000000 +0000\tcommit: work %s\n\" \$f \$f \$i; done; } >\$l.new && mv \$l.new \$l"' \
  "$w2" "checkout -q -"
# shellcheck disable=SC2016
pointer_attack w2-main-orig "from w2, the main worktree's ORIG_HEAD" "$w2" \
  'plant "$mark" main; echo "&& echo \$C >\$(\$G rev-parse --git-common-dir)/ORIG_HEAD"' \
  "$main" "reset -q --hard ORIG_HEAD"
# A repository whose packed-refs is larger than the check reads as a file
# (4 MiB: 30,000 long tags, a user's or a command's), with w2's branch
# packed only (red team 49, 14): w2's HEAD is read by git after the run.
big_packed_refs() {
  python3 - "$main/.git" <<'PY' && git -C "$main" pack-refs --all
import subprocess, sys
h = subprocess.run(["git", "--git-dir", sys.argv[1], "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
with open(sys.argv[1] + "/packed-refs", "w") as f:
    f.write("# pack-refs with: peeled fully-peeled sorted \n")
    for i in range(30000):
        f.write("%s refs/tags/release-candidate-build-artifact-%0120d\n" % (h, i))
PY
}
# shellcheck disable=SC2016
scene_more=big_packed_refs pointer_attack main-w2-orig-big "from the main worktree, w2's ORIG_HEAD, with a packed-refs past 4 MiB" "$main" \
  'plant "$mark" feature; echo "&& echo \$C >.git/worktrees/w2/ORIG_HEAD"' \
  "$w2" "reset -q --hard ORIG_HEAD"
# The user's own rebase, paused in w2 before the run, stays through the
# run's git gc in the main worktree (which rewrites w2's HEAD log).
scene
(cd "$w2" && echo b >b.txt && git add b.txt && git commit -q -m b && echo c >c.txt && git add c.txt &&
  git commit -q -m c && GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' git rebase -q -i HEAD~2) >/dev/null 2>&1
before=$(cat "$main/.git/worktrees/w2/rebase-merge/orig-head" 2>/dev/null)
run "$SLUICE" run -C "$main" --format json -- 'git reflog expire --all && git gc -q'
[ -n "$before" ] && [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] && [ "$(json_get "$out" 'd["gitSweep"]')" = None ] &&
  [ "$(cat "$main/.git/worktrees/w2/rebase-merge/orig-head")" = "$before" ] &&
  git -C "$w2" rebase --abort && [ "$(git -C "$w2" rev-parse HEAD)" = "$before" ]
report $? "the user's rebase paused in w2 stays through a run's git gc in the main worktree" "$out"

# The user's own merge in w2 while a run lasts in the main worktree (red
# team 49, 15): a teammate's commit adding lefthook.yml, fast-forwarded
# there. The run cannot write w2's index or HEAD, so their change is the
# user's work: w2's files and its branch are left alone, as the user left
# them (not moved back, the reflog's merge line kept).
scene && git -C "$main" switch -q -c upstream && printf 'pre-commit:\n  commands: {}\n' >"$main/lefthook.yml" &&
  git -C "$main" add lefthook.yml && git -C "$main" commit -q -m "a teammate's lefthook" && git -C "$main" switch -q main
"$SLUICE" run -C "$main" --format json -- 'sleep 4' >"$TEST_TMP/fp.json" 2>"$TEST_TMP/fp.err" &
sleep 1.5
git -C "$w2" merge -q --ff-only upstream
wait $!
out=$(cat "$TEST_TMP/fp.json")
[ "$(git -C "$w2" rev-parse HEAD)" = "$(git -C "$main" rev-parse upstream)" ] &&
  [[ $(git -C "$w2" reflog -1 --format=%gs) == merge* ]] && [ -z "$(git -C "$w2" status --porcelain)" ] &&
  [ "$(json_get "$out" 'd["gitSweep"]')" = None ]
report $? "the user's own merge in w2 during a run in the main worktree stays (branch, reflog)" "$out" "$(cat "$TEST_TMP/fp.err")"

# The user's own git am session, paused in w2 before a run in the main
# worktree that writes w2's ORIG_HEAD (harmless: w2's files are checked):
# the session stays, and git am --skip there goes on with it.
scene && user_am_session
run "$SLUICE" run -C "$main" --format json -- 'git rev-parse feature >.git/worktrees/w2/ORIG_HEAD'
[ -d "$main/.git/worktrees/w2/rebase-apply" ] && [ ! -e "$main/.git/worktrees/w2/rebase-apply.sluice-blocked" ] &&
  git -C "$w2" am --skip >/dev/null 2>&1 && [ -e "$w2/n" ] && ! grep -q 'git am' <<<"$out"
report $? "the user's own git am session paused in w2 stays through a run that changes w2's files" "$out" \
  "$(ls "$main/.git/worktrees/w2" "$w2"; git -C "$w2" log --oneline -3)"

# A direct write (not git's rename of a lock file) is refused as well.
scene
run "$SLUICE" run -C "$main" --format json -- "git rev-parse HEAD >.git/worktrees/w2/HEAD"
[ "$(git -C "$w2" symbolic-ref HEAD 2>/dev/null)" = refs/heads/feature ]
report $? "from the main worktree, a redirection into w2's HEAD is refused" "$out"

# The text a model reads when git is refused names the protection.
note="the index and HEAD of its other worktrees"
run "$SLUICE" run -C "$main" -- 'GIT_INDEX_FILE=.git/worktrees/w2/index git read-tree HEAD'
grep -q 'unable to write new index file' <<<"$out$err" && grep -qF "$note" <<<"$out$err"
report $? "git's 'unable to write new index file' gets the sandbox note naming other worktrees' index" "$out" "$err"
run "$SLUICE" run -C "$w2" -- 'git update-ref --no-deref main-worktree/HEAD HEAD'
grep -q "couldn't set" <<<"$out$err" && grep -qF "$note" <<<"$out$err"
report $? "git's \"couldn't set 'HEAD'\" gets the sandbox note" "$out" "$err"

# --- what must keep working: the run's own worktree, gc, reflog expire
scene
# shellcheck disable=SC2016 # expanded by the inner shell
everyday='echo x >>x.txt && git add x.txt && git commit -q -m "work in $(basename "$PWD")" &&
  git switch -q -c "side-$(basename "$PWD")" && echo y >y.txt && git add y.txt &&
  git stash -q && git stash pop -q && git commit -q -m side &&
  git switch -q -'
run "$SLUICE" run -C "$main" --format json -- "$everyday"
[ "$(json_get "$out" 'd["exitCode"]')" = 0 ] && [ "$(git -C "$main" log -1 --format=%s)" = "work in main" ] &&
  [ "$(git -C "$main" log -1 --format=%s side-main)" = side ] && [ -z "$(git -C "$main" status --porcelain)" ]
report $? "in the main worktree, with w2: add, commit, switch, stash work" "$out"
run "$SLUICE" run -C "$w2" --format json -- "$everyday"
[ "$(json_get "$out" 'd["exitCode"]')" = 0 ] && [ "$(git -C "$w2" log -1 --format=%s)" = "work in w2" ] &&
  [ "$(git -C "$w2" log -1 --format=%s side-w2)" = side ] && [ -z "$(git -C "$w2" status --porcelain)" ] &&
  [ "$(git -C "$main" symbolic-ref HEAD)" = refs/heads/main ]
report $? "in w2: add, commit, switch, stash work; the main worktree's HEAD as it was" "$out"
for dir in "$main" "$w2"; do
  run "$SLUICE" run -C "$dir" --format json -- 'git reflog expire --all && git gc -q && git commit -q --allow-empty -m after-gc'
  [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] && [ "$(git -C "$dir" log -1 --format=%s)" = after-gc ] &&
    git -C "$main" fsck --no-progress >/dev/null 2>&1 && [ -z "$(git -C "$main" status --porcelain)" ] &&
    [ -z "$(git -C "$w2" status --porcelain)" ]
  report $? "git reflog expire --all and git gc in $(basename "$dir"), with the other worktree" "$out"
done
# A worktree added in one run (the repository has no worktrees/ yet) is
# committed to in the next, and the one after in the main worktree still
# commits.
rm -rf "$main" "$w2"
new_repo "$main"
echo wt3/ >"$main/.git/info/exclude"
run "$SLUICE" run -C "$main" --format json -- "git worktree add -q wt3 -b w3"
run "$SLUICE" run -C "$main/wt3" --format json -- 'echo w >w.txt && git add w.txt && git commit -q -m in-w3'
[ "$(git -C "$main/wt3" log -1 --format=%s)" = in-w3 ] && [ -z "$(git -C "$main/wt3" status --porcelain)" ]
report $? "a worktree added in one run is committed to in the next" "$out"
run "$SLUICE" run -C "$main" --format json -- 'git commit -q --allow-empty -m main-after && git -C wt3 status --porcelain'
[ "$(json_get "$out" 'd["exitCode"]')" = 0 ] && [ "$(git -C "$main" log -1 --format=%s)" = main-after ] &&
  [ -z "$(git -C "$main/wt3" status --porcelain)" ]
report $? "then the main worktree commits, and w3's state is untouched" "$out"
