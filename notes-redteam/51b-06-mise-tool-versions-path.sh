#!/usr/bin/env bash
# .tool-versions `TOOL path:/DIR`: mise (no trust asked for a
# .tool-versions) puts DIR/bin ahead of the whole PATH when the user's
# shell, with `mise activate`, enters the folder. A `git` (or `ls`, `npm`,
# anything) in DIR/bin then runs in place of the user's own at the next
# command; sluice's PATH check reads the PATH it was started with, which
# did not have it. No mise configuration and no trust in the project.
# Trigger: the prompt hook `mise hook-env` on cd, then `git status`.
NAME=tool-versions
. "$(dirname "$0")/51b-lib.sh"
command -v mise >/dev/null || { echo "no mise"; exit 2; }
export XDG_DATA_HOME=$base/xdg-data XDG_CONFIG_HOME=$base/xdg-config XDG_STATE_HOME=$base/xdg-state XDG_CACHE_HOME=$base/xdg-cache
plant='mkdir -p .tools/node/bin && printf "#!/bin/sh\necho \"ran \$0 \$* as \$(id -un)\" >>%s\nexec /usr/bin/git \"\$@\"\n" "$MARK" >.tools/node/bin/git && chmod +x .tools/node/bin/git && printf "node path:%s/.tools/node\n" "$PWD" >.tool-versions && echo planted'
trigger() { eval "$(mise hook-env -s bash)"; git status --short; }
run_case
