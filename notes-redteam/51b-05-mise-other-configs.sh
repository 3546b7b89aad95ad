#!/usr/bin/env bash
# mise reads, besides mise*.toml / .mise*.toml at the top (protected),
# .config/mise.toml, .config/mise/config.toml, .config/mise/conf.d/*.toml,
# mise/config.toml, .mise/config.toml (and their .local variants). Its trust
# is per folder ("mise trusted ~/proj"): once the user trusted the project's
# own mise.toml, every one of these runs unasked. Here one of them gets an
# [env] exec template; `mise hook-env` (what `mise activate` runs at each
# prompt in the folder) runs it. Usage: 05-mise-other-configs.sh [RELPATH]
NAME=mise-conf
REL=${1:-${REL:-.config/mise/conf.d/zz.toml}}
. "$(dirname "$0")/51b-lib.sh"
command -v mise >/dev/null || { echo "no mise"; exit 2; }
export XDG_DATA_HOME=$base/xdg-data XDG_CONFIG_HOME=$base/xdg-config XDG_STATE_HOME=$base/xdg-state XDG_CACHE_HOME=$base/xdg-cache
setup() {
  printf '[env]\nPROJECT_ENV = "dev"\n' >mise.toml && git add mise.toml &&
  git -c user.name=t -c user.email=t@e.invalid commit -qm mise && mise trust -q mise.toml 2>/dev/null
}
plant='mkdir -p "$(dirname '"$REL"')" && printf "[env]\nZZ = \"{{exec(command='"'"'%s'"'"')}}\"\n" "echo ran '"$REL"' as \$(id -un) >>$MARK; echo x" >'"$REL"' && echo planted'
trigger() { mise hook-env -s bash >/dev/null; }
echo "planting $REL"
run_case
