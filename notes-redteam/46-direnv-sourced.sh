#!/usr/bin/env bash
# red team 46, hole 7: .envrc is protected, the files it sources are not.
# A project's own (allowed) .envrc with `source_env_if_exists .envrc.local`
# (a common pattern for per-developer settings) or `dotenv_if_exists`: the
# command writes .envrc.local (shell code) or .env (PROMPT_COMMAND=...); the
# user's next cd into the project (direnv's shell hook runs `direnv export
# bash`) runs the first with the user's full rights, and exports the
# second into the user's interactive shell, which runs it at each prompt.
# direnv checks `direnv allow` for .envrc's content only.
# usage: 46-direnv-sourced.sh /path/to/sluice /path/to/direnv
#   (direnv: `apt-get download direnv && dpkg -x direnv_*.deb d`, d/usr/bin/direnv)
set -u
S=${1:?path to sluice}
D=${2:?path to direnv}
base=$(mktemp -d /var/tmp/rt46-direnv.XXXXXX) || exit 1
trap 'rm -rf "$base"' EXIT
export HOME=$base/home
mkdir -p "$HOME"
git config --global user.name t; git config --global user.email t@example.invalid
P=$HOME/proj
mkdir -p "$P" && cd "$P" && git init -q &&
  printf 'source_env_if_exists .envrc.local\ndotenv_if_exists\n' >.envrc && git add -A && git commit -qm a &&
  "$D" allow . || exit 1
echo "== control: .envrc itself is read-only in the sandbox"
"$S" run -C "$P" -- 'echo "touch \$HOME/pwned" >>.envrc' | tail -1
"$S" run -C "$P" -- 'echo "touch \$HOME/pwned" >.envrc.local; printf "PROMPT_COMMAND=\"touch \$HOME/pwned-prompt\"\n" >.env' | tail -1
echo "== the user's next cd into the project: direnv export bash"
env=$(cd "$P" && "$D" export bash 2>/dev/null)
holes=0
if [ -e "$HOME/pwned" ]; then echo "HOLE: .envrc.local ran with the user's rights"; holes=1; fi
if grep -q "PROMPT_COMMAND=.*pwned-prompt" <<<"$env"; then echo "HOLE: .env's PROMPT_COMMAND is exported into the user's shell"; holes=1; fi
[ "$holes" = 0 ] && echo stopped
exit $holes
