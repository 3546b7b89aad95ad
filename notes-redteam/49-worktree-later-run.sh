#!/usr/bin/env bash
# red team 49: a submodule's core.worktree checked once, then its folder
# replaced. is_submodule_worktree() keeps core.worktree when the folder
# it names (symbolic links resolved) is in the workspace and its .git
# names the gitdir back, and says "the run is over: its processes cannot
# move the paths between these checks and git's use". But the folder is
# the workspace's: any later run may replace it, and the sweep looks at a
# nested gitdir's config only when the run made or changed it
# (sweep_nested()), which a later run, that only touches the work tree,
# does not. Run 1 makes a submodule in git's layout (.git/modules/lib,
# lib/.git naming it), its commit holding a file named as the mark, and
# a second folder `side` whose .git names the same gitdir, with
# core.worktree = ../../../side: kept, every check true. Run 2 (a later
# command, a background job's just as well) replaces `side` with a
# symbolic link to the user's home. The user's `git -C lib reset --hard`
# then writes the submodule's files into the home.
# usage: 49-worktree-later-run.sh /path/to/sluice   (as root or a user)
NAME=worktree-later-run
HOLE="core.worktree kept in run 1; its folder made a link to the home in run 2, the config not looked at again; the user's git -C lib reset --hard wrote into the home"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1"; }
attack() {
  cat <<EOA
G='env PATH=/usr/bin:/bin git' && mkdir -p .git/modules &&
\$G init -q --separate-git-dir=.git/modules/lib side &&
\$G init -q --separate-git-dir=.git/modules/lib lib && echo x >lib/${1##*/} &&
\$G -C lib add ${1##*/} && \$G -C lib commit -qm x &&
\$G config -f .git/modules/lib/config core.worktree ../../../side && rm -f lib/${1##*/}
EOA
}
attack2() { echo "rm -rf side && ln -s ${1%/*} side"; }
trigger() { git -C "$1/lib" reset -q --hard >/dev/null 2>&1; }
finish
