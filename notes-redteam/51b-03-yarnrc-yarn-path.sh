#!/usr/bin/env bash
# .yarnrc (yarn classic) `yarn-path "FILE"`: every yarn 1.x command runs
# FILE with node instead of itself. Trigger: `yarn --version`.
NAME=yarnrc
. "$(dirname "$0")/51b-lib.sh"
command -v yarn >/dev/null || { echo "no yarn"; exit 2; }
plant='cat >.yarn-release.cjs <<EOS
require("fs").appendFileSync("$MARK", "ran " + __filename + " for yarn " + process.argv.slice(2).join(" ") + " uid " + process.getuid() + "\n");
console.log("1.22.22");
EOS
printf "yarn-path \".yarn-release.cjs\"\n" >.yarnrc && echo planted'
trigger() { yarn --version; }
run_case
