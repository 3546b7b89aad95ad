#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The zsh completion (completions/_sluice), driven as zsh's completion
# system calls it: words, CURRENT and PREFIX set, the file sourced, and
# compadd and _describe standing in for the builtins so that the
# candidates are printed. Verbs, options, option values, hook's protocols.
. "$SLUICE_SRCDIR/tests/lib.sh"

if ! command -v zsh >/dev/null 2>&1; then
  skip "the zsh completion offers verbs, options and values" "zsh is not installed"
  exit 0
fi

# zsh_offers NAME WANT WORD...: completing the last WORD (the first names
# the program) offers every word of WANT (space-separated).
zsh_offers() {
  local name=$1 want=$2 got missing= w
  shift 2
  got=$(zsh -f -c '
    compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@" }
    _describe() { local v; for v in ${(P)2}; do print -r -- ${v%%:*}; done }
    _directories() { print -r -- "(directories)" }
    _files() { print -r -- "(files)" }
    _normal() { print -r -- "(a command)" }
    service=${1##*/}
    words=("$@")
    CURRENT=$#
    PREFIX=${words[CURRENT]}
    source "$SLUICE_SRCDIR/completions/_sluice"' zsh "$@" 2>&1 | tr '\n' ' ')
  for w in $want; do
    [[ " $got " == *" $w "* ]] || missing+=" $w"
  done
  if [ -z "$missing" ]; then ok "$name"; else not_ok "$name" "missing:$missing" "offered: $got"; fi
}
export SLUICE_SRCDIR

zsh_offers "zsh: the verbs" "run check jobs logs kill mcp hook doctor" "$SLUICE" ''
zsh_offers "zsh: the top-level options" "-h --help -V --version" "$SLUICE" -
zsh_offers "zsh: run's options" "-C --mode --timeout --sandbox --config" "$SLUICE" run -
zsh_offers "zsh: the sandbox modes" "unrestricted workspace-write restricted" "$SLUICE" run --sandbox ''
zsh_offers "zsh: hook's protocols" "claude-code gemini codex" "$SLUICE" hook ''
zsh_offers "zsh: sluice-launch's profiles" "unrestricted workspace-write restricted" \
  "$SLUICE_LAUNCH" --profile ''
