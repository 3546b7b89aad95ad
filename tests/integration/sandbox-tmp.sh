#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sandbox's private /tmp, attacked and used through `sluice run` as a
# user would: a secret another program left in the host's /tmp is
# readable without the sandbox (the positive control) and not inside; a
# file a command writes to /tmp, by a hard-coded name, reads back inside
# and is not there outside afterwards, in a foreground run and in a
# background job; TMPDIR is that /tmp; a workspace that lies in /tmp stays
# where it was; /tmp stops at tmpdir_size; a writable path that would
# hold /tmp is refused with a message that names it. Without a mount
# namespace (the fallback) the result names private-tmp missing.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the private /tmp"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"

# stdout_has TEXT: the last result's output holds the line TEXT.
stdout_has() {
  grep -qx -- "$1" <<<"$(json_get "$out" 'd["stdout"]')"
}

ws=$TEST_TMP/ws
new_repo "$ws"
if [ -z "$namespace" ]; then
  boxed_as workspace-write "$ws" 'echo x >/tmp/x 2>/dev/null || echo refused'
  [ "$(json_get "$out" '"private-tmp" in d["sandbox"]["missing"]')" = True ]
  report $? "without a mount namespace the result names private-tmp missing" "$out"
  skip_rest "the private /tmp" "no mount namespace here"
fi

# The host's /tmp holds a secret of another program's: a name the test
# owns, in /tmp itself whatever TMPDIR the test has.
secret=$(mktemp /tmp/sluice-secret.XXXXXX)
echo SECRET-TMP >"$secret"
chmod 0644 "$secret"
for mode in workspace-write restricted; do
  attack_check "$mode: the host's /tmp is not readable" \
    'boxed_as unrestricted "$ws" "cat $secret; ls /tmp"' \
    'boxed_as '"$mode"' "$ws" "cat $secret; ls /tmp"' \
    'grep -q SECRET-TMP <<<"$(json_get "$out" "d[\"stdout\"]")" || grep -qx "$(basename "$secret")" <<<"$(json_get "$out" "d[\"stdout\"]")"'
done
attack_check "a file written to /tmp inside is not there outside" \
  'boxed_as unrestricted "$ws" "echo planted >$secret.planted"' \
  'boxed_as workspace-write "$ws" "echo planted >$secret.planted"' \
  '[ -e "$secret.planted" ]' 'rm -f "$secret.planted"'
rm -f "$secret" "$secret.planted"

# A hard-coded /tmp name works, and TMPDIR is the same /tmp.
name=sluice-tmp-test-$$
for mode in workspace-write restricted; do
  boxed_as "$mode" "$ws" "echo here >/tmp/$name && cat /tmp/$name && echo \"tmpdir=\$TMPDIR\" && ls \"\$TMPDIR\""
  [ "$rc" -eq 0 ] && stdout_has here && stdout_has tmpdir=/tmp &&
    stdout_has "$name" && [ ! -e "/tmp/$name" ] &&
    [ "$(json_get "$out" '"private-tmp" in d["sandbox"]["enforced"]')" = True ]
  report $? "$mode: /tmp/$name written and read back inside, TMPDIR=/tmp, gone outside" "rc=$rc" "$out"
done

# A background job has a /tmp of its own too.
run "$SLUICE" run -C "$ws" --sandbox workspace-write --mode background --format json -- \
  "echo job >/tmp/$name && cat /tmp/$name && ls /tmp"
job=$(json_get "$out" 'd["jobId"]' 2>/dev/null) || job=
file=$(json_get "$out" 'd["outputFile"]' 2>/dev/null) || file=
wait_for 10 grep -q '^\[sluice: job .* completed\]' "$file" 2>/dev/null
[ -n "$job" ] && grep -qx job "$file" && grep -qx "$name" "$file" && [ ! -e "/tmp/$name" ]
report $? "a background job writes /tmp/$name and reads it back; gone outside" "$out" "$(cat "$file" 2>&1)"

# A workspace in /tmp stays where it was, writable, its repository kept.
tmp_ws=$(mktemp -d /tmp/sluice-ws.XXXXXX)
new_repo "$tmp_ws"
boxed_as workspace-write "$tmp_ws" 'pwd; echo edit >README && cat README; echo hook >.git/hooks/pre-commit 2>/dev/null || echo hooks-read-only'
[ "$rc" -eq 0 ] && stdout_has "$tmp_ws" && stdout_has edit && stdout_has hooks-read-only &&
  [ "$(cat "$tmp_ws/README")" = edit ] && [ ! -e "$tmp_ws/.git/hooks/pre-commit" ]
report $? "a workspace in /tmp: there inside, writable, its hooks read-only" "rc=$rc" "$out"
rm -rf "$tmp_ws"

# /tmp stops at its cap (the sandbox's own small file there, step
# git-excludes's, takes a page or so of it).
printf '[sandbox]\ntmpdir_size = 1MiB\n' >"$TEST_TMP/small-tmp.ini"
boxed_as workspace-write "$ws" "head -c 4M /dev/zero >/tmp/$name.big; stat -c size=%s /tmp/$name.big" \
  --config "$TEST_TMP/small-tmp.ini"
size=$(sed -n 's/.*size=\([0-9]*\).*/\1/p' <<<"$(json_get "$out" 'd["stdout"]')")
[ -n "$size" ] && [ "$size" -le 1048576 ] && [ "$size" -ge $((1048576 - 65536)) ] &&
  grep -q 'No space left on device' <<<"$(json_get "$out" 'd["output"]')" &&
  [ ! -e "/tmp/$name.big" ]
report $? "/tmp stops at tmpdir_size" "$out"

# A writable path that would hold /tmp is refused, naming it: the private
# /tmp would be covered.
printf '[sandbox]\nwritable = /tmp\n' >"$TEST_TMP/writable-tmp.ini"
run "$SLUICE" run -C "$ws" --sandbox workspace-write --format json --config "$TEST_TMP/writable-tmp.ini" -- true
[ "$rc" -eq 125 ] && grep -q "'/tmp' holds /tmp, which is the sandbox's private /tmp" <<<"$out$err"
report $? "writable = /tmp is refused with a message that names it" "rc=$rc" "$out" "$err"

# The fallback: Landlock alone, and the host's /tmp as it was.
if ! fallback_works; then
  skip_rest "the fallback names private-tmp missing" "cannot make a child user namespace here (unshare -U -r, setpriv)"
fi
run fallback "$SLUICE" run -C "$ws" --sandbox workspace-write --format json -- true
if grep -q '"kind":"config_error".*not trusted' <<<"$out"; then
  # as an ordinary user, the child namespace maps root's folders above the
  # plugins to nobody, and the plugins' trust check refuses them
  skip "the fallback names private-tmp missing" "the plugins are not trusted in the fallback's namespace here"
else
  [ "$(json_get "$out" '"private-tmp" in d["sandbox"]["missing"]')" = True ]
  report $? "the fallback names private-tmp missing" "$out" "$err"
fi
