#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sluice check and sluice display as a user meets them: verdicts and exit
# statuses, --explain and display against golden files, --batch (a bad line
# gets an error and the batch goes on; long lines), refused options.
# SLUICE_UPDATE_GOLDEN=1 rewrites the golden files instead (make update-golden),
# which a CI run refuses.
. "$SLUICE_SRCDIR/tests/lib.sh"

golden=$SLUICE_SRCDIR/tests/golden

# golden NAME RUNNER: run each line of NAME.cmds through RUNNER, compare the
# whole transcript with NAME.out.
golden() {
  local name=$1 runner=$2 out=$TEST_TMP/$1.out
  : >"$out"
  while IFS= read -r cmd; do
    printf '$ %s\n' "$cmd" >>"$out"
    "$runner" "$cmd" >>"$out" 2>&1
    printf '(exit %d)\n\n' "$?" >>"$out"
  done <"$golden/$name.cmds"
  if [ -n "${SLUICE_UPDATE_GOLDEN:-}" ] && ci_run; then
    not_ok "$name: compared with tests/golden/$name.out" "SLUICE_UPDATE_GOLDEN is set in a CI run" \
      "(CI=true or SLUICE_TESTS_STRICT): a rewritten golden file compares nothing"
  elif [ -n "${SLUICE_UPDATE_GOLDEN:-}" ]; then
    cp "$out" "$golden/$name.out"
    skip "$name: compared with tests/golden/$name.out" "SLUICE_UPDATE_GOLDEN: rewritten instead"
  elif diff -u "$golden/$name.out" "$out" >"$TEST_TMP/$name.diff"; then
    ok "$name: output matches tests/golden/$name.out"
  else
    not_ok "$name: output differs from tests/golden/$name.out" "$(cat "$TEST_TMP/$name.diff")"
  fi
}

explain() { "$SLUICE" check --explain -- "$1"; }
display() { (cd / && "$SLUICE" display -- "$1"); }
golden explain explain
golden display display

run "$SLUICE" check -- 'git status'
expect "a plain command is allowed (exit 0)" 0 '^allow$'

# display: into a pipe as it is (for programs); on a terminal made inert
esc_cmd=$(printf 'echo \033[2K done')
run "$SLUICE" display -- "$esc_cmd"
[ "$rc" -eq 0 ] && [ "$out" = "$esc_cmd" ]
report $? "display into a pipe keeps the command's bytes" "rc=$rc got: $(printf '%q' "$out")"
if ! command -v script >/dev/null; then
  skip "display on a terminal writes control characters out" "script(1) from util-linux is missing"
else
  printf '%s' "$esc_cmd" >"$TEST_TMP/esc-cmd"
  on_tty=$(timeout 20 script -qec "\"$SLUICE\" display -- \"\$(cat '$TEST_TMP/esc-cmd')\"" /dev/null </dev/null | tr -d '\r')
  [ "$on_tty" = 'echo \x1b[2K done' ]
  report $? "display on a terminal writes control characters out" "got: $(printf '%q' "$on_tty")"
fi

run "$SLUICE" check -- '$CMD -rf /'
expect "a dynamic command name asks (exit 2) and says why" 2 'only known when it runs'

run "$SLUICE" check --format json -- 'cd / && ls'
expect "json: verdict, reasons and display" 0 '^\{"verdict":"allow","reasons":\[\],"display":"cd / && ls"\}$'

run "$SLUICE" check --config /nonexistent -- ls
expect "--config with a missing file is a configuration error" 125 '' "config: /nonexistent: cannot open"

run "$SLUICE" check -- a b
expect "more than one COMMAND is refused" 125 '' 'expected one COMMAND'

run "$SLUICE" check --format yaml -- ls
expect "an unknown format is refused" 125 '' "unknown format 'yaml'"

run "$SLUICE" check --help
expect "--help lists the options from the option table" 0 '--batch'

big=$(head -c 70000 /dev/zero | tr '\0' 'a')
run "$SLUICE" check -- "$big"
expect "a command over the size limit asks, naming the limit" 2 'max-command-size'

printf '%s\n' '{"command":"git status"}' 'not json' '{"command":"bash -c \"$X\""}' \
  '{"cmd":"x"}' >"$TEST_TMP/batch.jsonl"
run "$SLUICE" check --batch <"$TEST_TMP/batch.jsonl"
lines=$(printf '%s\n' "$out" | wc -l)
if [ "$rc" -eq 125 ] && [ "$lines" -eq 4 ] &&
  printf '%s\n' "$out" | sed -n 2p | grep -q '"kind":"invalid_request"' &&
  printf '%s\n' "$out" | sed -n 3p | grep -q '"verdict":"ask"' &&
  printf '%s\n' "$out" | sed -n 4p | grep -q "unknown field 'cmd'"; then
  ok "batch: one result per line, bad lines get an error, the batch goes on (exit 125)"
else
  not_ok "batch: one result per line" "rc=$rc lines=$lines" "$out"
fi

{ printf '{"command":"echo %s"}\n' "$(head -c 60000 /dev/zero | tr '\0' 'b')"
  printf '{"command":"ls"}\n'; } >"$TEST_TMP/long.jsonl"
run "$SLUICE" check --batch <"$TEST_TMP/long.jsonl"
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ]; then
  ok "batch: a 60 KB line is read whole (no fixed line buffer), exit 0"
else
  not_ok "batch: long line" "rc=$rc" "$(printf '%s' "$out" | head -c 300)"
fi

printf '{"command":"a\\nb"}\n' >"$TEST_TMP/newline.jsonl"
run "$SLUICE" check --batch <"$TEST_TMP/newline.jsonl"
expect "batch: a command may hold newlines" 0 '"verdict":"allow"'

run "$SLUICE" display -- 'cd / && ls'
expect "display keeps a cd to another directory" 0 '^cd / && ls$'

# A command check refuses what a request would: an empty command is an
# error, not an "allow".
run "$SLUICE" check -- '   '
expect "check refuses an empty command as invalid_request" 125 '' "invalid_request: field 'command' is empty"
