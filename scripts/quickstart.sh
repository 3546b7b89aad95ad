#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's first command: set up, build, and show sluice on its built-in
# defaults, straight from the build tree.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"
bin="$top/build/release"

show() {
  printf '\n$ %s\n' "$*"
  "$@" && status=0 || status=$?
  printf '(exit status %d)\n' "$status"
}

show "$bin/sluice" --version

# The main job on the built-in defaults: a harmless command through
# `sluice run`, then commands the policies block before anything runs, one
# the sandbox stops, and how sluice understood a command.
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
# A home of its own: the user's configuration is not read (the built-in
# defaults are shown), and the blocked command below, were it ever let
# through, could only reach this scratch directory.
export HOME="$demo/home" XDG_CONFIG_HOME="$demo/home/.config"
project="$HOME/project"
mkdir -p "$project"
# The built-in default mode is workspace-write: the project is writable,
# everything else read-only, secrets such as ~/.ssh hidden, no network.
show "$bin/sluice" run -C "$project" -- 'echo hello from sluice >hello.txt; cat hello.txt; pwd'
show "$bin/sluice" run -C "$project" -- 'git push --force origin main'
show "$bin/sluice" run -C "$project" -- 'cd ~ && sudo rm -rf *'
show "$bin/sluice" run -C "$project" -- 'echo planted >>~/.bashrc'
show "$bin/sluice" run -C "$HOME" -- 'ls'
show "$bin/sluice" check --explain -- 'G=git; $G add -A && bash -c "rm -rf ~/"'
show "$bin/sluice" doctor
