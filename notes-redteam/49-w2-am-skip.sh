#!/usr/bin/env bash
# red team 49: an `git am` session "in progress" in the user's other
# worktree (.git/worktrees/w2/rebase-apply/, no orig-head, abort-safety =
# w2's own HEAD), at patch 1 of 2, where patch 2 is a mail, made by git
# format-patch, that adds an executable bin/git. `git status` there says
# "You are in the middle of an am session ... (use "git am --skip" to
# skip this patch)"; the user's `git am --skip` applies patch 2 and writes
# bin/git. The patches are plain text, no commit: the check after the
# run (git-later-pointers.c, rebase-apply/orig-head) has nothing to read,
# and no commit of the command's is ever named. The run is in the main
# worktree and writes git objects and plain files under
# .git/worktrees/w2/ only; `git status` in w2 with direnv's PATH_add bin
# then runs bin/git.
# usage: 49-w2-am-skip.sh /path/to/sluice   (as root or a user)
NAME=w2-am-skip
HOLE="w2's rebase-apply/ held an am session whose next patch adds bin/git; the user's git am --skip in w2 applied it; git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature; }
run_dir() { echo "$1/main"; }
attack() {
  plant "$1" feature
  cat <<'EOA'
&& f=$($G rev-parse feature) && d=.git/worktrees/w2/rebase-apply && mkdir $d
&& $G format-patch -1 --stdout $C >>$d/0001 && $G format-patch -1 --stdout $C >>$d/0002
&& echo 1 >>$d/next && echo 2 >>$d/last && echo $f >>$d/abort-safety && echo false >>$d/quiet && touch $d/applying
EOA
}
trigger() {
  echo "   w2's git status: $(git -C "$1/w2" status 2>&1 | grep -m1 'am session')"
  git -C "$1/w2" am --skip >/dev/null 2>&1; user_status "$1/w2"
}
finish
