#!/usr/bin/env bash
# Class: what is planted in the writable gitdir makes the user's own git
# write outside (issue 30 §2), in the object store. The command makes the
# missing fan-out folders .git/objects/XX symlinks to a folder outside
# (~/outside here); the user's next git add/commit writes its new loose
# objects there. Does the sweep find symlinked fan-out folders? (It does:
# stopped.) With `bg`: the same from a background job that lives on,
# which the sweep reaches only when it ends (hole 1).
. "$(dirname "$0")/env.sh"
mkdir -p "$HOME/outside"
[ "$1" = bg ] && bg=(--mode background) tail='; sleep 300' || bg=() tail=
boxed 'n=0; for a in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do for b in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do
  [ -e .git/objects/$a$b ] || { ln -s ~/outside .git/objects/$a$b && n=$((n+1)); }; done; done; echo "planted $n"'"$tail" "${bg[@]}" | tail -1
[ "$1" = bg ] && sleep 5
echo "--- symlinks left in .git/objects: $(find "$REPO/.git/objects" -maxdepth 1 -type l | wc -l)"
(cd "$REPO" && echo "user's change $RANDOM" >>README && git commit -qam "user's commit" 2>&1 | head -2)
n=$(find "$HOME/outside" -type f | wc -l)
if [ "$n" -gt 0 ]; then echo "HOLE: the user's git commit wrote $n files outside"; else echo "stopped"; fi
for id in $("$SLUICE" jobs --format json 2>/dev/null | grep -o '"id": *"[^"]*"' | cut -d'"' -f4); do "$SLUICE" kill "$id" >/dev/null 2>&1; done
