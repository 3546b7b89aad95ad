#!/usr/bin/env bash
# red team 46, holes 2 and 3: the PATH shadow check (broker/run/protect-watch.c)
#  2. skips a PATH folder of the workspace that the command made a symlink
#     (open_folder's O_NOFOLLOW gives ELOOP, taken as "no folder"): bin ->
#     .tools, .tools/git planted; the user's shell follows the link.
#  3. compares the user's PATH entries with the workspace as text: an entry
#     that reaches the workspace through a symlink (GNU stow's ~/bin ->
#     ~/dotfiles/bin, the agent working in the dotfiles repository) is not
#     checked, and bin/ls planted there runs in the user's next ls anywhere.
# usage: 46-path-symlink-folder.sh /path/to/sluice   (as root or a user)
set -u
S=${1:?path to sluice}
base=$(mktemp -d /var/tmp/rt46-path.XXXXXX) || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
holes=0
P=$HOME/proj
mkdir -p "$P" && git -C "$P" init -q && echo a >"$P/a" && git -C "$P" add a && git -C "$P" commit -qm a
echo "== 2. control: a plain bin/git is blocked"
PATH=$P/bin:$PATH "$S" run -C "$P" -- 'mkdir -p bin && printf "#!/bin/sh\necho planted\n" >bin/git && chmod +x bin/git' >/dev/null
ls "$P/bin"; rm -rf "$P/bin"
echo "== 2. bin a symlink to a folder of the workspace"
PATH=$P/bin:$PATH "$S" run -C "$P" -- 'mkdir -p .tools && printf "#!/bin/sh\necho PWNED >\$HOME/pwned-2\n" >.tools/git && chmod +x .tools/git && ln -s .tools bin' >/dev/null
(cd "$P" && PATH=$P/bin:$PATH git status >/dev/null 2>&1)
if [ -e "$HOME/pwned-2" ]; then echo "HOLE 2: the user's git ran the planted one"; holes=$((holes + 1)); else echo "stopped 2"; fi
D=$HOME/dotfiles
mkdir -p "$D/bin" && git -C "$D" init -q && printf '#!/bin/sh\necho hi\n' >"$D/bin/hello" && chmod +x "$D/bin/hello" &&
  git -C "$D" add -A && git -C "$D" commit -qm a && ln -s "$D/bin" "$HOME/bin"
echo "== 3. ~/bin -> ~/dotfiles/bin on the PATH, the agent in ~/dotfiles"
PATH=$HOME/bin:$PATH "$S" run -C "$D" -- 'printf "#!/bin/sh\necho PWNED >\$HOME/pwned-3\n" >bin/ls && chmod +x bin/ls' >/dev/null
(cd / && PATH=$HOME/bin:$PATH bash -c 'ls >/dev/null')
if [ -e "$HOME/pwned-3" ]; then echo "HOLE 3: the user's ls ran the planted one"; holes=$((holes + 1)); else echo "stopped 3"; fi
exit $holes
