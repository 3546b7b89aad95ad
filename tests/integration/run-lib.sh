# SPDX-License-Identifier: MIT
# Shared setup of the `sluice run` integration scripts, sourced after
# tests/lib.sh: the launcher to use (the real sluice-launch when it can exec
# a command, otherwise the stand-in fake-launch.sh, said loudly), a private
# jobs directory, and JSON helpers. Not for: assertions (lib.sh has those).

launch_is_fake=
if "$SLUICE_LAUNCH" --profile unrestricted -- true >/dev/null 2>&1; then
  echo "# launcher: $SLUICE_LAUNCH"
else
  SLUICE_LAUNCH="$SLUICE_SRCDIR/tests/integration/fake-launch.sh"
  launch_is_fake=yes # it cannot do what --die-with-parent asks
  echo "# launcher: the stand-in $SLUICE_LAUNCH (sluice-launch cannot exec here yet)"
fi
export SLUICE_LAUNCH
export XDG_RUNTIME_DIR="$TEST_TMP/xdg"
mkdir -m 0700 "$XDG_RUNTIME_DIR"

# json_get FILE-OR-STRING EXPR: a Python expression on the parsed object d.
json_get() {
  python3 -c 'import json, sys; d = json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
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
