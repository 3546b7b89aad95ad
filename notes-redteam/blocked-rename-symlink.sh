#!/usr/bin/env bash
# Class: write outside the workspace, by sluice's own post-run step. After
# a run, a protected name the run created is renamed NAME.sluice-blocked by
# the broker, outside the sandbox, with the user's rights. The command
# makes the folder on the way a symlink to a folder outside (.config ->
# ~/.config, for the protected pattern .config/lefthook*): does the broker
# follow it and rename the user's own ~/.config/lefthook.yml (or another
# matching file outside)?
. "$(dirname "$0")/env.sh"
mkdir -p "$HOME/.config"; echo "# the user's own global lefthook" >"$HOME/.config/lefthook.yml"
boxed 'ln -s ~/.config .config && ls -la .config/ | head -3; echo linked'
ls -la "$HOME/.config/" | grep -i lefthook
if [ -e "$HOME/.config/lefthook.yml" ]; then echo "stopped: ~/.config/lefthook.yml is where the user left it"; else echo "HOLE: the broker renamed a file outside the workspace"; fi
