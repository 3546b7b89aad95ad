#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `sluice run` decides before it spawns: a denied command never runs and the
# result names the plugin and the alternative; an ask goes to the approver;
# every request leaves one audit line; a rewrite runs instead of the text;
# the configured sandbox mode is a floor a request cannot lower.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

ws="$TEST_TMP/ws"
mkdir -p "$ws"
marker="$ws/ran" # inside the workspace: the default mode lets it be written

# Denied: nothing runs, exit 77, the text names the plugin and the way out.
run "$SLUICE" run -C "$ws" -- "touch '$marker'; git push --force origin main"
[ "$rc" -eq 77 ] && [ ! -e "$marker" ] &&
  grep -q '^\[command denied by policy git_push: ' <<<"$out" && grep -q '^\[instead: .*--force-with-lease' <<<"$out"
report $? "a denied command does not run; exit 77 and the plugin's message and suggestion" "rc=$rc marker=$([ -e "$marker" ] && echo present)" "$out"

# sluice's notes before the output are its own lines: an escape sequence
# or a newline from the agent's text, quoted in a policy's reason or in an
# error, is written out, not sent to the terminal.
run "$SLUICE" run -C "$ws" -- $'X\e[2K"$CMD" arg'
[ "$rc" -eq 77 ] && grep -qF "'X\\x1b[2K\"\$CMD\"'" <<<"$out" && ! grep -q $'\e' <<<"$out"
report $? "an escape sequence quoted in a policy's reason is written out" "rc=$rc" "$(cat -v <<<"$out")"
run "$SLUICE" run -C "$ws" --directory $'sub\ndir' -- true
[ "$rc" -eq 125 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -qF "'sub\\ndir'" <<<"$out"
report $? "a newline in the directory an error names keeps the note on one line" "rc=$rc" "$out"

# The launcher starts while the policies decide (it waits for its command);
# for a denied command it is withdrawn: it runs nothing and is not left
# running, in every sandbox mode. A launcher that ignored its withdrawal
# would keep sluice waiting for it: the timeout makes that a failure.
mkdir -p "$TEST_TMP/ws-withdrawn"
left=
for mode in unrestricted workspace-write restricted; do
  run timeout -k 5 20 "$SLUICE" run -C "$TEST_TMP/ws-withdrawn" --sandbox "$mode" -- "touch '$marker'; git push --force"
  [ "$rc" -eq 77 ] || left+=" $mode:rc=$rc"
  # (the protected folders' tidier, which waits to remove what it made, aside)
  pgrep -a -f -- "--workspace $TEST_TMP/ws-withdrawn" | grep -qv -- --tidy-protected &&
    left+=" $mode:launcher-alive"
done
ls "$XDG_RUNTIME_DIR/sluice/jobs" 2>/dev/null | grep -q '^tmp-' && left+=" tmpdir-left"
[ -z "$left" ] && [ ! -e "$marker" ]
report $? "a denied command: the early launcher runs nothing, and neither it nor its TMPDIR is left" \
    "$left" "marker: $([ -e "$marker" ] && echo present)" "$(ls -la "$XDG_RUNTIME_DIR/sluice/jobs" 2>&1)"

out=$("$SLUICE" run -C "$ws" --format json -- 'git add -A') && rc=0 || rc=$?
[ "$rc" -eq 77 ] && [ "$(json_get "$out" 'd["error"]["kind"] + " " + d["policy"]["verdict"] + " " + d["policy"]["reasons"][0]["plugin"] + " " + str(d["exitCode"])')" = "permission_denied deny git_add None" ] &&
  [ "$(json_get "$out" 'd["error"]["message"]')" = "denied by policy git_add" ]
report $? "JSON: permission_denied, the verdict and the reason (once: the error names the plugin), no exit code" "rc=$rc" "$out"

# Through wrappers and nesting, as the model sees it.
run "$SLUICE" run -C "$ws" -- "echo ok | sudo -u root bash -c 'rm -rf ~'"
[ "$rc" -eq 77 ] && grep -q 'rm_targets' <<<"$out"
report $? "rm -rf ~ inside sudo bash -c is denied" "rc=$rc" "$out"

# Allowed commands run as before.
run "$SLUICE" run -C "$ws" -- 'git --version >/dev/null && echo allowed'
expect "an ordinary command runs" 0 '^allowed$'

# An ask: refused by default (fail closed), answered by an approver program.
cat >"$TEST_TMP/ask.ini" <<INI
[plugin regex]
rule = publish
pattern = ^npm publish
action = ask
message = publishing a package needs a human
INI
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/ask.ini" -- "npm publish; touch '$marker'"
[ "$rc" -eq 77 ] && [ ! -e "$marker" ] && [ "$(grep -c 'publishing a package needs a human' <<<"$out")" -eq 1 ] &&
  grep -q '^\[not approved: no approver is configured' <<<"$out"
report $? "an ask with no approver configured is refused, naming the rule once and who did not approve it" "rc=$rc" "$out"

approver() { # approver NAME EXIT-STATUS: a program that records its input
  cat >"$TEST_TMP/$1" <<SH
#!/bin/sh
cat >"$TEST_TMP/$1.request"
exit $2
SH
  chmod +x "$TEST_TMP/$1"
}
approver yes 0
approver no 1
for answer in yes no; do
  cat "$TEST_TMP/ask.ini" >"$TEST_TMP/approve-$answer.ini"
  printf '[approval]\nmethod = program\nprogram = %s\n' "$TEST_TMP/$answer" >>"$TEST_TMP/approve-$answer.ini"
done
# A system-locked key: the approver comes from the system layer here.
mkdir -p "$TEST_TMP/etc-yes/sluice" "$TEST_TMP/etc-no/sluice"
cp "$TEST_TMP/approve-yes.ini" "$TEST_TMP/etc-yes/sluice/sluice.ini"
cp "$TEST_TMP/approve-no.ini" "$TEST_TMP/etc-no/sluice/sluice.ini"
rm -f "$marker"
out=$(SLUICE_SYSCONFDIR="$TEST_TMP/etc-yes" "$SLUICE" run -C "$ws" -- "npm publish 2>/dev/null; touch '$marker'") && rc=0 || rc=$?
[ -e "$marker" ] && grep -q '"command": *"npm publish' "$TEST_TMP/yes.request" && grep -q 'publishing a package' "$TEST_TMP/yes.request"
report $? "an approver that exits 0 approves; it got the command and the reasons as JSON" "rc=$rc" "$out" "$(cat "$TEST_TMP/yes.request" 2>&1)"
rm -f "$marker"
out=$(SLUICE_SYSCONFDIR="$TEST_TMP/etc-no" "$SLUICE" run -C "$ws" -- "npm publish; touch '$marker'") && rc=0 || rc=$?
[ "$rc" -eq 77 ] && [ ! -e "$marker" ]
report $? "an approver that exits non-zero refuses (77)" "rc=$rc" "$out"

# The audit log: one JSON line per request, allowed or denied.
log="$TEST_TMP/audit.log"
mkdir -p "$TEST_TMP/etc-audit/sluice"
printf '[audit]\nfile = %s\n' "$log" >"$TEST_TMP/etc-audit/sluice/sluice.ini"
SLUICE_SYSCONFDIR="$TEST_TMP/etc-audit" "$SLUICE" run -C "$ws" -- 'exit 3' >/dev/null || true
SLUICE_SYSCONFDIR="$TEST_TMP/etc-audit" "$SLUICE" run -C "$ws" -- 'git push -f' >/dev/null || true
[ "$(wc -l <"$log")" -eq 2 ] &&
  [ "$(python3 -c 'import json,sys; a,b=[json.loads(l) for l in open(sys.argv[1])]; print(a["command"], a["exitCode"], b["verdict"], b["reasons"][0]["plugin"], b["error"])' "$log" 2>&1)" = "exit 3 3 deny git_push permission_denied" ] &&
  [ "$(stat -c %a "$log")" = 600 ]
report $? "the audit log has one 0600 JSON line per request with the exit code and verdict" "$(cat "$log" 2>&1)" "mode $(stat -c %a "$log" 2>&1)"

# A required audit log that cannot be written refuses the command: an error
# of sluice's configuration (125), not a policy's refusal (77).
printf '[audit]\nfile = %s/no-such-dir/audit.log\nrequired = yes\n' "$TEST_TMP" >"$TEST_TMP/etc-audit/sluice/sluice.ini"
rm -f "$marker"
run env SLUICE_SYSCONFDIR="$TEST_TMP/etc-audit" "$SLUICE" run -C "$ws" -- "touch '$marker'"
[ "$rc" -eq 125 ] && [ ! -e "$marker" ] && grep -q '^\[sluice error config_error: the audit log is required' <<<"$out"
report $? "a required audit log that cannot be opened refuses the command" "rc=$rc" "$out"

# A rewrite: git_trailer adds its trailer to git commit, and that is what runs.
printf '[plugin git_trailer]\nenabled = yes\ntrailer = Co-authored-by: Agent <agent@example.com>\n' >"$TEST_TMP/trailer.ini"
git -C "$ws" init -q 2>/dev/null
git -C "$ws" -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m base
out=$(cd "$ws" && "$SLUICE" run --config "$TEST_TMP/trailer.ini" --sandbox unrestricted -- \
  'git -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m change') && rc=0 || rc=$?
[ "$rc" -eq 0 ] && git -C "$ws" log -1 --format=%B | grep -q '^Co-authored-by: Agent <agent@example.com>$'
report $? "a plugin's rewrite is what runs (git_trailer adds its trailer)" "rc=$rc" "$out" "$(git -C "$ws" log -1 --format=%B)"
# ... and what the result shows as having run
out=$(cd "$ws" && "$SLUICE" run --config "$TEST_TMP/trailer.ini" --sandbox unrestricted --format json -- \
  'git -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m again') && rc=0 || rc=$?
[ "$rc" -eq 0 ] && grep -q 'Co-authored-by: Agent' <<<"$(json_get "$out" 'd["display"]')"
report $? "a rewritten command's display is the rewrite's" "rc=$rc" "$out"
run "$SLUICE" check --config "$TEST_TMP/trailer.ini" --format json -- 'git commit -m again'
[ "$rc" -eq 0 ] && grep -q 'Co-authored-by: Agent' <<<"$(json_get "$out" 'd["display"]')"
report $? "sluice check shows a rewritten command's display as the rewrite's too" "rc=$rc" "$out"
run "$SLUICE" check --batch --config "$TEST_TMP/trailer.ini" <<<'{"command":"git commit -m again"}'
[ "$rc" -eq 0 ] && grep -q 'Co-authored-by: Agent' <<<"$(json_get "$out" 'd["display"]')"
report $? "sluice check --batch shows a rewritten command's display as the rewrite's too" "rc=$rc" "$out"

# Configuration errors: nothing runs, config_error, file:line on stderr.
printf '[broker]\ntimout = 5s\n' >"$TEST_TMP/bad.ini"
rm -f "$marker"
run "$SLUICE" run --config "$TEST_TMP/bad.ini" -- "touch '$marker'"
[ "$rc" -eq 125 ] && [ ! -e "$marker" ] && grep -q "bad.ini:2:.*timout" <<<"$err" && grep -q 'config_error' <<<"$out"
report $? "a bad configuration file refuses the command with file:line" "rc=$rc" "$out" "$err"

# The configured sandbox mode is a floor: a request may tighten, not loosen.
printf '[sandbox]\nmode = workspace-write\n' >"$TEST_TMP/ww.ini"
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/ww.ini" --sandbox unrestricted -- true
[ "$rc" -eq 125 ] && grep -q "looser than the configured 'workspace-write'" <<<"$out"
report $? "--sandbox cannot loosen the configured mode" "rc=$rc" "$out"
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/ww.ini" --sandbox restricted --format json -- true
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["sandbox"]["mode"]')" = restricted ]
report $? "--sandbox can tighten the configured mode" "rc=$rc" "$out"

# A plugin that cannot be loaded is a configuration error too: nothing runs.
printf '[plugin missing]\npath = %s/no-such-plugin.so\nenabled = yes\n' "$TEST_TMP" >"$TEST_TMP/missing.ini"
rm -f "$marker"
run "$SLUICE" run --config "$TEST_TMP/missing.ini" -- "touch '$marker'"
[ "$rc" -eq 125 ] && [ ! -e "$marker" ] && grep -q "config_error" <<<"$out" && grep -q "missing" <<<"$out"
report $? "a plugin that cannot be loaded refuses the command as config_error, naming it" "rc=$rc" "$out" "$err"

# An audit log that is configured, not required, and cannot be opened: the
# command runs, and its result says the audit line was lost.
mkdir -p "$TEST_TMP/etc-lost/sluice"
printf '[audit]\nfile = %s/no-such-dir/audit.log\n' "$TEST_TMP" >"$TEST_TMP/etc-lost/sluice/sluice.ini"
run env SLUICE_SYSCONFDIR="$TEST_TMP/etc-lost" "$SLUICE" run -C "$ws" -- 'echo ran'
[ "$rc" -eq 0 ] && grep -q '^ran$' <<<"$out" && grep -q 'audit line of this request could not be written' <<<"$out"
report $? "an audit log that cannot be opened (not required) is reported in the result" "rc=$rc" "$out"

# A command longer than the model's default size limit (64 KiB) but within a
# raised max_command_size is examined whole, by sluice run and sluice check
# alike: it runs when allowed, and a denied command at its very end is found
# (not merely asked about as "not fully examined").
printf '[broker]\nmax_command_size = 100KiB\n' >"$TEST_TMP/big.ini"
pad=$(head -c 70000 /dev/zero | tr '\0' x)
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/big.ini" -- "echo examined-whole; : $pad"
[ "$rc" -eq 0 ] && grep -q '^examined-whole$' <<<"$out"
report $? "a 70 KB command under max_command_size = 100KiB runs" "rc=$rc" "${out:0:400}"
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/big.ini" -- ": $pad; git add -A"
[ "$rc" -eq 77 ] && grep -q '^\[command denied by policy git_add: ' <<<"$out"
report $? "a 70 KB command under max_command_size = 100KiB: the denied command at its end is found" "rc=$rc" "${out:0:400}"
run "$SLUICE" check --config "$TEST_TMP/big.ini" --format json -- ": $pad; git add -A"
[ "$rc" -eq 1 ] && [ "$(json_get "$out" 'd["verdict"]')" = deny ] &&
  [ "$(json_get "$out" '",".join(r["plugin"] for r in d["reasons"])')" = git_add ]
report $? "sluice check examines the same 70 KB command whole: git_add denies it" "rc=$rc" "${out:0:400}"
