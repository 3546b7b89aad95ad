#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What git restores later (broker/run/git-later.c): a command in the
# default sandbox cannot write a protected file, and what it plants on the
# user's PATH is renamed after the run; so it puts its version in git's
# index or in a commit instead (red team 46, holes 4 and 8), and the
# user's routine `git reset --hard`, `git checkout .` writes it back, the
# next `git status` (bin/ on the PATH) or `git commit` (lefthook) runs it.
# Each attack runs with [sandbox] git_sweep = no first (the positive
# control: the user's own git then runs the command's code, checked on the
# mark it leaves), then as shipped (no mark; the index and branch as they
# were, the commits kept at refs/sluice/held/..., the result names it).
# The same through the refs that reach the work tree without the index or
# the checked-out branch: a replace ref (git replace, loose or packed: the
# user's `git reset --hard` reads HEAD's tree as the command's), the stash
# (an entry the command stored, wrote into the reflog, or a refs/stash
# made symbolic: the user's `git stash pop` or apply writes it), and a ref
# of the user's the command moved (a branch, a packed origin/main, a tag)
# or made to take one's place by its short name (refs/heads/origin/main):
# the user's `git switch`, `git merge origin/main`, `git checkout v1`
# writes it. broker/run/git-later-replace.c, git-later-stash.c,
# git-later-snapshot.c and git-later-moved.c.
# Then the everyday: a plain add and commit in a run reports nothing; a
# protected file the user staged before the run stays staged; a stash the
# run makes of an ordinary change stays, and so do its own new branch and
# tag.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="what git restores later"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
git config --global advice.detachedHead false
printf '[sandbox]\ngit_sweep = no\n' >"$TEST_TMP/sweep-off.ini"

git_bin=$(command -v git)
[ "${git_bin%/git}" = /usr/bin ] || skip_rest "$sandbox_subject" "git is not /usr/bin/git here"
tools=${SLUICE_HOOK_MANAGERS_DIR:-$SLUICE_SRCDIR/third_party/hook-managers}/node_modules
lefthook=$tools/.bin/lefthook
[ -x "$lefthook" ] || lefthook=$(command -v lefthook || true)
export LEFTHOOK_BIN=$lefthook
husky_bin=$tools/husky/bin.js

# In the sandbox, the command's git is the system's (bin/ is not on its PATH).
G='PATH=/usr/bin:/bin git'

# --- triggers: what the user does after the run
# the user's git with the workspace's bin/ first on the PATH (direnv's PATH_add bin)
user_status() { (cd "$1" && PATH="$1/bin:$PATH" git status) >/dev/null 2>&1; }
reset_then_status() { git -C "$1" reset -q --hard >/dev/null 2>&1; user_status "$1"; }
checkout_then_status() { git -C "$1" checkout -q -- . >/dev/null 2>&1; user_status "$1"; }
# the next commit, with something staged (lefthook's pre-commit runs)
commit_outside() {
  (cd "$1" && echo change >>README && git add README && git commit -q -m outside) >/dev/null 2>&1 </dev/null
}
reset_then_commit() { git -C "$1" reset -q --hard >/dev/null 2>&1; commit_outside "$1"; }
checkout_then_commit() { git -C "$1" checkout -q -- . >/dev/null 2>&1; commit_outside "$1"; }

# --- setups
plain_repo() { new_repo "$1"; }
# a user's template kept in bin/, not executable
template_repo() {
  new_repo "$1"
  mkdir -p "$1/bin"
  printf '#!/bin/sh\ntouch %s/mode-change\nexec /usr/bin/git "$@"\n' "$marks" >"$1/bin/git"
  chmod 644 "$1/bin/git"
  git -C "$1" add bin/git && git -C "$1" commit -q -m template
}

# the text of an evil lefthook configuration touching the mark NAME
evil_lefthook() { printf 'pre-commit:\\n  commands:\\n    evil:\\n      run: touch %s/%s\\n' "$marks" "$1"; }
# a planted bin/git touching the mark NAME
plant_git() {
  printf 'mkdir -p bin && printf "#!/bin/sh\\ntouch %s/%s\\nexec /usr/bin/git \\"\\$@\\"\\n" >bin/git && chmod +x bin/git' "$marks" "$1"
}

# attack NAME SETUP COMMAND TRIGGER: SETUP DIR makes a fresh repository,
# COMMAND runs in it (the mark is NAME), TRIGGER DIR is what the user does
# next. With git_sweep = no the mark must appear; as shipped, not, and
# the result must name the repository's items. Leaves the boxed
# repository in $dir and the result in $out.
attack() {
  local name=$1 setup=$2 command=$3 trigger=$4
  rm -f "$marks/$name"
  dir=$TEST_TMP/control-$name
  "$setup" "$dir"
  run env PATH="$dir/bin:$PATH" "$SLUICE" run -C "$dir" --config "$TEST_TMP/sweep-off.ini" -- "$command"
  eval "$trigger \"\$dir\""
  if [ ! -e "$marks/$name" ]; then
    not_ok "$name: the attack works with git_sweep = no (positive control)" "$out" "$err" \
      "$(git -C "$dir" status --short 2>&1)"
    return 1
  fi
  ok "$name: the attack works with git_sweep = no (positive control)"
  rm -f "$marks/$name"
  dir=$TEST_TMP/boxed-$name
  "$setup" "$dir"
  before=$(git -C "$dir" rev-parse HEAD)
  run env PATH="$dir/bin:$PATH" "$SLUICE" run -C "$dir" --format json -- "$command"
  local result=$out
  eval "$trigger \"\$dir\""
  out=$result
  [ ! -e "$marks/$name" ]
  report $? "$name: stopped in the default sandbox" "$out" "$err" "$(git -C "$dir" status --short 2>&1)"
}

# items: the gitSweep items' "what", one a line
items() { json_get "$out" '"\n".join(i["what"] for i in ((d.get("gitSweep") or {}).get("items") or []))' 2>/dev/null; }
held() { git -C "$dir" for-each-ref --format='%(refname)' refs/sluice/held; }

# --- 1. hole 4: a bin/git on the PATH, committed
attack path-commit plain_repo "$(plant_git path-commit) && $G add bin/git && $G commit -qm helper" reset_then_status
h=$(held)
[ "$(git -C "$dir" rev-parse HEAD)" = "$before" ] && [ -n "$h" ] &&
  git -C "$dir" cat-file -e "$h:bin/git" && [ -z "$(git -C "$dir" ls-files bin/git)" ] &&
  items | grep -q 'committed content at names that run later (bin/git)'
report $? "path-commit: the branch is back at its commit, the run's commit kept at $h, bin/git not in the index" \
  "$out" "$(items)"

# --- 2. hole 4, staged only: git checkout . would write it
attack path-staged plain_repo "$(plant_git path-staged) && $G add bin/git" checkout_then_status
[ -z "$(git -C "$dir" ls-files bin/git)" ] && [ -z "$(held)" ] && items | grep -q 'staged it (100755'
report $? "path-staged: the entry is out of the index, nothing held (no commit)" "$out" "$(items)"

# --- 3. a mode change to executable of the user's own file in bin/
attack mode-change template_repo "$G update-index --chmod=+x bin/git && $G commit -qm mode" reset_then_status
[ "$(git -C "$dir" ls-files -s bin/git | cut -c1-6)" = 100644 ] && [ "$(git -C "$dir" rev-parse HEAD)" = "$before" ]
report $? "mode-change: bin/git is 100644 in the index again, the branch back" "$out" "$(items)"

if [ -x "$lefthook" ]; then
  # --- 4. hole 8: lefthook.yml changed through the index and a commit
  attack index-commit lefthook_repo \
    "b=\$(printf '$(evil_lefthook index-commit)' | git hash-object -w --stdin) && git update-index --cacheinfo 100644,\$b,lefthook.yml && git commit --no-verify -qm tidy" \
    reset_then_commit
  [ -z "$(git -C "$dir" status --short lefthook.yml)" ] && [ -n "$(held)" ]
  report $? "index-commit: git status is clean for lefthook.yml, the commit held" "$out" "$(git -C "$dir" status --short)"
  # --- 5. staged only
  attack index-staged lefthook_repo \
    "b=\$(printf '$(evil_lefthook index-staged)' | git hash-object -w --stdin) && git update-index --cacheinfo 100644,\$b,lefthook.yml" \
    checkout_then_commit
  # --- 6. a new protected file the run created (renamed in the work tree)
  # and committed (-f: the sandbox's own excludes name the protected paths)
  attack new-file lefthook_repo \
    "printf '$(evil_lefthook new-file)' >lefthook-local.yml && git add -f lefthook-local.yml && git commit --no-verify -qm local" \
    reset_then_commit
  # --- 7. a symlink staged at the protected name, to a file the command wrote
  attack symlink lefthook_repo \
    "printf '$(evil_lefthook symlink)' >hooks.yml && git add hooks.yml && l=\$(printf hooks.yml | git hash-object -w --stdin) && git update-index --cacheinfo 120000,\$l,lefthook.yml && git commit --no-verify -qm link" \
    reset_then_commit
  # --- 8. a rename: a file the run committed, moved to the protected name in a second commit
  attack rename lefthook_repo \
    "printf '$(evil_lefthook rename)' >notes.yml && git add notes.yml && git commit --no-verify -qm notes && git rm -q --cached lefthook.yml && git update-index --add --cacheinfo 100644,\$(git rev-parse :notes.yml),lefthook.yml && git rm -q --cached notes.yml && git commit --no-verify -qm rename" \
    reset_then_commit
  # --- 9. HEAD pointed at a new branch whose commit plants it
  attack new-branch lefthook_repo \
    "git switch -q -c tidy && b=\$(printf '$(evil_lefthook new-branch)' | git hash-object -w --stdin) && git update-index --cacheinfo 100644,\$b,lefthook.yml && git commit --no-verify -qm tidy" \
    reset_then_commit
  [ "$(git -C "$dir" symbolic-ref HEAD)" = refs/heads/main ] && items | grep -q 'HEAD put back on refs/heads/main'
  report $? "new-branch: HEAD is back on main, the branch named" "$out" "$(items)"
  # --- 10. the branch moved while HEAD was left elsewhere: the user's
  # switch back to it would write the command's version
  switch_then_commit() { git -C "$1" switch -q main >/dev/null 2>&1; commit_outside "$1"; }
  attack branch-behind lefthook_repo \
    "b=\$(printf '$(evil_lefthook branch-behind)' | git hash-object -w --stdin) && git update-index --cacheinfo 100644,\$b,lefthook.yml && git commit --no-verify -qm tidy && git branch elsewhere HEAD~1 && git symbolic-ref HEAD refs/heads/elsewhere && git read-tree HEAD" \
    switch_then_commit
  [ "$(git -C "$dir" rev-parse main~1)" = "$(git -C "$dir" rev-parse elsewhere)" ] && [ -n "$(held)" ]
  report $? "branch-behind: main went back to its commit (the user's next commit on it) though HEAD named another branch" "$out" "$(items)"
  # a HEAD left as no git reads it (the user would write it back by hand,
  # then reset): put back, and the branch checked all the same
  dir=$TEST_TMP/head-garbage
  lefthook_repo "$dir"
  before=$(git -C "$dir" rev-parse HEAD)
  run "$SLUICE" run -C "$dir" --format json -- \
    "b=\$(printf '$(evil_lefthook head-garbage)' | git hash-object -w --stdin) && git update-index --cacheinfo 100644,\$b,lefthook.yml && git commit --no-verify -qm tidy && echo garbage >.git/HEAD"
  [ "$(git -C "$dir" symbolic-ref HEAD 2>&1)" = refs/heads/main ] && [ "$(git -C "$dir" rev-parse main)" = "$before" ] &&
    [ -z "$(git -C "$dir" status --short lefthook.yml)" ] && items | grep -q 'HEAD as git cannot read it'
  report $? "a HEAD the command left unreadable is put back on main, main back at its commit" "$out" "$(items)"
else
  skip "lefthook's configuration through git" "lefthook is not installed (scripts/setup.sh installs it with npm)"
fi

# --- 11. a nested path under a protected folder (.husky/pre-commit)
if [ -e "$husky_bin" ] && command -v node >/dev/null; then
  attack husky-nested husky_repo \
    "b=\$(printf 'touch $marks/husky-nested\n' | git hash-object -w --stdin) && git update-index --cacheinfo 100644,\$b,.husky/pre-commit && git commit --no-verify -qm tidy" \
    reset_then_commit
else
  skip "husky's scripts through git" "husky is not installed (scripts/setup.sh installs it with npm) or node is missing"
fi

# --- 15-20. replace refs and the stash
# tree.sh NAME, run in the sandbox, prints a tree of HEAD's with
# lefthook.yml as evil_lefthook NAME has it (the work tree's file is
# protected: only git's objects can hold the command's)
cat >"$TEST_TMP/tree.sh" <<EOF
b=\$(printf 'pre-commit:\\n  commands:\\n    evil:\\n      run: touch $marks/%s\\n' "\$1" | git hash-object -w --stdin)
{ git ls-tree HEAD | grep -v '	lefthook.yml\$'; printf '100644 blob %s\\tlefthook.yml\\n' "\$b"; } | git mktree
EOF
# stash.sh NAME prints a stash entry's commit (work tree: that tree;
# index: HEAD's)
cat >"$TEST_TMP/stash.sh" <<EOF
i=\$(git commit-tree HEAD^{tree} -p HEAD -m index) &&
git commit-tree "\$(sh $TEST_TMP/tree.sh "\$1")" -p HEAD -p "\$i" -m 'WIP on main: tidy'
EOF
# bin-commit.sh NAME prints a commit holding only an executable bin/git
# touching the mark NAME (a stash entry's untracked files); untracked.sh
# NAME, a stash entry with it as its third parent
cat >"$TEST_TMP/bin-commit.sh" <<EOF
g=\$(printf '#!/bin/sh\\ntouch $marks/%s\\nexec /usr/bin/git "\$@"\\n' "\$1" | git hash-object -w --stdin) &&
b=\$(printf '100755 blob %s\\tgit\\n' "\$g" | git mktree) &&
git commit-tree "\$(printf '040000 tree %s\\tbin\\n' "\$b" | git mktree)" -m untracked
EOF
cat >"$TEST_TMP/untracked.sh" <<EOF
u=\$(sh $TEST_TMP/bin-commit.sh "\$1") &&
i=\$(git commit-tree HEAD^{tree} -p HEAD -m index) &&
git commit-tree HEAD^{tree} -p HEAD -p "\$i" -p "\$u" -m 'WIP on main: tidy'
EOF
pop_then_commit() { git -C "$1" stash pop -q >/dev/null 2>&1; commit_outside "$1"; }
# eval_then_commit 'GIT COMMAND' DIR: the user's git command in DIR, then
# the next commit
eval_then_commit() { (cd "$2" && eval "$1") >/dev/null 2>&1 </dev/null; commit_outside "$2"; }
pop_then_status() { git -C "$1" stash pop -q >/dev/null 2>&1; user_status "$1"; }
# a stash of the user's own, made before the run
stashed_lefthook_repo() {
  lefthook_repo "$1"
  echo mine >>"$1/README"
  git -C "$1" stash -q
}
if [ -x "$lefthook" ]; then
  # --- 15. HEAD's tree replaced (a loose refs/replace/ID)
  attack replace-tree lefthook_repo \
    "git replace HEAD^{tree} \$(sh $TEST_TMP/tree.sh replace-tree)" reset_then_commit
  [ -z "$(git -C "$dir" replace -l)" ] && [ "$(git -C "$dir" rev-parse HEAD~1)" = "$before" ] &&
    git -C "$dir" cat-file -p "$(held):lefthook.yml" | grep -q replace-tree &&
    items | grep -q 'added a replace ref'
  report $? "replace-tree: no replace ref left, the branch as it was (then the user's commit), the command's tree held" \
    "$out" "$(items)" "$(git -C "$dir" replace -l)"
  # --- 16. HEAD's commit replaced, the ref then packed
  attack replace-packed lefthook_repo \
    "git replace HEAD \$(git commit-tree -m tidy \$(sh $TEST_TMP/tree.sh replace-packed)) && git pack-refs --all" \
    reset_then_commit
  [ -z "$(git -C "$dir" replace -l)" ] && ! grep -q refs/replace "$dir/.git/packed-refs"
  report $? "replace-packed: the packed replace ref is gone too" "$out" "$(items)"
  # --- 17. an entry stored on top of the user's own stash
  attack stash-store stashed_lefthook_repo \
    "git stash store -m 'WIP on main: tidy' \$(sh $TEST_TMP/stash.sh stash-store)" pop_then_commit
  git -C "$dir" show HEAD:README | grep -q mine && [ -z "$(git -C "$dir" stash list)" ] &&
    git -C "$dir" cat-file -p "$(held):lefthook.yml" | grep -q stash-store &&
    items | grep -q 'stashed content at names that run later (lefthook.yml)'
  report $? "stash-store: the command's entry dropped and held, the user's pop took the user's own stash" \
    "$out" "$(items)" "$(git -C "$dir" stash list)"
  # --- 18. the user's own entry replaced in the reflog
  attack stash-reflog stashed_lefthook_repo \
    "w=\$(sh $TEST_TMP/stash.sh stash-reflog) && sed -i \"s/ [0-9a-f]\\{40\\} / \$w /\" .git/logs/refs/stash && git update-ref refs/stash \$w" \
    pop_then_commit
  # --- 19. refs/stash made a symbolic ref to a branch of the command's
  # (git stash needs the stash's reflog: the user's own stash made it;
  # pop refuses a symbolic ref, apply follows it)
  apply_then_commit() { git -C "$1" stash apply -q >/dev/null 2>&1; commit_outside "$1"; }
  attack stash-symbolic stashed_lefthook_repo \
    "git update-ref refs/heads/tidy \$(sh $TEST_TMP/stash.sh stash-symbolic) && git symbolic-ref refs/stash refs/heads/tidy" \
    apply_then_commit
  [ "$(git -C "$dir" symbolic-ref -q refs/stash)" = "" ] && git -C "$dir" show HEAD:README | grep -q mine
  report $? "stash-symbolic: refs/stash names the user's own entry again, which the user's apply took" \
    "$out" "$(items)"
  # --- 21-24. refs of the user's the command moved, and one it made to
  # take a ref's place by its short name: each trigger is the user's
  # own git going to the ref it trusts
  moved_repo() {
    lefthook_repo "$1"
    git -C "$1" branch feature
    git -C "$1" tag v1
    git -C "$1" update-ref refs/remotes/origin/main HEAD
    git -C "$1" pack-refs --all # as a clone has them
  }
  planted_commit="\$(git commit-tree \$(sh $TEST_TMP/tree.sh NAME) -p HEAD -m tidy)"
  switch_then_commit_feature() { git -C "$1" switch -q feature >/dev/null 2>&1; commit_outside "$1"; }
  merge_then_commit() { git -C "$1" merge -q --ff-only origin/main >/dev/null 2>&1; commit_outside "$1"; }
  tag_then_commit() { git -C "$1" checkout -q v1 >/dev/null 2>&1; commit_outside "$1"; }
  attack moved-branch moved_repo "git update-ref refs/heads/feature ${planted_commit/NAME/moved-branch}" \
    switch_then_commit_feature
  [ "$(git -C "$dir" rev-parse feature~1)" = "$before" ] && items | grep -q "moved refs/heads/feature"
  report $? "moved-branch: the user's branch feature was back at its commit (then the user's commit)" "$out" "$(items)"
  attack moved-remote moved_repo "git update-ref refs/remotes/origin/main ${planted_commit/NAME/moved-remote}" \
    merge_then_commit
  [ "$(git -C "$dir" rev-parse origin/main)" = "$before" ]
  report $? "moved-remote: the packed origin/main is back at its commit" "$out" "$(items)"
  attack moved-tag moved_repo "git tag -f v1 ${planted_commit/NAME/moved-tag}" tag_then_commit
  attack shadowing-ref moved_repo "git update-ref refs/heads/origin/main ${planted_commit/NAME/shadowing-ref}" \
    merge_then_commit
  [ -z "$(git -C "$dir" for-each-ref refs/heads/origin)" ] && items | grep -q 'takes for a ref of the user'
  report $? "shadowing-ref: refs/heads/origin/main, which git merge origin/main would take, is gone" \
    "$out" "$(items)"
  # --- 26-30. files besides refs that name a commit the user's git goes
  # to, as git itself suggests (red team 48, holes 3, 4, 11, 12)
  reflog_fmt="%s %s t <t@example.invalid> \$(date +%s) +0000"
  attack orig-head lefthook_repo "echo ${planted_commit/NAME/orig-head} >.git/ORIG_HEAD" \
    "eval_then_commit 'git reset -q --hard ORIG_HEAD'"
  attack head-reflog lefthook_repo \
    "h=\$(git rev-parse HEAD) c=${planted_commit/NAME/head-reflog} && printf \"$reflog_fmt\\tcommit: tidy\\n$reflog_fmt\\treset: moving to HEAD\\n\" \$h \$c \$c \$h >>.git/logs/HEAD" \
    "eval_then_commit 'git reset -q --hard HEAD@{1}'"
  attack checkout-dash lefthook_repo \
    "h=\$(git rev-parse HEAD) c=${planted_commit/NAME/checkout-dash} && printf \"$reflog_fmt\\tcheckout: moving from %s to main\\n\" \$h \$h \$c >>.git/logs/HEAD" \
    "eval_then_commit 'git checkout -q -'"
  attack rebase-abort lefthook_repo \
    "c=${planted_commit/NAME/rebase-abort} && mkdir .git/rebase-merge && echo refs/heads/main >>.git/rebase-merge/head-name && echo \$c >>.git/rebase-merge/orig-head && git rev-parse HEAD >>.git/rebase-merge/onto && touch .git/rebase-merge/interactive .git/rebase-merge/git-rebase-todo .git/rebase-merge/done" \
    "eval_then_commit 'git rebase --abort'"
  attack bisect-reset lefthook_repo \
    "echo ${planted_commit/NAME/bisect-reset} >>.git/BISECT_START && touch .git/BISECT_LOG" \
    "eval_then_commit 'git bisect reset'"
  items | grep -q "where the user.s git bisect reset would go" &&
    [ "$(git -C "$dir" symbolic-ref HEAD)" = refs/heads/main ]
  report $? "bisect-reset: BISECT_START names main again, where the user's git bisect reset went" \
    "$out" "$(items)"
  # red team 49, 11: a todo list whose pick names the command's commit,
  # in an abbreviated id and a revision (git resolves any name there)
  attack rebase-todo lefthook_repo \
    "c=${planted_commit/NAME/rebase-todo} && h=\$(git rev-parse HEAD) && mkdir .git/rebase-merge && echo refs/heads/main >>.git/rebase-merge/head-name && echo \$h >>.git/rebase-merge/orig-head && echo \$h >>.git/rebase-merge/onto && git update-ref refs/tags/fmt \$c && printf 'pick %.9s tidy\\n  f fmt~0 x\\n' \$c >.git/rebase-merge/git-rebase-todo && touch .git/rebase-merge/interactive .git/rebase-merge/done" \
    "eval_then_commit 'git rebase --continue'"
  [ "$(items | grep -c 'git rebase --continue would go')" = 1 ] && items | grep -q 'made drop'
  report $? "rebase-todo: its lines that pick the command's commit made drop, and reported" "$out" "$(items)"
  # red team 50: a reset line (its short form, an abbreviated id) and a
  # merge line naming a label the command planted (refs/rewritten/fmt,
  # which git reads before the revision fmt): commented out
  rebase_todo_with() {
    echo "c=${planted_commit/NAME/$1} && h=\$(git rev-parse HEAD) && mkdir .git/rebase-merge && echo refs/heads/main >>.git/rebase-merge/head-name && echo \$h >>.git/rebase-merge/orig-head && echo \$h >>.git/rebase-merge/onto && touch .git/rebase-merge/interactive .git/rebase-merge/done && $2 >.git/rebase-merge/git-rebase-todo"
  }
  attack rebase-todo-reset lefthook_repo "$(rebase_todo_with rebase-todo-reset "printf 't %.9s\\n' \$c")" \
    "eval_then_commit 'git rebase --continue'"
  items | grep -q 'git rebase --continue would go.*commented out'
  report $? "rebase-todo-reset: its reset line commented out, and reported" "$out" "$(items)"
  attack rebase-todo-merge lefthook_repo \
    "$(rebase_todo_with rebase-todo-merge "git update-ref refs/rewritten/fmt \$c && echo 'merge fmt # tidy'")" \
    "eval_then_commit 'git rebase --continue'"
  items | grep -q 'git rebase --continue would go.*commented out'
  report $? "rebase-todo-merge: its merge line commented out, and reported" "$out" "$(items)"
  # red team 50, 2: a paused git am session the command made in the run's
  # own gitdir, its next patch (mail text) adding lefthook.yml: moved aside
  attack am-skip lefthook_repo \
    "c=${planted_commit/NAME/am-skip} && d=.git/rebase-apply && mkdir \$d && git format-patch -1 --stdout \$c >\$d/0001 && cp \$d/0001 \$d/0002 && echo 1 >\$d/next && echo 2 >\$d/last && git rev-parse HEAD >\$d/abort-safety && echo false >\$d/quiet && touch \$d/applying" \
    "eval_then_commit 'git am --skip'"
  [ -d "$dir/.git/rebase-apply.sluice-blocked" ] && items | grep -q 'git am --skip or --continue .* would go'
  report $? "am-skip: the session moved to rebase-apply.sluice-blocked, and reported" "$out" "$(items)"
fi
# --- 25. the run's own new branch and tag, with an ordinary commit, stay
dir=$TEST_TMP/own-branch
new_repo "$dir"
run "$SLUICE" run -C "$dir" --format json -- \
  'git switch -q -c agent/fix && echo fix >fix.txt && git add fix.txt && git commit -qm fix && git tag agent-v1 && git switch -q -'
sweep=$(json_get "$out" 'json.dumps(d.get("gitSweep"))' 2>/dev/null)
[ "$sweep" = null ] && git -C "$dir" rev-parse -q --verify agent/fix >/dev/null &&
  git -C "$dir" rev-parse -q --verify agent-v1 >/dev/null
report $? "the run's own new branch and tag stay, nothing reported" "$out"
# --- 20. an executable bin/git among a stash entry's untracked files
attack stash-untracked plain_repo \
  "git stash store -m 'WIP on main: tidy' \$(sh $TEST_TMP/untracked.sh stash-untracked)" pop_then_status
[ ! -e "$dir/bin/git" ] && items | grep -q 'stashed content at names that run later (bin/git)'
report $? "stash-untracked: the entry dropped, the user's pop wrote no bin/git" "$out" "$(items)"
# --- 32. MERGE_AUTOSTASH: a stash-like commit git merge --abort (or the
# commit that concludes the merge) applies to the work tree, its third
# parent (untracked files) an executable bin/git (red team 49, 10)
abort_then_status() { git -C "$1" merge --abort >/dev/null 2>&1; user_status "$1"; }
attack merge-autostash plain_repo \
  "git rev-parse HEAD >.git/MERGE_HEAD && echo x >.git/MERGE_MSG && touch .git/MERGE_MODE && sh $TEST_TMP/untracked.sh merge-autostash >.git/MERGE_AUTOSTASH" \
  abort_then_status
[ ! -e "$dir/bin/git" ] && [ ! -e "$dir/.git/MERGE_AUTOSTASH" ] && items | grep -q 'git merge --abort'
report $? "merge-autostash: MERGE_AUTOSTASH removed and reported, the user's merge --abort wrote no bin/git" "$out" "$(items)"
# --- 31. grafts: the user's own stash entry given a third parent, read as
# its untracked files (red team 48, hole 6)
stashed_plain_repo() {
  plain_repo "$1"
  echo mine >>"$1/README"
  git -C "$1" stash -q
}
attack grafts stashed_plain_repo \
  "u=\$(sh $TEST_TMP/bin-commit.sh grafts) && s=\$(git rev-parse refs/stash) && echo \"\$s \$(git rev-parse \$s^1) \$(git rev-parse \$s^2) \$u\" >.git/info/grafts" \
  pop_then_status
[ ! -e "$dir/.git/info/grafts" ] && [ -e "$dir/.git/info/grafts.sluice-blocked" ] && grep -q mine "$dir/README"
report $? "grafts: info/grafts moved aside, the user's pop took the user's own entry" "$out" "$(items)"
# --- 32. alternates the command adds are set aside, the user's own kept
dir=$TEST_TMP/alternates
new_repo "$dir"
mkdir -p "$TEST_TMP/store/objects"
echo "$TEST_TMP/store/objects" >"$dir/.git/objects/info/alternates"
run "$SLUICE" run -C "$dir" --format json -- \
  "mkdir -p store/objects && echo \$PWD/store/objects >>.git/objects/info/alternates"
[ "$(cat "$dir/.git/objects/info/alternates")" = "$TEST_TMP/store/objects" ] &&
  grep -q "$dir/store/objects" "$dir/.git/objects/info/alternates.sluice-blocked" &&
  items | grep -q "the user's own put back"
report $? "alternates: the command's line set aside, the user's own alternates put back" "$out" "$(items)"

# --- 12. the everyday: a plain add and commit reports nothing
dir=$TEST_TMP/everyday
new_repo "$dir"
before=$(git -C "$dir" rev-parse HEAD)
run env PATH="$dir/bin:$PATH" "$SLUICE" run -C "$dir" --format json -- \
  "mkdir -p src bin && echo 'int main(void){return 0;}' >src/main.c && printf '#!/bin/sh\n' >bin/deploy && chmod +x bin/deploy && git add src bin && git commit -qm feature && git status --short"
sweep=$(json_get "$out" 'json.dumps(d.get("gitSweep"))' 2>/dev/null)
[ "$sweep" = null ] && [ "$(git -C "$dir" rev-parse HEAD~1)" = "$before" ] &&
  [ -n "$(git -C "$dir" ls-files bin/deploy)" ] && [ -z "$(git -C "$dir" for-each-ref refs/sluice)" ]
report $? "a plain add and commit (a project's own bin/deploy too) is kept and reports nothing" "$out"
# a git gc in the run (HEAD's reflog rewritten) where the user's own
# history changed lefthook.yml: nothing reported, the reflog kept
if [ -x "$lefthook" ]; then
  dir=$TEST_TMP/gc
  lefthook_repo "$dir"
  printf 'pre-commit:\n  commands:\n    lint:\n      run: "true"\n' >"$dir/lefthook.yml"
  git -C "$dir" commit -qam "the user's lefthook change"
  echo more >>"$dir/README"
  git -C "$dir" commit -qam more
  entries=$(git -C "$dir" reflog | wc -l)
  ino=$(stat -c %i "$dir/.git/logs/HEAD")
  run "$SLUICE" run -C "$dir" --format json -- 'git gc -q'
  sweep=$(json_get "$out" 'json.dumps(d.get("gitSweep"))' 2>/dev/null)
  [ "$sweep" = null ] && [ -z "$(git -C "$dir" for-each-ref refs/sluice)" ] &&
    [ "$(git -C "$dir" reflog | wc -l)" = "$entries" ] && [ "$(stat -c %i "$dir/.git/logs/HEAD")" != "$ino" ]
  report $? "a git gc in the run (HEAD's reflog rewritten, its $entries entries kept) reports nothing and holds nothing" \
    "$out"
  # the same where the user's own newest checkout line (git checkout -
  # goes to lefthook.yml's old version) lies past the newest 16 KiB of the
  # log: known from before the run, kept (red team 50, 3)
  dir=$TEST_TMP/gc-checkout
  lefthook_repo "$dir"
  printf 'pre-commit:\n  commands:\n    lint:\n      run: "true"\n' >"$dir/lefthook.yml"
  git -C "$dir" commit -qam "the user's lefthook change"
  git -C "$dir" checkout -q --detach HEAD~1 && git -C "$dir" checkout -q main
  h=$(git -C "$dir" rev-parse HEAD)
  for i in $(seq 150); do
    printf '%s %s t <t@example.invalid> %s +0000\tcommit (amend): the user%s\n' "$h" "$h" "$(date +%s)" "$i"
  done >>"$dir/.git/logs/HEAD"
  run "$SLUICE" run -C "$dir" --format json -- 'git gc -q'
  sweep=$(json_get "$out" 'json.dumps(d.get("gitSweep"))' 2>/dev/null)
  [ "$sweep" = null ] && [ "$(git -C "$dir" reflog | grep -c 'checkout: moving from')" = 2 ]
  report $? "a git gc in the run, the user's newest checkout line past 16 KiB of the log: kept, nothing reported" \
    "$out" "$(git -C "$dir" reflog | grep checkout)"
fi
# and a stash of an ordinary change, made in the run, stays
run "$SLUICE" run -C "$dir" --format json -- 'echo two >>README && git stash -q && git stash list'
sweep=$(json_get "$out" 'json.dumps(d.get("gitSweep"))' 2>/dev/null)
[ "$sweep" = null ] && [ "$(git -C "$dir" stash list | wc -l)" = 1 ] &&
  git -C "$dir" stash pop -q && grep -q two "$dir/README"
report $? "a stash the run made of an ordinary change stays, and pops, nothing reported" "$out"

# --- 13. a protected file the user staged before the run stays staged
if [ -x "$lefthook" ]; then
  dir=$TEST_TMP/user-staged
  lefthook_repo "$dir"
  printf 'pre-commit:\n  commands:\n    lint:\n      run: "true"\n' >"$dir/lefthook.yml"
  git -C "$dir" add lefthook.yml
  run "$SLUICE" run -C "$dir" --format json -- 'echo x >notes.txt && git add notes.txt'
  sweep=$(json_get "$out" 'json.dumps(d.get("gitSweep"))' 2>/dev/null)
  [ "$sweep" = null ] && git -C "$dir" diff --cached --name-only | grep -qx lefthook.yml
  report $? "a lefthook.yml the user staged before the run stays staged, nothing reported" "$out"
  # and a run that commits it (git commit -a of the user's own edit) is left alone
  before=$(git -C "$dir" rev-parse HEAD)
  run "$SLUICE" run -C "$dir" --format json -- 'git commit --no-verify -qm "the user'"'"'s work"'
  sweep=$(json_get "$out" 'json.dumps(d.get("gitSweep"))' 2>/dev/null)
  [ "$sweep" = null ] && [ "$(git -C "$dir" rev-parse HEAD~1)" = "$before" ] &&
    git -C "$dir" show --name-only --format= HEAD | grep -qx lefthook.yml
  report $? "the run's commit of the user's own staged lefthook.yml stays, nothing reported" "$out"
fi

# --- 14. the text a model reads and the audit line say it
printf '[audit]\nfile = %s\n' "$TEST_TMP/audit.log" >"$TEST_TMP/audit.ini"
dir=$TEST_TMP/text
new_repo "$dir"
run env PATH="$dir/bin:$PATH" "$SLUICE" run -C "$dir" --config "$TEST_TMP/audit.ini" -- \
  "$(plant_git text) && $G add bin/git && $G commit -qm helper"
grep -q 'refs/sluice/held/' <<<"$out" && grep -q 'bin/git' <<<"$out" &&
  tail -n 1 "$TEST_TMP/audit.log" | grep -q '"swept":3'
report $? "the text a model reads names bin/git and the held ref, the audit line counts the three items (the branch, the index, HEAD's reflog)" \
  "$out" "$(tail -n 1 "$TEST_TMP/audit.log" 2>&1)"
