#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
. "$SLUICE_SRCDIR/tests/lib.sh"
