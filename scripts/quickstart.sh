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
