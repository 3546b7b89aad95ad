#!/usr/bin/env bash
# Class: configuration git follows from elsewhere (issue 30 §4). Variants
# of the nested repository the sweep looks for (the gitlinks of the index):
#  sep:  its .git is a FILE naming a gitdir elsewhere in the workspace
#        (git init --separate-git-dir), config there;
#  wt:   its config key is in config.worktree (extensions.worktreeConfig);
#  inc:  its config includes a file of the work tree with the key.
# The user's plain `git status` at the top: does it run the fsmonitor?
. "$(dirname "$0")/env.sh"
case ${1:-sep} in
  sep) plant='mkdir -p .cache-x && git init -q --separate-git-dir="$PWD/.cache-x/sub.git" sub && git -C sub commit -q --allow-empty -m s &&
         printf "[core]\n\tfsmonitor = touch ~/PWNED-nested; false\n" >>.cache-x/sub.git/config && git add sub' ;;
  wt) plant='git init -q sub && git -C sub commit -q --allow-empty -m s &&
         printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = true\n" >>sub/.git/config &&
         printf "[core]\n\tfsmonitor = touch ~/PWNED-nested; false\n" >sub/.git/config.worktree && git add sub' ;;
  inc) plant='git init -q sub && git -C sub commit -q --allow-empty -m s &&
         printf "[core]\n\tfsmonitor = touch ~/PWNED-nested; false\n" >sub/notes.txt &&
         printf "[include]\n\tpath = ../notes.txt\n" >>sub/.git/config && git add sub' ;;
esac
boxed "$plant; echo planted" 2>&1 | grep -E "planted|sluice:|  /" | head -5
(cd "$REPO" && git status --short >/dev/null 2>&1)
if [ -e "$HOME/PWNED-nested" ]; then echo "HOLE (${1:-sep}): the user's git status ran the planted fsmonitor"; else echo "stopped (${1:-sep})"; fi
