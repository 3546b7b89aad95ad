#!/usr/bin/env bash
# Class: git configuration git follows from elsewhere (issue 30 §4). The
# launcher follows the includes of the repository's .git/config, not those
# of the user's global configuration. A user whose ~/.gitconfig includes a
# file of a dotfiles or team repository (here ~/proj/gitconfig, tracked
# there), or whose global core.hooksPath names a folder of it, and who has
# the agent work in that repository: the command appends a core.fsmonitor
# to the included file, and the user's git status in ANY repository runs it.
# Usage: global-include.sh [hooks]   (hooks: a global core.hooksPath = ~/proj/hooks)
. "$(dirname "$0")/env.sh"
other=$HOME/other; mkdir -p "$other"; git -C "$other" init -q
if [ "$1" = hooks ]; then
  mkdir -p "$REPO/hooks"; printf '#!/bin/sh\nexit 0\n' >"$REPO/hooks/pre-commit"; chmod +x "$REPO/hooks/pre-commit"
  git -C "$REPO" add hooks; git -C "$REPO" commit -qm hooks
  git config --global core.hooksPath "$REPO/hooks"
  boxed 'printf "#!/bin/sh\ntouch ~/PWNED-global\n" >hooks/pre-commit && echo planted'
  (cd "$other" && git commit -q --allow-empty -m x >/dev/null 2>&1)
else
  printf '[alias]\n\tst = status\n' >"$REPO/gitconfig"
  git -C "$REPO" add gitconfig; git -C "$REPO" commit -qm gitconfig
  git config --global include.path "$REPO/gitconfig"
  boxed 'printf "[core]\n\tfsmonitor = touch ~/PWNED-global; false\n" >>gitconfig && echo planted'
  (cd "$other" && git status >/dev/null 2>&1)
fi
if [ -e "$HOME/PWNED-global" ]; then echo "HOLE: the user's git in another repository ran the command's code"; else echo "stopped"; fi
