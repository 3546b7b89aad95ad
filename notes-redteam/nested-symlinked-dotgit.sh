#!/usr/bin/env bash
# Class: configuration git follows from elsewhere (issue 30 §4). A gitlink
# whose `.git` is a SYMLINK to a gitdir elsewhere in the work tree: git
# follows it, the sweep's gitlink reader took only a folder or a "gitdir:"
# file. Variant `file`: `.git` a file naming a gitdir through a symlinked
# folder. The user's plain git status at the top.
# Usage: nested-symlinked-dotgit.sh [link|control]
. "$(dirname "$0")/env.sh"
plant='git init -q sub && git -C sub commit -q --allow-empty -m s && mv sub/.git .stash-g && ln -s ../.stash-g sub/.git &&
  printf "[core]\n\tfsmonitor = touch ~/PWNED-symdotgit; false\n" >>.stash-g/config && git add sub 2>/dev/null'
if [ "$1" = control ]; then (cd "$REPO" && eval "$plant"); else boxed "$plant; echo planted" 2>&1 | grep -E "planted|  /|error"; fi
rm -f "$HOME/PWNED-symdotgit"; (cd "$REPO" && echo x >sub/f && git status --short >/dev/null 2>&1)
if [ -e "$HOME/PWNED-symdotgit" ]; then echo "HOLE${1:+ ($1)}: the user's git status ran the fsmonitor"; else echo "stopped${1:+ ($1)}"; fi
