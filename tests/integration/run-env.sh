#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The command's environment: secrets filtered, what keeps a shell without a
# terminal from blocking set, the marker present; and no TTY at all.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

run env OPENAI_API_KEY=sk-1 GITHUB_TOKEN=ghp AWS_SECRET_ACCESS_KEY=a ANTHROPIC_AUTH=x \
  GEMINI_API_KEY=g DB_PASSWORD=p KEEP_ME=yes "$SLUICE" run -- env
[ "$rc" -eq 0 ] && grep -q '^KEEP_ME=yes$' <<<"$out" && grep -q '^PATH=' <<<"$out" &&
  ! grep -qE '^(OPENAI_API_KEY|GITHUB_TOKEN|AWS_SECRET_ACCESS_KEY|ANTHROPIC_AUTH|GEMINI_API_KEY|DB_PASSWORD)=' <<<"$out"
report $? "secret variables are filtered, the rest is inherited" "rc=$rc" "$out"

# The names a measured run leaked, and URL passwords, seen by a real command.
run env PGPASSWORD=p MYSQL_PWD=p SECRET_KEY=s API_KEY=k TOKEN=t PASSWORD=p GITHUB_PAT=g \
  DATABASE_URL=postgres://app:pw1@db/app https_proxy=http://u:pw2@proxy:3128 \
  "$SLUICE" run -- env
if [ "$rc" -eq 0 ] && grep -q '^PWD=' <<<"$out" && grep -q '^OLDPWD=\|^PATH=' <<<"$out" &&
  ! grep -qE '^(PGPASSWORD|MYSQL_PWD|SECRET_KEY|API_KEY|TOKEN|PASSWORD|GITHUB_PAT)=' <<<"$out" &&
  grep -qx 'DATABASE_URL=postgres://app@db/app' <<<"$out" &&
  grep -qx 'https_proxy=http://u@proxy:3128' <<<"$out" && ! grep -q 'pw[12]' <<<"$out"; then
  ok "secrets named without an underscore are filtered, URL passwords removed, PWD kept"
else
  not_ok "secrets named without an underscore are filtered, URL passwords removed, PWD kept" \
    "rc=$rc" "$out"
fi

# Red team 51a's names and URL secrets. [env] drop applies in every mode,
# so the positive control is the environment sluice is given holding them;
# the command's must not.
leaky=(SSHPASS=s1 DB_PASS=s2 LDAP_BIND_PW=s3 GOOGLE_CREDENTIALS=s4 TS_AUTHKEY=s5
  FIREBASE_SERVICE_ACCOUNT=s6 KUBE_CONFIG=s7 ID_RSA=s8 ORG_GRADLE_PROJECT_signingInMemoryKey=s9
  DOCKERHUB_CREDS=s10
  GIT_URL=https://ghp_abcdefghijklmnopqrstuvwxyz0123@example.org/o/r
  JDBC_URL='jdbc:postgresql://h/db?user=u&password=s11'
  SAS_URL='https://a.example.org/c?sv=2020&sig=s12')
[ "$(env -i "${leaky[@]}" env | grep -c 's[0-9]\|ghp_')" = 13 ]
report $? "the secrets are in the environment sluice is given (positive control)"
run env "${leaky[@]}" "$SLUICE" run -- env
[ "$rc" -eq 0 ] && ! grep -q 's[0-9]\|ghp_' <<<"$out" && grep -qx 'GIT_URL=https://example.org/o/r' <<<"$out" &&
  grep -qx 'JDBC_URL=jdbc:postgresql://h/db?user=u&password=' <<<"$out" &&
  grep -qx 'SAS_URL=https://a.example.org/c?sv=2020&sig=' <<<"$out"
report $? "their names dropped, a token as a URL's user and a query's password or signature removed" "$out"

for want in PAGER=cat GIT_PAGER=cat GIT_TERMINAL_PROMPT=0 DEBIAN_FRONTEND=noninteractive SLUICE_RUN=1; do
  grep -qx "$want" <<<"$out"; report $? "$want is set" "$out"
done

# The editors run as git runs them (sh -c "$EDITOR FILE"), from script
# files: a nested script only known when it runs is one the policies ask about.
printf 'sh -c "$EDITOR file"\n' >"$TEST_TMP/editor.sh"
printf 'sh -c "$GIT_SEQUENCE_EDITOR todo"\n' >"$TEST_TMP/sequence-editor.sh"
run "$SLUICE" run -- "sh '$TEST_TMP/editor.sh'"
expect "the editor fails instead of waiting" 1 '' ''
grep -q 'no interactive editor' <<<"$out"
report $? "the editor says why it failed" "$out"

run "$SLUICE" run -- "sh '$TEST_TMP/sequence-editor.sh'"
grep -q 'rebase -i.*background mode' <<<"$out"
report $? "the sequence editor explains git rebase -i" "$out"

run "$SLUICE" run -- 'tty; test -t 0 && echo stdin-tty; test -t 1 && echo stdout-tty; test -t 2 && echo stderr-tty; read line; echo "read=$?"'
grep -q '^not a tty$' <<<"$out" && ! grep -q -- '-tty$' <<<"$out" && grep -q '^read=1$' <<<"$out"
report $? "no TTY: tty says not a tty, test -t is false, stdin is empty" "$out"

# Secrets whose names say key, session, JWT, DSN, webhook or connection
# string (a password manager's unlocked session, a Rails master key, a CI
# job's token, an error tracker's DSN): gone; their look-alikes stay.
run env RAILS_MASTER_KEY=s BW_SESSION=s OP_SESSION_my=s CI_JOB_JWT=s SENTRY_DSN=https://s@o.example.org/1 \
  SLACK_WEBHOOK_URL=https://hooks.example.org/s AZURE_STORAGE_CONNECTION_STRING=s DOCKER_AUTH_CONFIG=s \
  XDG_SESSION_TYPE=tty DBUS_SESSION_BUS_ADDRESS=unix:path=/x "$SLUICE" run -- env
[ "$rc" -eq 0 ] && grep -qx 'XDG_SESSION_TYPE=tty' <<<"$out" &&
  ! grep -qE '^(RAILS_MASTER_KEY|BW_SESSION|OP_SESSION_my|CI_JOB_JWT|SENTRY_DSN|SLACK_WEBHOOK_URL|AZURE_STORAGE_CONNECTION_STRING|DOCKER_AUTH_CONFIG)=' <<<"$out"
report $? "keys, unlocked sessions, job tokens, DSNs and webhooks are filtered; XDG_SESSION_TYPE stays" "rc=$rc" "$out"
