#!/usr/bin/env bash
# red team 49: a submodule whose work tree holds the folder on the user's
# PATH (tools/bin, direnv's PATH_add tools/bin). is_submodule_worktree()
# keeps core.worktree when it names a folder of the workspace whose .git
# names the gitdir back, "where git's checkouts write only what the
# command could have written itself". Not so for the names that run
# later: the sandbox renames a tools/bin/git the command writes itself
# (".sluice-blocked"). The command makes a submodule at `tools` in git's
# own layout (.git/modules/tools, tools/.git naming it, core.worktree =
# ../../../tools, .gitmodules and the gitlink committed at the top),
# whose commit holds an executable bin/git, written as git objects only
# (never in the work tree). The user's `git status` at the top shows
# " m tools"; their `git submodule update --init --force` would check the
# submodule out and write tools/bin/git. STOPPED as shipped: the check of
# what git restores later (git-later.c) takes the gitlink at `tools`, a
# folder holding a name that runs later, as planting, moves main back and
# unstages it. 49-nested-path-folder.sh is what is left.
# usage: 49-submodule-at-path-folder.sh /path/to/sluice   (as root or a user)
NAME=submodule-at-path-folder
HOLE="a submodule at tools/ (core.worktree kept: git's layout) whose commit holds an executable bin/git; the user's git submodule update --init --force wrote tools/bin/git, git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1"; }
path_dir() { echo "$1/tools/bin"; }
attack() {
  cat <<EOA
G='env PATH=/usr/bin:/bin git' && mkdir -p .git/modules &&
\$G init -q --separate-git-dir=.git/modules/tools tools &&
b=\$(printf '#!/bin/sh\\ntouch $1\\nexec /usr/bin/git "\$@"\\n' | \$G -C tools hash-object -w --stdin) &&
\$G -C tools update-index --add --cacheinfo 100755,\$b,bin/git && \$G -C tools commit -qm tools &&
printf '[submodule "tools"]\\n\\tpath = tools\\n\\turl = ./tools\\n' >>.gitmodules &&
\$G add .gitmodules tools && \$G commit -qm 'add tools' &&
\$G config -f .git/modules/tools/config core.worktree ../../../tools
EOA
}
trigger() {
  echo "   git status: $(cd "$1" && git status --short 2>&1 | tr '\n' ' ')"
  (cd "$1" && git submodule update --init --force) >/dev/null 2>&1; user_status "$1"
}
finish
