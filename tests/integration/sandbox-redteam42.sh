#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Attacks on the default sandbox through the order of things (issue 30):
# a command that waits, inside the sandbox, for the user's own tools to
# replace a file the sandbox covers with a mount. Replacing a file by
# rename (git's lock files, git credential-store, an editor's safe save)
# or removing it unlinks the name the mount sits on: the kernel then
# detaches that mount in every other mount namespace, the sandbox's
# included, and the new file is what the command meets there.
# - .git/config: a read-only bind keeps it as the user left it; the
#   user's `git config` (or `git push -u`, a tracking `git switch`)
#   replaces it while a run lasts, the command appends a core.fsmonitor,
#   and the user's next `git status` runs it. With [sandbox] git_sweep =
#   no (the positive control) it does; as shipped the sweep after the run
#   disables what the run added (the user's own keys stay).
# - a hidden secret: an empty file of mode 0 bound on ~/.git-credentials;
#   the user's `git credential-store` rewrites it while a run lasts, and
#   the command reads the new password; one created while a run lasts
#   (~/.netrc) likewise. The positive control: the command sees the cover
#   gone (the file's real size). As shipped Landlock refuses to read it.
# Needs the namespace layer (the mounts are what is attacked).
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# the commands must meet the home, repositories and files there.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the mounts replaced from outside"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
if [ -z "$namespace" ]; then
  skip_rest "$sandbox_subject" "no mount namespace here: Landlock alone covers nothing by a mount"
fi
repo=$HOME/proj
printf '[sandbox]\ngit_sweep = no\n' >"$TEST_TMP/sweep-off.ini"

# --- .git/config replaced by the user's git while a run lasts
# The command appends to .git/config for as long as it is read-only, and
# counts it planted only when the file it wrote is the one at .git/config
# then: an open in the instant of the user's rename, after the kernel
# detached the cover and before the name moved, finds the old file,
# already unlinked, and what is written there is lost with it
# (sandbox-gitdata.sh says more). A command that wants its key in the
# config writes again, as this one does.
plant_fsmonitor='touch .ready; for i in $(seq 600); do
  if exec 3>>.git/config; then
    printf "[core]\n\tfsmonitor = \"touch '"$HOME"'/MARK-fsm; false\"\n" >&3
    if [ /dev/fd/3 -ef .git/config ]; then echo PLANTED; exit 0; fi
    exec 3>&-
  fi 2>/dev/null; sleep 0.05; done; echo NEVER'
# config_attack NAME [SLUICE-OPTION...]
config_attack() {
  local name=$1
  shift
  new_repo "$repo"
  # the user's own program key, set before the run: it must stay
  git -C "$repo" config alias.last '!git log -1'
  rm -f "$HOME/MARK-fsm"
  if ! waiting_run "$TEST_TMP/config.json" "$plant_fsmonitor" "$@"; then
    not_ok "$name" "the command never started" "$(cat "$TEST_TMP/config.json")"
    kill "$boxed_pid" 2>/dev/null
    return
  fi
  # the user's own git, outside: a lock file renamed onto .git/config
  git -C "$repo" config user.name "The User"
  wait "$boxed_pid"
  out=$(cat "$TEST_TMP/config.json")
  (cd "$repo" && timeout 10 git status >/dev/null 2>&1)
}

config_attack "a core.fsmonitor planted once the user's git config replaced .git/config" \
  --config "$TEST_TMP/sweep-off.ini"
grep -q PLANTED <<<"$out" && [ -e "$HOME/MARK-fsm" ]
report $? "the user's git config during a run lets the command plant a core.fsmonitor that the user's git status runs (positive control: git_sweep = no)" \
  "$out" "$(cat "$repo/.git/config")"

config_attack "the same, as shipped"
swept=$(json_get "$out" '" | ".join(i["what"] for i in (d.get("gitSweep") or {}).get("items", []))' 2>/dev/null)
[ ! -e "$HOME/MARK-fsm" ] && grep -q core.fsmonitor <<<"$swept" &&
  [ "$(git -C "$repo" config alias.last)" = '!git log -1' ] &&
  [ "$(git -C "$repo" config user.name)" = "The User" ]
report $? "as shipped the sweep disables the planted core.fsmonitor, reports it, and keeps the user's own alias and name" \
  "$out" "$(cat "$repo/.git/config")" "swept: $swept"
config_attack "the same, the text a model reads" --format text
grep -q "config: config keys that run programs or send data elsewhere: core.fsmonitor" <<<"$out" && [ ! -e "$HOME/MARK-fsm" ]
report $? "the text a model reads names the disabled core.fsmonitor" "$out"

# A run during which nobody touched the configuration leaves it alone:
# no sweep item, the user's alias kept.
new_repo "$repo"
git -C "$repo" config alias.last '!git log -1'
boxed_as workspace-write "$repo" 'git status --short; echo quiet'
[ "$(json_get "$out" 'd.get("gitSweep")')" = None ] &&
  [ "$(git -C "$repo" config alias.last)" = '!git log -1' ]
report $? "a run that changed no configuration has no sweep item, and the user's alias stays" "$out"

# --- a hidden secret rewritten or made by the user's tools while a run lasts
secret_attack() {
  local name=$1 file=$2 start=$3 write=$4
  rm -f "$file"
  eval "$start"
  # the command prints the file's size while it is covered (0), then reads it
  local reader='touch .ready; for i in $(seq 400); do
    s=$(stat -c %s '"$file"' 2>/dev/null); if [ "${s:-0}" != 0 ]; then echo "UNCOVERED $s"; cat '"$file"'; exit 0; fi
    sleep 0.05; done; echo NEVER'
  new_repo "$repo"
  if ! waiting_run "$TEST_TMP/secret.json" "$reader"; then
    not_ok "$name" "the command never started" "$(cat "$TEST_TMP/secret.json")"
    kill "$boxed_pid" 2>/dev/null
    return
  fi
  eval "$write"
  wait "$boxed_pid"
  out=$(cat "$TEST_TMP/secret.json")
  grep -q UNCOVERED <<<"$out"
  report $? "$name: the cover is gone in the sandbox once the user's tool wrote it (positive control)" "$out"
  ! grep -q NEW-SECRET <<<"$out"
  report $? "$name: the command still cannot read it" "$out"
}

secret_attack "~/.git-credentials rewritten by git credential-store" "$HOME/.git-credentials" \
  'echo https://u:OLD-SECRET@example.org >"$HOME/.git-credentials"; chmod 600 "$HOME/.git-credentials"' \
  'printf "protocol=https\nhost=example.org\nusername=u\npassword=NEW-SECRET\n\n" | git credential-store --file "$HOME/.git-credentials" store'
secret_attack "~/.netrc made while the run lasts" "$HOME/.netrc" ':' \
  'echo "machine example.org login u password NEW-SECRET" >"$HOME/.netrc"'
