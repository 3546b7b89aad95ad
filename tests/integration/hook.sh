#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `sluice hook claude-code|gemini|codex` with payloads in the shape those
# agents' shipped code sends (Claude Code 2.1, Gemini CLI 0.61, Codex
# 0.169): shell commands decided, answered exactly as each agent's parser
# accepts, other tools passed, bad input blocked with exit 2 (fail closed),
# and --route replacing the command with a `sluice run` of exactly the same
# text.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# a routed write beside the workspace must meet the sandbox, not that tmpfs.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

cwd="$TEST_TMP/project"
mkdir -p "$cwd"

# claude TOOL INPUT-JSON [EVENT]: a PreToolUse payload (or PermissionRequest,
# which has permission_suggestions instead of tool_use_id).
claude() {
  python3 -c '
import json, sys
d = {"session_id": "abc123",
  "transcript_path": "/home/u/.claude/projects/p/00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl",
  "cwd": sys.argv[1], "permission_mode": "default", "effort": {"level": "high"},
  "hook_event_name": sys.argv[4], "tool_name": sys.argv[2], "tool_input": json.loads(sys.argv[3])}
if sys.argv[4] == "PermissionRequest":
  d["permission_suggestions"] = [{"type": "addRules", "rules": [{"toolName": "Bash"}],
    "behavior": "allow", "destination": "localSettings"}]
else:
  d["tool_use_id"] = "toolu_01ABC123"
print(json.dumps(d))' "$cwd" "$1" "$2" "${3:-PreToolUse}"
}
# gemini TOOL INPUT-JSON: a BeforeTool payload.
gemini() {
  python3 -c '
import json, sys
print(json.dumps({"session_id": "s-1", "transcript_path": "/home/u/.gemini/tmp/t.json",
  "cwd": sys.argv[1], "hook_event_name": "BeforeTool", "timestamp": "2026-01-28T10:00:00.000Z",
  "tool_name": sys.argv[2], "tool_input": json.loads(sys.argv[3])}))' "$cwd" "$1" "$2"
}
# codex TOOL INPUT-JSON: a Codex PreToolUse payload (every shell tool is Bash).
codex() {
  python3 -c '
import json, sys
print(json.dumps({"session_id": "019a0000-0000-7000-8000-000000000000", "turn_id": "1",
  "transcript_path": None, "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
  "model": "gpt-5.5", "permission_mode": "default", "tool_name": sys.argv[2],
  "tool_input": json.loads(sys.argv[3]), "tool_use_id": "call_abc"}))' "$cwd" "$1" "$2"
}
# hook PAYLOAD ARGS...: run the hook on that payload.
hook() {
  local payload=$1
  shift
  run timeout -k 5 20 "$SLUICE" hook "$@" <<<"$payload"
}
# cmd_json TEXT: {"command": TEXT, ...} for a shell tool.
cmd_json() { python3 -c 'import json, sys; print(json.dumps({"command": sys.argv[1], "description": "d", "timeout": 120000}))' "$1"; }

hook "$(claude Bash "$(cmd_json 'ls -la')")" claude-code
[ "$rc" -eq 0 ] && [ -z "$out" ]
report $? "claude-code: an allowed Bash command gets no objection (exit 0, no output)" "rc=$rc" "$out" "$err"
hook "$(claude Read '{"file_path":"/etc/passwd"}')" claude-code
[ "$rc" -eq 0 ] && [ -z "$out" ]
report $? "claude-code: other tools pass" "rc=$rc" "$out"
hook "$(gemini run_shell_command "$(cmd_json 'ls -la')")" gemini
expect "gemini: an allowed run_shell_command gets {}" 0 '^\{\}$'
hook "$(gemini read_file '{"absolute_path":"/etc/passwd"}')" gemini
expect "gemini: other tools pass with {}" 0 '^\{\}$'
hook "$(codex Bash '{"command":"ls -la"}')" codex
[ "$rc" -eq 0 ] && [ -z "$out" ] && ok "codex: an allowed Bash command gets no output (Codex refuses a bare allow)" || not_ok "codex: an allowed Bash command gets no output (Codex refuses a bare allow)" "rc=$rc" "$out" "$err"
hook "$(codex apply_patch '{"command":"*** Begin Patch"}')" codex
[ "$rc" -eq 0 ] && [ -z "$out" ] && ok "codex: other tools pass" || not_ok "codex: other tools pass" "rc=$rc" "$out"

# Fail closed: exit 2 (the status that blocks) and the reason on stderr.
for agent in claude-code gemini codex; do
  hook 'this is not json' "$agent"
  expect "$agent: a payload that is not JSON blocks (exit 2)" 2 '' 'not JSON'
done
printf '[plugin regex]\nrule = broken\npattern = (ab\n' >"$TEST_TMP/badre.ini"
hook "$(claude Bash "$(cmd_json ls)")" claude-code --config "$TEST_TMP/badre.ini"
expect "claude-code: a plugin that cannot start blocks as a configuration error" 2 '' "config_error: plugin 'regex' could not start: .*badre.ini:3:"
hook "$(claude Bash "$(cmd_json ls)" PostToolUse)" claude-code
expect "claude-code: another event blocks" 2 '' 'not a PreToolUse or PermissionRequest event'
hook "$(claude Bash '{"command":["ls"]}')" claude-code
expect "claude-code: a command that is not a string blocks" 2 '' 'tool_input.command'
hook "$(gemini run_shell_command '{"command":""}')" gemini
expect "gemini: an empty command blocks" 2 '' 'invalid_request'
hook "$(claude Bash "$(cmd_json ls)" | sed "s|$cwd|$cwd/missing|")" claude-code
expect "claude-code: a working directory that does not exist blocks" 2 '' 'working directory'
hook "$(claude Bash "$(cmd_json ls)")" other-agent
expect "an unknown agent blocks" 2 '' 'options'
hook "$(claude Bash "$(cmd_json ls)")"
expect "no agent named blocks" 2

# The policy verdict: a force push is denied by the built-in git_push.
hook "$(claude Bash "$(cmd_json 'git push --force origin main')")" claude-code
v=$(json_get "$out" 'd["hookSpecificOutput"]["permissionDecision"] + " " + d["hookSpecificOutput"]["permissionDecisionReason"]' 2>/dev/null)
[ "$rc" -eq 0 ] && grep -q '^deny .*git_push.*--force-with-lease' <<<"$v"
report $? "claude-code: a denied command is answered deny with the policy's message and alternative" "rc=$rc" "$out"
hook "$(gemini run_shell_command "$(cmd_json 'git push --force origin main')")" gemini
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["decision"]' 2>/dev/null)" = deny ] && grep -q 'git_push' <<<"$out"
report $? "gemini: a denied command is answered decision deny with the reason" "rc=$rc" "$out"
hook "$(codex Bash '{"command":"git push --force origin main"}')" codex
v=$(json_get "$out" 'd["hookSpecificOutput"]["permissionDecision"] + " " + d["hookSpecificOutput"]["permissionDecisionReason"]' 2>/dev/null)
[ "$rc" -eq 0 ] && grep -q '^deny Denied by sluice policy git_push: .*--force-with-lease' <<<"$v"
report $? "codex: a denied command is answered deny with a non-empty reason" "rc=$rc" "$out"

# An ask (a nested script only known when it runs) is left to the agent,
# which puts it to its user: Claude Code and Gemini CLI ask; Codex refuses
# "ask", so it gets a deny that says why.
asked='sh -c "$SCRIPT"'
hook "$(claude Bash "$(cmd_json "$asked")")" claude-code
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["hookSpecificOutput"]["permissionDecision"]' 2>/dev/null)" = ask ]
report $? "claude-code: an ask verdict is answered ask" "rc=$rc" "$out"
hook "$(gemini run_shell_command "$(cmd_json "$asked")")" gemini
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["decision"] + " " + str(sorted(d))' 2>/dev/null)" = "ask ['decision', 'reason', 'systemMessage']" ] &&
  grep -q 'Approval required by sluice policy' <<<"$(json_get "$out" 'd["systemMessage"]')"
report $? "gemini: an ask verdict is answered decision ask, the reason in systemMessage" "rc=$rc" "$out"
hook "$(codex Bash "$(cmd_json "$asked")")" codex
v=$(json_get "$out" 'd["hookSpecificOutput"]["permissionDecision"] + " " + d["hookSpecificOutput"]["permissionDecisionReason"]' 2>/dev/null)
[ "$rc" -eq 0 ] && grep -q '^deny Approval required by sluice policy .*Codex hooks cannot ask the user' <<<"$v" &&
  ! grep -q '"ask"' <<<"$out"
report $? "codex: an ask verdict is a deny saying why (Codex refuses ask)" "rc=$rc" "$out"

# Where nobody at the agent can be asked (Codex; Claude Code's own dialog
# about to open), an approver program answers.
for answer in yes no; do
  printf '#!/bin/sh\ncat >"%s"\nexit %d\n' "$TEST_TMP/$answer.request" "$([ $answer = yes ] && echo 0 || echo 1)" >"$TEST_TMP/approver-$answer"
  chmod +x "$TEST_TMP/approver-$answer"
  mkdir -p "$TEST_TMP/etc-$answer/sluice"
  printf '[approval]\nmethod = program\nprogram = %s\n' "$TEST_TMP/approver-$answer" >"$TEST_TMP/etc-$answer/sluice/sluice.ini"
done
SLUICE_SYSCONFDIR="$TEST_TMP/etc-yes" hook "$(codex Bash "$(cmd_json "$asked")")" codex
[ "$rc" -eq 0 ] && [ -z "$out" ] && grep -q 'SCRIPT' "$TEST_TMP/yes.request"
report $? "codex: an ask an approver program approves gets no objection" "rc=$rc" "$out" "$err"
SLUICE_SYSCONFDIR="$TEST_TMP/etc-no" hook "$(codex Bash "$(cmd_json "$asked")")" codex
[ "$rc" -eq 0 ] && grep -q 'not given: the approver .*approver-no said no' <<<"$out"
report $? "codex: an ask an approver program refuses is a deny naming it" "rc=$rc" "$out" "$err"
SLUICE_SYSCONFDIR="$TEST_TMP/etc-yes" hook "$(claude Bash "$(cmd_json "$asked")" PermissionRequest)" claude-code
[ "$rc" -eq 0 ] && [ "$out" = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}' ]
report $? "claude-code PermissionRequest: an approver program answers the dialog (allow)" "rc=$rc" "$out" "$err"
SLUICE_SYSCONFDIR="$TEST_TMP/etc-no" hook "$(claude Bash "$(cmd_json "$asked")" PermissionRequest)" claude-code
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["hookSpecificOutput"]["decision"]["behavior"]' 2>/dev/null)" = deny ]
report $? "claude-code PermissionRequest: an approver program answers the dialog (deny, with why)" "rc=$rc" "$out" "$err"
hook "$(claude Bash "$(cmd_json "$asked")" PermissionRequest)" claude-code
[ "$rc" -eq 0 ] && [ -z "$out" ]
report $? "claude-code PermissionRequest: without an approver program the dialog asks the user" "rc=$rc" "$out" "$err"

# --route: the very same text runs through sluice run. Quotes, $, backslashes,
# newlines, text beyond ASCII and a non-zero exit survive unchanged.
tricky=$'printf \'<%s>\' "a  b" \'c$HOME\' "d\\"e" \\\\ \'été ✓\'; echo\necho "$((6 * 7))" >&2; exit 3'
(cd "$cwd" && bash -c "$tricky") >"$TEST_TMP/direct" 2>&1 && direct_rc=0 || direct_rc=$?
hook "$(claude Bash "$(cmd_json "$tricky")")" claude-code --route
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["hookSpecificOutput"]["permissionDecision"]')" = allow ] &&
  [ "$(json_get "$out" 'd["hookSpecificOutput"]["updatedInput"]["description"]')" = d ]
report $? "claude-code --route: allow with updatedInput, the other fields kept" "rc=$rc" "$out" "$err"
routed=$(json_get "$out" 'd["hookSpecificOutput"]["updatedInput"]["command"]')
(cd "$cwd" && timeout 20 bash -c "$routed") >"$TEST_TMP/routed" 2>&1 && routed_rc=0 || routed_rc=$?
grep -qF "$(head -n 1 "$TEST_TMP/direct")" "$TEST_TMP/routed" && grep -q '^42$' "$TEST_TMP/routed" && [ "$direct_rc" -eq 3 ] && [ "$routed_rc" -eq 3 ]
report $? "the routed command runs the same text through sluice run, with its exit status" "direct ($direct_rc): $(cat "$TEST_TMP/direct")" "routed ($routed_rc): $(cat "$TEST_TMP/routed")"
grep -q '^\[command failed: exit code 3\]' "$TEST_TMP/routed"
report $? "the routed output is sluice run's text form" "$(cat "$TEST_TMP/routed")"

# Codex refuses a command with `rm` in it, in every mode, and an agent may
# never run a routed command (its user declined): the request is inline, so
# the command has no rm, no redirection from a file, and no file is made.
jobs_before=$(ls -A "$XDG_RUNTIME_DIR/sluice/jobs" 2>/dev/null | grep -c '^route-')
hook "$(codex Bash "$(cmd_json "$tricky")")" codex --route
routed=$(json_get "$out" 'd["hookSpecificOutput"]["updatedInput"]["command"]')
jobs_after=$(ls -A "$XDG_RUNTIME_DIR/sluice/jobs" 2>/dev/null | grep -c '^route-')
bare=$(sed "s/'[^']*'/W/g" <<<"$routed")
[ "$rc" -eq 0 ] && [ "$bare" = "W run --request W" ] && [ "$jobs_after" -eq "$jobs_before" ]
report $? "codex --route: two quoted words, no rm, no redirection, no request file" \
  "rc=$rc" "$routed" "route files before $jobs_before, after $jobs_after"
(cd "$cwd" && timeout 20 bash -c "$routed") >"$TEST_TMP/routed" 2>&1 && routed_rc=0 || routed_rc=$?
grep -qF "$(head -n 1 "$TEST_TMP/direct")" "$TEST_TMP/routed" && [ "$routed_rc" -eq 3 ]
report $? "codex --route: the routed command runs the same text" "routed ($routed_rc): $(cat "$TEST_TMP/routed")"

# As root, routing does not list the shared /tmp for the abandoned TMPDIRs
# of [sandbox] user runs on every call (a directory that may be long);
# listing the jobs does. The directory is ten minutes old, with a
# jobs_max_age of five: too young for the other scripts' cleanups but the
# one with a short age, which the lock keeps away.
tmp_cleanup_check() {
  local stale hook_rc left
  mkdir -p "$TEST_TMP/etc-age/sluice"
  printf '[broker]\njobs_max_age = 5m\n' >"$TEST_TMP/etc-age/sluice/sluice.ini"
  stale=$(mktemp -d /tmp/sluice-tmp-XXXXXX)
  chown nobody "$stale" && touch -d '10 minutes ago' "$stale"
  SLUICE_SYSCONFDIR="$TEST_TMP/etc-age" hook "$(claude Bash "$(cmd_json 'true')")" claude-code --route
  hook_rc=$rc
  left=no
  [ -d "$stale" ] && left=yes
  run env SLUICE_SYSCONFDIR="$TEST_TMP/etc-age" "$SLUICE" jobs
  [ "$hook_rc" -eq 0 ] && [ "$left" = yes ] && [ "$rc" -eq 0 ] && [ ! -e "$stale" ]
  report $? "as root, a routed call leaves /tmp alone; sluice jobs cleans an old abandoned TMPDIR there" \
      "hook rc=$hook_rc, still there after it: $left; jobs rc=$rc" "$(ls -ld "$stale" 2>&1)"
  rm -rf "$stale"
}
if [ "$(id -u)" -eq 0 ]; then
  with_tmp_cleanup_lock tmp_cleanup_check
fi

# The routed command also tries to write beside the workspace: the sandbox
# asked for must refuse that.
outside="$TEST_TMP/hook-outside"
hook "$(gemini run_shell_command "$(cmd_json "echo \"\$((1 + 1))\"; touch '$outside' 2>/dev/null && echo wrote || echo refused")")" gemini --route --sandbox workspace-write
routed=$(json_get "$out" 'd["hookSpecificOutput"]["tool_input"]["command"]')
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["decision"]')" = allow ] && grep -q -- "--sandbox 'workspace-write'" <<<"$routed"
report $? "gemini --route: decision allow and hookSpecificOutput.tool_input.command" "$out" "$err"
(cd "$cwd" && timeout 20 bash -c "$routed") >"$TEST_TMP/routed" 2>&1 && routed_rc=0 || routed_rc=$?
if [ "$routed_rc" -eq 0 ] && [ "$(cat "$TEST_TMP/routed")" = $'2\nrefused' ] && [ ! -e "$outside" ]; then
  ok "the routed command runs under the sandbox mode asked for"
elif [ "${SLUICE_LAUNCH##*/}" = fake-launch.sh ]; then
  skip "the routed command runs under the sandbox mode asked for" "the stand-in launcher is not a sandbox"
elif grep -q 'sandbox_unavailable\|cannot enforce' "$TEST_TMP/routed"; then
  skip "the routed command runs under the sandbox mode asked for" "workspace-write is not enforceable here: $(head -n 1 "$TEST_TMP/routed")"
else
  not_ok "the routed command runs under the sandbox mode asked for" "rc=$routed_rc" "$(cat "$TEST_TMP/routed")"
fi

# A command too long to route (one argument of the agent's bash -c must
# stay under the kernel's 128 KiB) blocks with what failed and why.
printf '[broker]\nmax_command_size = 120KiB\n' >"$TEST_TMP/bigcmd.ini"
long=": $(head -c 100000 /dev/zero | tr '\0' x)"
hook "$(gemini run_shell_command "$(cmd_json "$long")")" gemini --route --config "$TEST_TMP/bigcmd.ini"
expect "--route: a command too long to route blocks, naming the size" 2 '' \
  "routing the command through sluice run failed: the command is too long to route"

# Every decision of a hook leaves its audit line, as `sluice run` and MCP
# calls do, naming the door it came in by (the agent, the event, routed).
mkdir -p "$TEST_TMP/etc-audit/sluice"
printf '[audit]\nfile = %s\n' "$TEST_TMP/hook-audit.log" >"$TEST_TMP/etc-audit/sluice/sluice.ini"
SLUICE_SYSCONFDIR="$TEST_TMP/etc-audit" hook "$(codex Bash "$(cmd_json 'git push --force origin main')")" codex
deny_rc=$rc
SLUICE_SYSCONFDIR="$TEST_TMP/etc-audit" hook "$(claude Bash "$(cmd_json 'echo audited')")" claude-code --route
SLUICE_SYSCONFDIR="$TEST_TMP/etc-audit" hook "$(gemini run_shell_command "$(cmd_json 'ls')")" gemini
SLUICE_SYSCONFDIR="$TEST_TMP/etc-audit" hook "$(claude Read '{"file_path":"/etc/passwd"}')" claude-code
lines=$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    print(d["via"], d["verdict"], d["command"], d["error"], d["exitCode"])' "$TEST_TMP/hook-audit.log" 2>&1)
[ "$deny_rc" -eq 0 ] && [ "$lines" = "hook codex pre-tool deny git push --force origin main permission_denied None
hook claude-code pre-tool routed allow echo audited None None
hook gemini pre-tool allow ls None None" ]
report $? "every hook decision leaves its audit line naming the door (other tools none)" "$lines"

# With [audit] required, a log that cannot be written blocks the hook.
mkdir -p "$TEST_TMP/etc-audit-req/sluice" "$TEST_TMP/audit-dir"
printf '[audit]\nfile = %s\nrequired = yes\n' "$TEST_TMP/audit-dir" >"$TEST_TMP/etc-audit-req/sluice/sluice.ini"
SLUICE_SYSCONFDIR="$TEST_TMP/etc-audit-req" hook "$(claude Bash "$(cmd_json 'echo hi')")" claude-code
expect "a required audit log that cannot be written blocks the hook" 2 '' "audit"
