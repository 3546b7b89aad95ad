#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A command's output shown on the user's terminal (`sluice run` in the
# default text format, its stdout a terminal) is made inert: an escape
# sequence in it would set the clipboard (OSC 52: the user's next paste
# runs what the command chose), the window's title, or rewrite what was
# shown. The positive control: the same bytes printed by bash on the same
# kind of terminal reach it raw. Newlines, tabs and UTF-8 text stay as
# they are; output to a pipe or a file is left whole.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
ws=$TEST_TMP/ws
mkdir -p "$ws"
evil='printf "line one\ttab \303\251t\303\251\n\033]52;c;cm0gLXJmIH4K\007\033]0;title\007\033[2Aend\n"'
# on_terminal CMD...: CMD with a pseudo-terminal as its stdout; what the
# terminal received, in hex, in out
on_terminal() {
  out=$(python3 - "$@" <<'PY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
data = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
os.waitpid(pid, 0)
print(data.hex())
PY
)
}
esc=1b5d35323b # ESC ] 5 2 ;
on_terminal bash -c "$evil"
grep -q "$esc" <<<"$out"
report $? "control: printed by bash, the OSC 52 sequence reaches the terminal raw" "$out"
on_terminal "$SLUICE" run -C "$ws" -- "$evil"
text=$(python3 -c 'import sys; print(bytes.fromhex(sys.argv[1]).decode("utf-8", "replace"))' "$out")
! grep -q "$esc" <<<"$out" && ! grep -q '1b5b' <<<"$out" && grep -qF '\x1b]52;c;' <<<"$text" &&
  grep -q $'line one\ttab été' <<<"$text" && grep -q 'end' <<<"$text"
report $? "through sluice run, no escape sequence reaches the terminal; text, tabs and UTF-8 stay" "$text"
run "$SLUICE" run -C "$ws" -- "$evil"
grep -q $'\033]52' <<<"$out"
report $? "to a pipe, the output is left whole" "$out"
