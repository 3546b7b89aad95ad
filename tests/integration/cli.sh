#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sluice command line as a user meets it: version, help, unknown verbs.
. "$SLUICE_SRCDIR/tests/lib.sh"

run "$SLUICE" --version
expect "--version prints the package version" 0 '^sluice [0-9]+\.[0-9]+\.[0-9]+$'

run "$SLUICE" --help
expect "--help lists the verbs" 0 '^  version '

run "$SLUICE"
expect "no verb is an error of sluice's own (125) with the usage" 125 '' 'Usage: sluice VERB'

run "$SLUICE" frobnicate
expect "an unknown verb is named in the error" 125 '' "^sluice: unknown verb 'frobnicate'"
