#!/usr/bin/env bash
# red team 49: a merge "in progress" in the user's other worktree, with a
# MERGE_AUTOSTASH of the command's. MERGE_HEAD names that worktree's own
# HEAD (nothing to hold); MERGE_AUTOSTASH names a stash-like commit whose
# tree is HEAD's plus an executable bin/git. `git status` there says "All
# conflicts fixed but you are still merging. (use "git commit" to
# conclude merge)"; the user's `git commit` (or `git merge --abort`)
# ends the merge and applies the autostash ("Applied autostash."),
# writing bin/git. git-later-pointers.c reads none of MERGE_HEAD,
# MERGE_AUTOSTASH. The run is in the main worktree and writes git objects
# and plain files under .git/worktrees/w2/ only; `git status` in w2 with
# direnv's PATH_add bin then runs bin/git.
# usage: 49-w2-merge-autostash.sh /path/to/sluice   (as root or a user)
NAME=w2-merge-autostash
HOLE="w2's MERGE_AUTOSTASH named the command's stash-like commit; the user's git commit in w2 (concluding the merge, as git status said) applied it and wrote bin/git, git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature; }
run_dir() { echo "$1/main"; }
attack() {
  plant "$1" feature
  cat <<'EOA'
&& f=$($G rev-parse feature) && I=$($G commit-tree -p $f -m index $($G rev-parse feature^{tree}))
&& S=$($G commit-tree -p $f -p $I -m 'WIP on feature' $t) && d=.git/worktrees/w2
&& echo $f >>$d/MERGE_HEAD && echo $S >>$d/MERGE_AUTOSTASH && echo "Merge branch 'feature'" >>$d/MERGE_MSG && touch $d/MERGE_MODE
EOA
}
trigger() {
  echo "   w2's git status: $(git -C "$1/w2" status 2>&1 | grep -m1 'conclude merge')"
  git -C "$1/w2" commit -q --no-edit >/dev/null 2>&1; user_status "$1/w2"
}
finish
