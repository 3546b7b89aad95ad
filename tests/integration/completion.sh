#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bash completion (completions/sluice), driven as bash drives it:
# the words so far in COMP_WORDS, the function named by `complete`, the
# candidates in COMPREPLY. Verbs, options, option values, job IDs for logs
# and kill, sluice-launch's options and profiles.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

# shellcheck source=/dev/null
. "$SLUICE_SRCDIR/completions/sluice"

# offers NAME WANT WORD...: completing the last WORD (the first names the
# program) offers every word of WANT (space-separated).
offers() {
  local name=$1 want=$2
  shift 2
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMPREPLY=()
  local fn
  fn=$(complete -p "${1##*/}" | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
  COMP_WORDS[0]=$1
  "$fn"
  local got=" ${COMPREPLY[*]} " missing= w
  for w in $want; do
    [[ $got == *" $w "* ]] || missing+=" $w"
  done
  if [ -z "$missing" ]; then
    ok "$name"
  else
    not_ok "$name" "missing:$missing" "offered:$got"
  fi
}

# the functions are registered under the programs' names
for p in sluice sluice-launch; do
  complete -p "$p" >/dev/null 2>&1 && ok "a completion is registered for $p" ||
    not_ok "a completion is registered for $p"
done

offers "the verbs" "run check display jobs logs kill mcp hook schema doctor plugins help version" \
  "$SLUICE" ''
offers "a verb from its start" "run" "$SLUICE" ru
offers "the top-level options" "-h --help -V --version" "$SLUICE" -
offers "run's options" "-C --mode --timeout --sandbox --format --config --json --help" \
  "$SLUICE" run -
offers "an option from its start" "--sandbox" "$SLUICE" run --sa
offers "the sandbox modes" "unrestricted workspace-write restricted" "$SLUICE" run --sandbox ''
offers "the run modes" "default slow background" "$SLUICE" run --mode ''
offers "the formats" "text json" "$SLUICE" check --format ''
offers "check's options" "--explain --format --batch --config --help" "$SLUICE" check --
offers "mcp's options" "-C --sandbox --progress-interval --config" "$SLUICE" mcp -
offers "hook's protocols" "claude-code gemini codex" "$SLUICE" hook ''
offers "hook's options" "--route --sandbox --config" "$SLUICE" hook claude-code --
offers "help's verbs" "run check" "$SLUICE" help ''
mkdir -p "$TEST_TMP/dir-a"
cd "$TEST_TMP" || exit 1
offers "a directory for -C" "dir-a" "$SLUICE" run -C dir
cd - >/dev/null || exit 1

run "$SLUICE" run --mode background -- 'sleep 30'
job=$(sed -n 's/.*job \([0-9-]*\),.*/\1/p' <<<"$out")
if [ -n "$job" ]; then
  offers "logs offers the job IDs" "$job" "$SLUICE" logs ''
  offers "kill offers the job IDs" "$job" "$SLUICE" kill ''
  "$SLUICE" kill "$job" >/dev/null 2>&1
else
  not_ok "a background job starts, to complete its ID" "$out" "$err"
fi

offers "sluice-launch's options" "--profile --workspace --rw --network --help --version" \
  "$SLUICE_LAUNCH" --
offers "sluice-launch's profiles" "unrestricted workspace-write restricted" \
  "$SLUICE_LAUNCH" --profile ''
offers "sluice-launch's network values" "allow deny" "$SLUICE_LAUNCH" --network ''
