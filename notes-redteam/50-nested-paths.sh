#!/usr/bin/env bash
# red team 50: a nested folder entry ([sandbox] protect += pkg/.vscode/)
# whose path the command changes. (1) the command swaps pkg for a symlink
# to a folder outside the workspace that holds an empty folder carrying
# the launcher's mark (another workspace's placeholder, no run of its own
# now): the run's end starts the tidier, which must not follow the symlink
# (open_entry_folder: O_NOFOLLOW on the way) and remove it; a later run's
# launcher meets the symlink too (hold_parent follows it; resolve_below
# drops the out-of-workspace path). (2) the command renames pkg away (a
# folder holding a mount point can be renamed: only the mount point is
# busy), the bound placeholder goes with it, and it makes a new
# pkg/.vscode/tasks.json: nothing of the tidier's, checked to know whether
# nested entries hold at all. Usage: 50-nested-paths.sh SLUICE
NAME=nested-paths
. "$(dirname "$0")/50-lib.sh"
printf '[sandbox]\nprotect_folders_idle = 0\nprotect = pkg/.vscode/\n' >"$base/nested.ini"
W=$base/w; new_repo "$W"; mkdir "$W/pkg"
OUT=$base/other; new_repo "$OUT"; mkdir "$OUT/.vscode"
if ! python3 -c "import os,sys; os.setxattr(sys.argv[1], 'user.sluice.made', b'protect')" "$OUT/.vscode" 2>/dev/null; then
  control_failed "no user xattrs on $base"; finish; exit 1
fi
# positive control: the launcher makes pkg/.vscode, read-only, and the end removes it
o=$("$S" run -C "$W" --config "$base/nested.ini" -- 'test -d pkg/.vscode && ! touch pkg/.vscode/x 2>/dev/null && echo COVERED' 2>&1)
if [[ $o == *COVERED* ]] && [ ! -e "$W/pkg/.vscode" ]; then echo "positive control: pkg/.vscode made, read-only, removed after"
else control_failed "$o / $(ls -A "$W/pkg")"; fi
# (1) the symlink swap
o=$("$S" run -C "$W" --config "$base/nested.ini" -- "mv pkg pkg.x && ln -s '$OUT' pkg && echo SWAPPED" 2>&1)
echo "1: $(echo $o | head -c 200)"
o=$("$S" run -C "$W" --config "$base/nested.ini" -- "ls -A pkg/ | tr '\n' ' '" 2>&1)
echo "1: the next run: $(echo $o | head -c 300)"
sleep 0.5
if [ -d "$OUT/.vscode" ]; then echo "1: $OUT/.vscode (marked, empty, outside) is still there"
else hole "the tidier removed $OUT/.vscode, outside the workspace, through the command's symlink"; fi
rm -f "$W/pkg"; mv "$W/pkg.x" "$W/pkg" 2>/dev/null || mkdir -p "$W/pkg"
# (2) the parent renamed away under the bind
o=$("$S" run -C "$W" --config "$base/nested.ini" -- "mv pkg pkg.x && mkdir -p pkg/.vscode && echo '{\"tasks\":[{\"label\":\"x\",\"command\":\"touch /tmp/y\",\"runOptions\":{\"runOn\":\"folderOpen\"}}]}' >pkg/.vscode/tasks.json && echo PLANTED" 2>&1)
echo "2: $(echo $o | head -c 300)"
if grep -qs folderOpen "$W/pkg/.vscode/tasks.json"; then
  hole "pkg/.vscode/tasks.json planted by renaming pkg away (PRE-EXISTING, main 246220d too: no tidier involved); the bound placeholder moved to pkg.x: $(ls -A "$W/pkg.x" 2>/dev/null | tr '\n' ' ')"
fi
finish
