#!/usr/bin/env bash
# red team 48: another worktree's index. The user has a linked worktree
# (git worktree add ../w2 -b feature); its index is .git/worktrees/w2/index
# in the repository's common directory, which a run in the main worktree
# may write. The command stages its own executable bin/git in w2's index
# (GIT_INDEX_FILE=.git/worktrees/w2/index git read-tree; git objects and
# that index only). The check after the run reads the run's own index and
# branch. In w2, `git status` shows "AD bin/git"; the user's `git checkout
# .` (or `git restore .`) there writes it, and the next `git status` with
# direnv's PATH_add bin in w2 runs it. (The same with w2's HEAD,
# .git/worktrees/w2/HEAD, pointed at the command's commit, and `git reset
# --hard` in w2; and from a run in w2 with the main worktree's index.)
# usage: 48-worktree-index.sh /path/to/sluice   (as root or a user)
NAME=worktree-index
HOLE="the user's git checkout . in their other worktree wrote the command's bin/git; the next git status there ran it"
. "$(dirname "$0")/48-lib.sh"
setup() { new_repo "$1" && git -C "$1" worktree add -q "$1.wt/w2" -b feature; }
attack() { plant "$1"; echo '&& GIT_INDEX_FILE=.git/worktrees/w2/index $G read-tree $C'; }
trigger() {
  local w=$1.wt/w2
  echo "   in w2, git status --short: $(git -C "$w" status --short 2>&1 | tr '\n' ' ')"
  git -C "$w" checkout -q -- . >/dev/null 2>&1; user_status "$w"
}
finish
