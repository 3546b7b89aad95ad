#!/usr/bin/env bash
# red team 50: the workspace folder's flock is open to anyone who can open
# the folder for reading. hold_parent() (launcher/protected-paths.c) waits
# 2 s for a shared lock and then refuses the run; nothing tells sluice's
# tidier (microseconds) from any other holder. So a sandboxed command of
# one workspace (a run, or a background job for its --timeout) that takes
# flock(LOCK_EX) on another workspace's folder -- readable from the sandbox
# (the file system is visible read-only), or inside its own writable one
# (a run at the repo root locking the subfolder another run has as -C
# root) -- makes every run there fail; so does a user's second process.
# The run's own workspace cannot be locked exclusively by its command (its
# launcher holds it shared): checked too. Usage: 50-flock-dos.sh SLUICE
NAME=flock-dos
. "$(dirname "$0")/50-lib.sh"
A=$base/a; B=$base/b; new_repo "$A"; new_repo "$B"; mkdir -p "$A/sub"
command -v flock >/dev/null || { echo "positive control failed: no flock(1)"; exit 1; }
# positive control: a run of A works when nothing holds A
o=$("$S" run -C "$A" --config "$base/now.ini" -- 'echo RAN' 2>&1)
case $o in *RAN*) echo "positive control: a run of A works" ;; *) control_failed "$o"; finish; exit 1 ;; esac

fails() { # LABEL DIR: a run of DIR while the lock is held
  local t0=$SECONDS o
  o=$("$S" run -C "$2" --config "$base/now.ini" -- 'echo RAN' 2>&1)
  case $o in
    *RAN*) echo "$1: the run of $2 ran" ;;
    *) hole "$1: the run of $2 was refused after $((SECONDS - t0)) s: $(tr '\n' ' ' <<<"$o" | head -c 300)" ;;
  esac
}
lock_by_run() { # WS TARGET: a sandboxed command of WS holds TARGET exclusively 8 s
  "$S" run -C "$1" --config "$base/now.ini" -- "flock -x -n '$2' sh -c 'touch $3; sleep 8' || echo NOLOCK" >"$base/locker.out" 2>&1 &
  bg="$bg $!"
  for _ in $(seq 100); do [ -e "$3" ] && return 0; grep -qs NOLOCK "$base/locker.out" && return 1; sleep 0.1; done
  return 1
}
# 1. a command of workspace B locks workspace A (outside B, readable)
if lock_by_run "$B" "$A" "$B/.locked1"; then fails "a command of another workspace holds it" "$A"
else echo "1: the command of B could not lock A: $(cat "$base/locker.out")"; fi
wait; bg=
# 2. a command of the repo root locks the subfolder, another run's -C root
if lock_by_run "$A" "$A/sub" "$A/.locked2"; then fails "a run at the repo root holds the subfolder" "$A/sub"
else echo "2: could not lock: $(cat "$base/locker.out")"; fi
wait; bg=
# 3. a command of A cannot lock A itself exclusively (its launcher holds it)
o=$("$S" run -C "$A" --config "$base/now.ini" -- 'flock -x -n . echo GOTEX || echo NOEX' 2>&1)
case $o in *GOTEX*) hole "a command locked its own workspace exclusively" ;; *) echo "3: its own workspace: $(echo $o)" ;; esac
# 4. a user's second process (say an editor's or a script's flock of the folder)
flock -x "$A" sleep 6 & bg="$bg $!"; sleep 0.5
fails "a user's process holds it" "$A"
wait; bg=
# 5. the Landlock-only fallback with [broker] background_survivors = leave:
# what the command leaves running takes the lock once the run ended, for as
# long as it lives (8 s here; sleep infinity would do)
fb() { unshare -U -r "$BASH" -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec setpriv --bounding-set -all -- "$@"' fallback "$@"; }
if command -v setpriv >/dev/null && fb true 2>/dev/null; then
  printf '[broker]\nbackground_survivors = leave\n[sandbox]\nprotect_folders_idle = 0\n' >"$base/leave.ini"
  XDG_RUNTIME_DIR=$base/xdg fb "$S" run -C "$A" --config "$base/leave.ini" -- 'setsid flock -x . sleep 8 </dev/null >/dev/null 2>&1 & echo LEFT' >"$base/leave.out" 2>&1
  sleep 1
  if grep -q LEFT "$base/leave.out"; then fails "a survivor of a Landlock-only run holds it" "$A"
  else echo "5: the survivor did not start: $(cat "$base/leave.out")"; fi
  sleep 8
else
  echo "5: no Landlock-only fallback here"
fi
finish
