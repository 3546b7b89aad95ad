#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real Claude Code (scripts/fetch-agents.sh installs it), driven by the
# scripted model of fake_model.py, through `sluice hook claude-code` (plain
# and --route) and `sluice mcp`: what the model is handed for a denied force
# push, an allowed command, a failing one, a background job and an ask. The
# attack first: without sluice the same script's force push rewrites the
# remote. A loud skip where Claude Code is not installed.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
. "$SLUICE_SRCDIR/tests/e2e/lib.sh"

checks=("without sluice the scripted force push rewrites the remote (the attack)"
  "hook: the force push is denied and the model reads sluice's reason"
  "hook: the remote's main is unchanged (read from outside)"
  "hook: an allowed command's stdout and stderr reach the model"
  "hook: a failing command's output reaches the model"
  "hook: an ask under -p is refused, the model reads why, nothing runs"
  "hook: the verdicts are audited"
  "hook --route: the force push is denied and the model reads sluice's reason"
  "hook --route: the remote's main is unchanged (read from outside)"
  "hook --route: an allowed command's stdout and stderr reach the model"
  "hook --route: a failing command's output reaches the model"
  "mcp: the force push is denied and the model reads sluice's reason"
  "mcp: the remote's main is unchanged (read from outside)"
  "mcp: an allowed command's stdout and stderr reach the model"
  "mcp: a failing command's output reaches the model"
  "mcp: a background job's output reaches the model through job_output"
  "mcp: an ask is put to Claude Code (elicitation), accepted, and the command runs")
if [ -n "${SLUICE_IN_PACKAGE_BUILD:-}" ]; then
  e2e_skip_all claude-code "a package build downloads nothing" "${checks[@]}"
  exit 0
fi
if ! e2e_find claude; then
  e2e_skip_all claude-code "Claude Code is not installed in $agents_dir (scripts/fetch-agents.sh)" "${checks[@]}"
  exit 0
fi
claude=$e2e_bin
echo "# Claude Code $e2e_version"

# claude_session NAME ARGS...: Claude Code -p in workspace NAME with a home of
# its own, against the session's model; its output in NAME.out/NAME.err.
claude_session() {
  local name=$1 start=$SECONDS
  shift
  mkdir -p "$TEST_TMP/$name-home"
  (cd "$TEST_TMP/$name" && "${e2e_env[@]}" HOME="$TEST_TMP/$name-home" \
    ANTHROPIC_BASE_URL="http://127.0.0.1:$port" ANTHROPIC_API_KEY=sk-e2e-not-a-key \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
    timeout -k 5 150 "$claude" -p "Run the steps." --output-format json "$@" \
    </dev/null >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err")
  echo "# $name: Claude Code exited $? after $((SECONDS - start)) s"
  e2e_stop
  e2e_results "$name"
}

# hook_settings NAME PRETOOLUSE-COMMAND: the project's .claude/settings.json.
hook_settings() {
  mkdir -p "$TEST_TMP/$1/.claude"
  python3 -c '
import json, sys
hook = lambda c, t: [{"matcher": "Bash", "hooks": [{"type": "command", "command": c, "timeout": t}]}]
print(json.dumps({"hooks": {"PreToolUse": hook(sys.argv[1], 30),
                            "PermissionRequest": hook(sys.argv[2], 90)}}))' \
    "$2" "$e2e_sluice hook claude-code" >"$TEST_TMP/$1/.claude/settings.json"
}

# The attack: the built-in Bash, no sluice, the same force push.
e2e_workspace control
e2e_serve control "$(script_json builtin "$(step_json bash "$push_cmd")")"
claude_session control --allowedTools Bash
[ "$(remote_main control)" != "$remote_before" ]
report $? "claude-code: ${checks[0]}" "remote main $(remote_main control), before $remote_before" "$(tail -c 600 "$TEST_TMP/control.err")"

# The hook, plain: Claude Code runs the command itself once sluice agrees.
e2e_workspace hook
hook_settings hook "$e2e_sluice hook claude-code"
e2e_serve hook "$(script_json builtin "$(step_json bash "$push_cmd")" "$(step_json bash "$out_cmd")" \
  "$(step_json bash "$fail_cmd")" "$(step_json bash "$ask_cmd")")"
claude_session hook --allowedTools Bash
check_common hook claude-code hook
# Claude Code -p has no dialog: an ask is refused at once (its
# PermissionRequest hooks are not called, so the approver is not asked).
step_has hook 3 'Approval required by sluice' "only known when it runs" && ! step_has hook 3 'e2e-asked-42'
report $? "claude-code: ${checks[5]}" "$(step_text hook 3)" "$(cat "$TEST_TMP/approver.requests" 2>/dev/null)"
grep -q 'git push --force origin main' "$TEST_TMP/audit.log" 2>/dev/null
report $? "claude-code: ${checks[6]}" "$(cat "$TEST_TMP/audit.log" 2>/dev/null)"

# --route: the allowed commands run through `sluice run`.
e2e_workspace route
hook_settings route "$e2e_sluice hook claude-code --route --sandbox workspace-write"
e2e_serve route "$(script_json builtin "$(step_json bash "$push_cmd")" "$(step_json bash "$out_cmd")" \
  "$(step_json bash "$fail_cmd")")"
claude_session route --allowedTools Bash
check_common route claude-code "hook --route"

# sluice mcp, the built-in Bash denied as docs/integrations.md says; an
# Elicitation hook answers sluice's question (Claude Code -p has no dialog).
e2e_workspace mcp
mkdir -p "$TEST_TMP/mcp/.claude"
printf '#!/bin/sh\ncat >>"%s"\necho %s\n' "$TEST_TMP/elicitation.requests" \
  "'{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"accept\",\"content\":{\"remember\":false}}}'" \
  >"$TEST_TMP/bin/elicit"
chmod +x "$TEST_TMP/bin/elicit"
python3 -c '
import json, sys
print(json.dumps({"permissions": {"deny": ["Bash"]},
  "hooks": {"Elicitation": [{"matcher": "sluice", "hooks": [{"type": "command", "command": sys.argv[1]}]}]}}))' \
  "$TEST_TMP/bin/elicit" >"$TEST_TMP/mcp/.claude/settings.json"
python3 -c '
import json, sys
print(json.dumps({"mcpServers": {"sluice": {"command": sys.argv[1],
  "args": ["mcp", "--sandbox", "workspace-write"]}}}))' "$e2e_sluice" >"$TEST_TMP/mcp-config.json"
e2e_serve mcp "$(script_json mcp "$(step_json bash "$push_cmd")" "$(step_json bash "$out_cmd")" \
  "$(step_json bash "$fail_cmd")" "$(step_json bash "$bg_cmd" background)" "$(step_json job_output)" \
  "$(step_json bash "$ask_cmd")")"
claude_session mcp --mcp-config "$TEST_TMP/mcp-config.json" --strict-mcp-config \
  --allowedTools mcp__sluice__bash,mcp__sluice__job_output
check_common mcp claude-code mcp
step_has mcp 4 'e2e-background-42'
report $? "claude-code: ${checks[15]}" "job: $(step_text mcp 3)" "output: $(step_text mcp 4)"
step_has mcp 5 'e2e-asked-42' && grep -q "e2e-asked-" "$TEST_TMP/elicitation.requests"
report $? "claude-code: ${checks[16]}" "$(step_text mcp 5)" "$(cat "$TEST_TMP/elicitation.requests" 2>/dev/null)"
