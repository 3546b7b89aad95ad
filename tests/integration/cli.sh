#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sluice command line as a user meets it: version, help, unknown verbs,
# options and arguments refused everywhere (with what was perhaps meant,
# and without errno text that says nothing more), misspelt configuration.
. "$SLUICE_SRCDIR/tests/lib.sh"

run "$SLUICE" --version
expect "--version prints the package version" 0 '^sluice [0-9]+\.[0-9]+\.[0-9]+$'

run "$SLUICE" --help
expect "--help lists the verbs" 0 '^  version '

run "$SLUICE"
expect "no verb is an error of sluice's own (125) with the usage" 125 '' 'Usage: sluice VERB'

run "$SLUICE" frobnicate
expect "an unknown verb is named in the error" 125 '' "^sluice: unknown verb 'frobnicate'"

run "$SLUICE" -V
expect "-V prints the package version" 0 '^sluice [0-9]+\.[0-9]+\.[0-9]+$'
run "$SLUICE" version --bogus
expect "version refuses an unknown option" 125 '' "^sluice: version: unknown option '--bogus'$"
run "$SLUICE" version extra
expect "version refuses an argument" 125 '' "^sluice: version: unexpected argument 'extra'$"
run "$SLUICE" help run
expect "help VERB prints that verb's options" 0 '^Usage: sluice run '
run "$SLUICE" help nosuch
expect "help of an unknown verb is an error" 125 '' "^sluice: help: unknown verb 'nosuch'$"
run "$SLUICE" chek -- ls
expect "a misspelt verb is refused with the verb meant" 125 '' \
  "^sluice: unknown verb 'chek'; did you mean 'check'\?"
run "$SLUICE" check --explian -- ls
expect "a misspelt option is refused with the option meant, and no errno text" 125 '' \
  "^sluice: check: unknown option '--explian'; did you mean '--explain'\?$"

# Every verb refuses an option it does not have, as an error of sluice's
# own (the hook answers its agent: exit status 2, blocking).
verbs=$("$SLUICE" --help | sed -n 's/^  \([a-z-]*\) .*/\1/p' | grep -v '^-')
bad=
for v in $verbs; do
  case $v in hook) args=(hook claude-code) want=2 ;; *) args=("$v") want=125 ;; esac
  run "$SLUICE" "${args[@]}" --no-such-option -- ls </dev/null
  [ "$rc" -eq "$want" ] || bad+=" $v (exit $rc)"
done
[ -n "$verbs" ] && [ -z "$bad" ] && ok "every verb refuses an unknown option" ||
  not_ok "every verb refuses an unknown option" "accepted by:$bad" "verbs: $verbs"
bad=
for v in version doctor plugins jobs schema; do
  run "$SLUICE" "$v" unexpected-word </dev/null
  [ "$rc" -eq 125 ] || bad+=" $v (exit $rc)"
done
[ -z "$bad" ] && ok "verbs that take no argument refuse one" ||
  not_ok "verbs that take no argument refuse one" "accepted by:$bad"

# A misspelt configuration key or section is refused with what was meant.
cat >"$TEST_TMP/typo.ini" <<'INI'
[broker]
timout = 10s
mode = restricted
[sandbx]
[plugin git_push]
protected_brnach = main
INI
run "$SLUICE" check --config "$TEST_TMP/typo.ini" -- ls
expect "a misspelt key is refused with the key meant" 125 '' \
  "typo.ini:2: unknown key 'timout' in \[broker\]; did you mean 'timeout'\?$"
expect "a key of another section is refused naming its section" 125 '' \
  "typo.ini:3: unknown key 'mode' in \[broker\]; it belongs in \[sandbox\]$"
expect "a misspelt section is refused with the section meant" 125 '' \
  "typo.ini:4: unknown section \[sandbx\]; did you mean \[sandbox\]\?$"
sed -i '1,4d' "$TEST_TMP/typo.ini"
run "$SLUICE" check --config "$TEST_TMP/typo.ini" -- ls
expect "a misspelt plugin key is refused with the key meant" 125 '' \
  "typo.ini:2: unknown key 'protected_brnach' in \[plugin git_push\]; did you mean 'protected_branch'\?$"
printf '[plugin git_psh]\n' >"$TEST_TMP/typo.ini"
run "$SLUICE" check --config "$TEST_TMP/typo.ini" -- ls
expect "a misspelt plugin name is refused with the plugin meant" 125 '' \
  "cannot find .*/git_psh.so; did you mean \[plugin git_push\]\?$"
