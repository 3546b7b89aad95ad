# SPDX-License-Identifier: MIT
# Shared setup of the `sluice run` integration scripts, sourced after
# tests/lib.sh: the launcher (the real sluice-launch, which must be able to
# run a command: a launcher that cannot is a failure, never replaced by a
# stand-in, tests/integration/fake-launch.sh, that sandboxes nothing), a
# private jobs directory, and JSON helpers. Not for: assertions (lib.sh has those).

if ! launch_err=$("$SLUICE_LAUNCH" --profile unrestricted -- true 2>&1 >/dev/null); then
  not_ok "sluice-launch runs a command" "$SLUICE_LAUNCH --profile unrestricted -- true failed:" \
    "$launch_err"
  exit 1
fi
echo "# launcher: $SLUICE_LAUNCH"
export SLUICE_LAUNCH
export XDG_RUNTIME_DIR="$TEST_TMP/xdg"
mkdir -m 0700 "$XDG_RUNTIME_DIR"

# json_get FILE-OR-STRING EXPR: a Python expression on the parsed object d.
json_get() {
  python3 -c 'import json, sys; d = json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

# free_port [ADDRESS]: a TCP port free on ADDRESS (default 127.0.0.1) now.
free_port() {
  python3 -c 'import socket, sys; s = socket.socket(); s.bind((sys.argv[1], 0)); print(s.getsockname()[1])' "${1:-127.0.0.1}"
}

# wait_for TIMEOUT-SECONDS COMMAND...: poll until the command succeeds.
wait_for() {
  local limit=$(($1 * 20)) i=0
  shift
  while ! "$@"; do
    i=$((i + 1))
    [ "$i" -ge "$limit" ] && return 1
    sleep 0.05
  done
}

# alive PID: the process exists and is not a zombie. Its stat is read once:
# a process that ends between two reads must not count as alive.
alive() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) && [ -n "$stat" ] || return 1
  stat=${stat##*) }
  [ "${stat:0:1}" != Z ] && [ "${stat:0:1}" != X ]
}

# gone PID: the process has ended (a zombie not yet waited for counts).
gone() {
  ! alive "$1"
}

# attacks_reach_the_sandbox: where the sandbox is what a script tests, not
# the policies, a command that attacks it must reach it, as one a policy
# missed would: the plugin that judges commands destroying keys, dotfiles
# and .git is turned off in a user layer of the script's own (the other
# plugins let these attacks through).
attacks_reach_the_sandbox() {
  export XDG_CONFIG_HOME=$TEST_TMP/config
  mkdir -p "$XDG_CONFIG_HOME/sluice"
  printf '[plugin destroyers]\nenabled = no\n' >"$XDG_CONFIG_HOME/sluice/sluice.ini"
}

# timed COMMAND...: run COMMAND (lib.sh's run), with the seconds it took
# in secs; under N: secs was less than N
timed() {
  local t0=$EPOCHREALTIME
  run "$@"
  secs=$(python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.2f}")' "$t0" "$EPOCHREALTIME")
}
under() { python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$secs" "$1"; }
