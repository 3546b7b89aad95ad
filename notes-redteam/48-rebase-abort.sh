#!/usr/bin/env bash
# red team 48: a rebase "in progress", left by the run. git keeps a
# rebase's state in .git/rebase-merge/ (head-name, orig-head, onto, the
# todo list); `git rebase --abort` puts head-name back on orig-head and
# checks it out. The command writes that folder with head-name
# refs/heads/main and orig-head a commit of its own (HEAD's tree plus an
# executable bin/git; git objects and plain files under .git only), and
# a conflict at the plain file a in the index (not a name that runs). The
# user's `git status` says "interactive rebase in progress ... (use "git
# rebase --abort" to check out the original branch)"; they abort the
# rebase they never started, git moves main to the command's commit and
# writes bin/git, and the next `git status` with direnv's PATH_add bin
# runs it. The check after a run reads none of .git/rebase-merge/ (nor
# rebase-apply/, sequencer/, which cherry-pick/revert --abort read).
# usage: 48-rebase-abort.sh /path/to/sluice   (as root or a user)
NAME=rebase-abort
HOLE="the user's git rebase --abort (as git status told them) moved main to the command's commit and wrote its bin/git; git status ran it"
. "$(dirname "$0")/48-lib.sh"
setup() { new_repo "$1"; }
attack() {
  plant "$1"
  echo '&& mkdir .git/rebase-merge && echo refs/heads/main >>.git/rebase-merge/head-name && echo $C >>.git/rebase-merge/orig-head'
  echo '&& $G rev-parse HEAD >>.git/rebase-merge/onto && touch .git/rebase-merge/interactive .git/rebase-merge/git-rebase-todo .git/rebase-merge/done'
  # a conflict at a plain file (a): git status then shows the --abort hint
  echo '&& x=$($G rev-parse HEAD:a) && printf "0 %040d\ta\n100644 %s 1\ta\n100644 %s 2\ta\n100644 %s 3\ta\n" 0 $x $x $x | $G update-index --index-info'
}
trigger() {
  local st; st=$(git -C "$1" status 2>&1); echo "   git status: $(printf "%s\n" "$st" | grep -m1 'rebase --abort')"
  git -C "$1" rebase --abort >/dev/null 2>&1; user_status "$1"
}
finish
