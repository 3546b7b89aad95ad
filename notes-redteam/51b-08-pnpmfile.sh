#!/usr/bin/env bash
# .pnpmfile.cjs (also .pnpmfile.mjs, or any file named by `pnpmfile:` in
# pnpm-workspace.yaml or `pnpmfile=` in .npmrc): pnpm requires it in every
# command that reads the project, read-only ones too, whatever
# ignore-scripts says. Trigger: `pnpm ls` (also `pnpm install`,
# `pnpm outdated`, `pnpm why`).
NAME=pnpmfile
. "$(dirname "$0")/51b-lib.sh"
export PATH=/work/main/third_party/dev-tools/node_modules/.bin:$PATH
command -v pnpm >/dev/null || { echo "no pnpm"; exit 2; }
printf 'ignore-scripts=true\n' >"$base/user-npmrc"
export NPM_CONFIG_USERCONFIG=$base/user-npmrc
plant='printf "require(\"fs\").appendFileSync(%s, \"ran .pnpmfile.cjs for pnpm \" + process.argv.slice(2).join(\" \") + \" uid \" + process.getuid() + \"\\\\n\");\nmodule.exports = { hooks: {} };\n" "\"$MARK\"" >.pnpmfile.cjs && echo planted'
trigger() { pnpm ls; }
run_case
