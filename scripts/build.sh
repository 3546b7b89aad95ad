#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Set up (scripts/setup.sh), then configure and build sluice out of tree in
# build/release. Extra arguments go to configure, which then runs again even
# when the tree is already configured.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh"
cd "$top"
[ -x configure ] || ./autogen.sh
mkdir -p build/release
cd build/release
if [ $# -gt 0 ] || [ ! -f Makefile ]; then
  "$top/configure" --enable-werror "$@"
fi
make -j"$(nproc)"
