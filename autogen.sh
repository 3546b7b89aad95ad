#!/bin/sh
# SPDX-License-Identifier: MIT
# Generate configure and the Makefile.in files from a git checkout.
set -e
cd "$(dirname "$0")"
autoreconf --force --install --warnings=all
echo "autogen: now run ./configure (see README.md)"
