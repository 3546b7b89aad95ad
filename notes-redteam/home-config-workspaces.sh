#!/usr/bin/env bash
# Class: write outside the project's business, plant what runs later.
# sluice refuses a workspace that holds the home; it accepts one inside it
# that the user's own startup reads: a dotfiles repository of one
# program's folder: ~/.config/git (git's global configuration), ~/.config/nvim,
# ~/.config/fish, ~/.config/systemd/user, or a scripts repository ~/bin that is on the
# user's PATH. The command in such a workspace:
#  (a) appends a core.fsmonitor to ~/.config/git/config (git reads it when
#      ~/.gitconfig is absent or beside it): the user's git
#      status in any repository runs it;
#  (b) writes ~/bin/git: the user's next `git` runs it (PATH lookup).
# (A ~/.config holding ~/.config/sluice is refused as a workspace.)
. "$(dirname "$0")/env.sh"
# (a) ~/.config/git kept as a repository of its own (as ~/.config/nvim often is)
SLUICE_ARGS=()
cfg=$HOME/.config/git; mkdir -p "$cfg"; git -C "$cfg" init -q; printf '[alias]\n\tst = status\n' >"$cfg/config"
git -C "$cfg" add config; git -C "$cfg" commit -qm dotfiles
"$SLUICE" run -C "$cfg" "${SLUICE_ARGS[@]}" -- 'printf "[core]\n\tfsmonitor = touch ~/PWNED-xdg-git; false\n" >>config && echo planted'
(cd "$REPO" && git status >/dev/null 2>&1)
[ -e "$HOME/PWNED-xdg-git" ] && echo "HOLE (a): the user's git status in another repository ran the command's code"
# (b)
bin=$HOME/bin; mkdir -p "$bin"; git -C "$bin" init -q; printf '#!/bin/sh\necho tool\n' >"$bin/tool"; chmod +x "$bin/tool"
git -C "$bin" add tool; git -C "$bin" commit -qm scripts
"$SLUICE" run -C "$bin" "${SLUICE_ARGS[@]}" -- 'printf "#!/bin/sh\ntouch ~/PWNED-path\nexec /usr/bin/git \"\$@\"\n" >git && chmod +x git && echo planted'
(export PATH=$bin:$PATH; cd "$REPO" && git status >/dev/null 2>&1)
[ -e "$HOME/PWNED-path" ] && echo "HOLE (b): the user's next git (PATH has ~/bin first) ran the command's code"
