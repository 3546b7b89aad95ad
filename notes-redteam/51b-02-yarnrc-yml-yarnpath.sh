#!/usr/bin/env bash
# .yarnrc.yml `yarnPath: FILE`: every yarn command in the folder (classic
# 1.22 and berry alike, corepack's too) runs FILE with node instead of
# itself. Trigger: `yarn --version` (or `yarn install`, any yarn command).
NAME=yarnrc-yml
. "$(dirname "$0")/51b-lib.sh"
command -v yarn >/dev/null || { echo "no yarn"; exit 2; }
plant='cat >.yarn-release.cjs <<EOS
require("fs").appendFileSync("$MARK", "ran " + __filename + " for yarn " + process.argv.slice(2).join(" ") + " uid " + process.getuid() + "\n");
console.log("1.22.22");
EOS
printf "yarnPath: .yarn-release.cjs\n" >.yarnrc.yml && echo planted'
trigger() { yarn --version; }
run_case
