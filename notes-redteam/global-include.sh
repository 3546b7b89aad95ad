#!/usr/bin/env bash
# Class: git configuration git follows from elsewhere (issue 30 §4). The
# user's global configuration includes a file in a folder the agent works
# in (a dotfiles or team folder), or names a folder of it as core.hooksPath.
# The command appends a core.fsmonitor to that file (or writes a hook), and
# the user's git in ANY repository runs it.
# The launcher follows the global configuration's includes and hooksPath
# only when the workspace is a repository's top (it reads git's
# configuration only when it finds WORKSPACE/.git): a plain folder, or a
# package folder of a monorepo, is not protected.
# Usage: global-include.sh [repo|plain|subdir] [include|hooks]
. "$(dirname "$0")/env.sh"
kind=${1:-plain} how=${2:-include}
other=$HOME/other; mkdir -p "$other"; git -C "$other" init -q
case $kind in
  repo) ws=$HOME/dots; mkdir -p "$ws"; git -C "$ws" init -q ;;
  plain) ws=$HOME/dots; mkdir -p "$ws" ;;
  subdir) mkdir -p "$HOME/mono/dots"; git -C "$HOME/mono" init -q; ws=$HOME/mono/dots ;;
esac
if [ "$how" = hooks ]; then
  mkdir -p "$ws/hooks"; printf '#!/bin/sh\nexit 0\n' >"$ws/hooks/pre-commit"; chmod +x "$ws/hooks/pre-commit"
  git config --global core.hooksPath "$ws/hooks"
  "$SLUICE" run -C "$ws" -- 'printf "#!/bin/sh\ntouch ~/PWNED-global\n" >hooks/pre-commit && echo planted'
  (cd "$other" && git commit -q --allow-empty -m x >/dev/null 2>&1)
else
  printf '[alias]\n\tst = status\n' >"$ws/gitconfig"
  git config --global include.path "$ws/gitconfig"
  "$SLUICE" run -C "$ws" -- 'printf "[core]\n\tfsmonitor = touch ~/PWNED-global; false\n" >>gitconfig && echo planted'
  (cd "$other" && git status >/dev/null 2>&1)
fi
if [ -e "$HOME/PWNED-global" ]; then echo "HOLE ($kind, $how): the user's git in another repository ran the command's code"; else echo "stopped ($kind, $how)"; fi
