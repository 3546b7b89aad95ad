#!/usr/bin/env bash
# red team 50 (as root, with the user sluicedev): root and sluicedev in
# the same workspace (sluicedev's), with different jobs directories (root's
# XDG_RUNTIME_DIR set to a folder of its own, sluicedev's unset), so that
# their tidiers' lock files differ and each starts its own tidier: one
# user's run waits to fill .claude while the other's run ends
# (protect_folders_idle = 0) and tidies; the waiting command must not be
# able to plant .claude/settings.json. Positive control: .claude removed
# from outside under the waiting run lets it plant.
# Usage: 50-cross-user.sh SLUICE [SLUICEDEV'S-SLUICE]
NAME=cross-user
. "$(dirname "$0")/50-lib.sh"
[ "$(id -u)" = 0 ] || { echo "== $NAME: run as root (it runs sluicedev too)"; exit 0; }
SD=${2:-/home/sluicedev/rt50/build/dev/sluice}
su - sluicedev -c "test -x '$SD'" || { echo "positive control failed: no sluice for sluicedev at $SD"; exit 1; }
chmod 755 "$base"; chmod 644 "$base"/*.ini
:
waiter="touch .ready; while [ ! -e .go ]; do sleep 0.1; done; $plant"
as_sd() { su - sluicedev -c "env -u XDG_RUNTIME_DIR $*"; }
attempt() { # LABEL WAITER(root|sd) TIDY(root|sd|outside)
  local W=$base/$1
  mkdir "$W" && chown sluicedev: "$W"
  su sluicedev -c "git init -q '$W' && cd '$W' && echo a >a && git add a && git -c user.name=t -c user.email=t@e commit -qm a"
  chmod -R a+rwX "$W"
  if [ "$2" = root ]; then XDG_RUNTIME_DIR=$base/xdg "$S" run -C "$W" --config "$base/now.ini" -- "$waiter" >"$base/$1.out" 2>&1 &
  else as_sd "'$SD' run -C '$W' --config '$base/now.ini' -- \"$waiter\"" >"$base/$1.out" 2>&1 &
  fi
  local p=$!; bg="$bg $p"
  for _ in $(seq 150); do [ -e "$W/.ready" ] && break; sleep 0.1; done
  [ -e "$W/.ready" ] || { echo "$1: the waiting run did not start: $(cat "$base/$1.out")"; return 2; }
  case $3 in
    outside) rmdir "$W/.claude" ;;
    root) XDG_RUNTIME_DIR=$base/xdg "$S" run -C "$W" --config "$base/now.ini" -- true >"$base/$1.other" 2>&1 ;;
    sd) as_sd "'$SD' run -C '$W' --config '$base/now.ini' -- true" >"$base/$1.other" 2>&1 ;;
  esac
  touch "$W/.go"; wait $p
  echo "$1: waiter $2, the other run's end $3: left $(left_in "$W"); the other said: $(head -c 200 "$base/$1.other" 2>/dev/null)"
  planted "$W"
}
if attempt control sd outside; then echo "positive control: the plant works once .claude is gone under sluicedev's run"
else control_failed "$(cat "$base/control.out")"; finish; exit 1; fi
attempt sd-waits sd root && hole "root's run's end let sluicedev's waiting command plant .claude/settings.json"
attempt root-waits root sd && hole "sluicedev's run's end let root's waiting command plant .claude/settings.json"
finish
