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
show "$bin/sluice" --help

# The main job: a harmless command through `sluice run`, and a blocked one
# with its message (a write the workspace-write sandbox forbids; with the
# policy chain wired in, `git push --force` shows a policy denial too).
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
show "$bin/sluice" run -C "$demo" -- 'echo hello from sluice; pwd'
show "$bin/sluice" run -C "$demo" --sandbox workspace-write -- 'touch /etc/sluice-demo'
