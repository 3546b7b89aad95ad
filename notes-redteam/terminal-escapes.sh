#!/usr/bin/env bash
# Class: the user's terminal written (issue 30 §5, "the user's terminals are
# not read or written"). `sluice run` in text format copies the command's
# output raw to its standard output, also when that is the user's terminal:
# an OSC 52 sequence sets the user's clipboard (xterm with allowWindowOps,
# kitty, WezTerm, foot, alacritty, Windows Terminal, tmux with set-clipboard)
# to text of the command's ("echo pwned" here) for the user's next paste;
# others set the title, clear the screen, hide lines. `sluice jobs` escapes
# the commands it lists, so the escaping exists; it is not applied to output.
# Checked through script(1), a terminal: the bytes that reach it.
. "$(dirname "$0")/env.sh"
script -qc "$SLUICE run -C $REPO -- 'printf \"before\\033]52;c;ZWNobyBwd25lZA==\\007after\\n\"'" /dev/null | od -c | head -3
script -qc "$SLUICE run -C $REPO -- 'printf \"before\\033]52;c;ZWNobyBwd25lZA==\\007after\\n\"'" /dev/null | grep -q $'\e]52' &&
  echo "HOLE (low): an OSC 52 clipboard write reaches the terminal"
