#!/usr/bin/env bash
# The user hardened npm (`ignore-scripts=true` in ~/.npmrc, the usual
# advice), so a routine `npm install` in a project runs none of its
# package.json scripts. A project .npmrc outranks the user's file:
# `ignore-scripts=false` there brings the root package's postinstall back.
# Trigger: `npm install` (here `--offline`, no dependency).
NAME=npmrc-ignore-scripts
. "$(dirname "$0")/51b-lib.sh"
printf 'ignore-scripts=true\n' >"$base/user-npmrc"
export NPM_CONFIG_USERCONFIG=$base/user-npmrc npm_config_cache=$base/npm-cache
plant='printf "{\"name\":\"p\",\"version\":\"1.0.0\",\"scripts\":{\"postinstall\":\"echo ran postinstall as \$(id -un) >>%s\"}}\n" "$MARK" >package.json && printf "ignore-scripts=false\n" >.npmrc && echo planted'
trigger() { npm install --offline --no-audit --no-fund; }
# first: without the .npmrc the user's hardening holds (the plant's
# package.json alone runs nothing)
new_repo; (cd "$P" && MARK=$MARK bash -c "$plant" && rm .npmrc && trigger) >/dev/null 2>&1
if marked; then echo "ignore-scripts=true did not hold by itself"; verdict="control failed"; finish; fi
echo "without .npmrc: the user's ignore-scripts held"
run_case
