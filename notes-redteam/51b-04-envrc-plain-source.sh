#!/usr/bin/env bash
# .envrc (protected) says `source .venv/bin/activate` -- the commonest
# direnv idiom for a Python project. protect-loaded.c reads only dotenv,
# dotenv_if_exists, source_env and source_env_if_exists, not bash's
# `source` / `.`, so the script it sources stays writable, and direnv
# (whose allow covers the .envrc text only) runs it on the user's next cd.
# Trigger: entering the folder (`direnv export bash`, what the shell hook
# runs at each prompt).
NAME=envrc-source
. "$(dirname "$0")/51b-lib.sh"
command -v direnv >/dev/null || { echo "no direnv"; exit 2; }
export XDG_DATA_HOME=$base/xdg-data XDG_CONFIG_HOME=$base/xdg-config
setup() {
  python3 -m venv --without-pip .venv && echo .venv/ >.gitignore &&
  printf 'source .venv/bin/activate\n' >.envrc && git add .envrc .gitignore &&
  git -c user.name=t -c user.email=t@e.invalid commit -qm envrc && direnv allow . 2>/dev/null
}
plant='printf "echo \"ran .venv/bin/activate as \$(id -un)\" >>%s\n" "$MARK" >>.venv/bin/activate && echo planted'
trigger() { direnv export bash >/dev/null; }
run_case
