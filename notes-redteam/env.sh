# Sourced by each reproducer: a fake user (HOME, runtime dir, config) under
# $RT (default /var/tmp/redteam44-$USER), a git project in its home, sluice
# of this worktree's build. The destroyers plugin is off as in the suite's
# sandbox tests, so that the sandbox (not the policy) is what is attacked.
# boxed 'COMMAND' [OPTION...]: sluice run in the default mode (no --sandbox).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${BUILD:=$here/../build/dev}"
SLUICE=$BUILD/sluice
export SLUICE_LAUNCH=$BUILD/sluice-launch
: "${RT:=/var/tmp/redteam44-$(id -un)}"
rm -rf "$RT"; mkdir -p "$RT"
export HOME=$RT/home XDG_RUNTIME_DIR=$RT/xdg XDG_CONFIG_HOME=$RT/home/.config
mkdir -p "$HOME" "$XDG_CONFIG_HOME/sluice"; mkdir -m 0700 "$XDG_RUNTIME_DIR"
printf '[plugin destroyers]\nenabled = no\n' >"$XDG_CONFIG_HOME/sluice/sluice.ini"
git config --global user.name U; git config --global user.email u@example.invalid
git config --global init.defaultBranch main
REPO=$HOME/proj
mkdir -p "$REPO"; git -C "$REPO" init -q; echo one >"$REPO/README"
git -C "$REPO" add README; git -C "$REPO" commit -q -m init
boxed() { local c=$1; shift; "$SLUICE" run -C "$REPO" --format text "$@" -- "$c"; }
