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

if [ -n "${SLUICE_IN_PACKAGE_BUILD:-}" ]; then
  skip "claude-code: the end-to-end checks" "a package build downloads nothing"
  exit 0
fi
if ! e2e_find claude @anthropic-ai/claude-code; then
  skip "claude-code: the end-to-end checks" "Claude Code is not installed in $agents_dir (scripts/fetch-agents.sh)"
  exit 0
fi
claude=$e2e_bin

# claude NAME ARGS...: Claude Code -p against session NAME's model.
claude() {
  "${e2e_env[@]}" ANTHROPIC_BASE_URL="http://127.0.0.1:$port" ANTHROPIC_API_KEY=sk-e2e-not-a-key \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
    timeout -k 5 600 "$claude" -p "Run the steps." --output-format json "${@:2}"
}

# settings NAME PRETOOLUSE-COMMAND: the project's .claude/settings.json, as
# docs/integrations.md gives it.
settings() {
  mkdir -p "$TEST_TMP/$1/.claude"
  python3 -c '
import json, sys
hook = lambda c, t: [{"matcher": "Bash", "hooks": [{"type": "command", "command": c, "timeout": t}]}]
print(json.dumps({"hooks": {"PreToolUse": hook(sys.argv[1], 30),
                            "PermissionRequest": hook(sys.argv[2], 90)}}))' \
    "$2" "$(e2e_sluice "$1") hook claude-code" >"$TEST_TMP/$1/.claude/settings.json"
}
no_settings() { :; }
hook_settings() { settings "$1" "$(e2e_sluice "$1") hook claude-code"; }
route_settings() { settings "$1" "$(e2e_sluice "$1") hook claude-code --route --sandbox workspace-write"; }

# sluice mcp, the built-in Bash denied as docs/integrations.md says; an
# Elicitation hook answers sluice's question (-p shows no dialog), keeping
# what it was asked in mcp.elicitation.
mcp_settings() {
  mkdir -p "$TEST_TMP/$1/.claude"
  printf '#!/bin/sh\ncat >>"%s"\necho %s\n' "$TEST_TMP/$1.elicitation" \
    "'{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"accept\",\"content\":{\"remember\":false}}}'" \
    >"$TEST_TMP/$1-bin/elicit"
  chmod +x "$TEST_TMP/$1-bin/elicit"
  python3 -c '
import json, sys
print(json.dumps({"permissions": {"deny": ["Bash"]},
  "hooks": {"Elicitation": [{"matcher": "sluice", "hooks": [{"type": "command", "command": sys.argv[1]}]}]}}))' \
    "$TEST_TMP/$1-bin/elicit" >"$TEST_TMP/$1/.claude/settings.json"
  python3 -c '
import json, sys
print(json.dumps({"mcpServers": {"sluice": {"command": sys.argv[1],
  "args": ["mcp", "--sandbox", "workspace-write"]}}}))' "$(e2e_sluice "$1")" >"$TEST_TMP/$1.mcp.json"
}

for name in control hook route mcp; do e2e_workspace "$name"; done
# A host not on [network] allow (127.0.0.3, served here) that a command of
# the MCP session reaches: the egress proxy's question put to Claude Code's
# user (the Elicitation hook accepts). Where the launcher makes no network
# namespace there is no proxy, and the check says so.
net_steps=()
if "$SLUICE_LAUNCH" --print-features 2>/dev/null | grep -q '"net-namespace"' &&
  ip -4 addr show lo 2>/dev/null | grep -q '127.0.0.1/8'; then
  mkdir -p "$TEST_TMP/www"
  echo e2e-fetched-42 >"$TEST_TMP/www/index.html"
  net_port=$(free_port 127.0.0.3)
  (cd "$TEST_TMP/www" && exec timeout 900 python3 -m http.server "$net_port" --bind 127.0.0.3 >/dev/null 2>&1) &
  net_srv=$!
  wait_for 20 curl -sf -o /dev/null "http://127.0.0.3:$net_port/index.html"
  printf '\n[network]\nallow = 127.0.0.2:%s\nask_internal = yes\n' "$net_port" >>"$TEST_TMP/mcp-etc/sluice/sluice.ini"
  net_steps=("$(step_json bash "curl -sS -m 20 http://127.0.0.3:$net_port/index.html")")
fi
# The attack: the built-in Bash, no sluice, the same force push.
e2e_session control "$(script_json builtin "$(step_json bash "$push_cmd")")" no_settings \
  claude control --allowedTools Bash
# The hook, plain: Claude Code runs the command itself once sluice agrees.
e2e_session hook "$(script_json builtin "${common_steps[@]}" "$(step_json bash "$ask_cmd")")" hook_settings \
  claude hook --allowedTools Bash
# --route: the allowed commands run through `sluice run`.
e2e_session route "$(script_json builtin "${common_steps[@]}")" route_settings \
  claude route --allowedTools Bash
e2e_session mcp "$(script_json mcp "${common_steps[@]}" "$(step_json bash "$bg_cmd" background)" \
  "$(step_json job_output)" "$(step_json bash "$ask_cmd")" "${net_steps[@]}")" mcp_settings \
  claude mcp --mcp-config "$TEST_TMP/mcp.mcp.json" --strict-mcp-config \
  --allowedTools mcp__sluice__bash,mcp__sluice__job_output
e2e_wait

check_attack control claude-code "without sluice the scripted force push rewrites the remote (the attack)"
check_common hook claude-code hook
# Claude Code -p has no dialog: an ask is refused at once (its
# PermissionRequest hooks are not called, so the approver is not asked).
step_has hook 3 'Approval required by sluice' "only known when it runs" && ! asked hook
report $? "claude-code: hook: an ask under -p is refused, the model reads why, nothing runs" \
  "$(step_text hook 3)"
check_audited hook claude-code
check_common route claude-code "hook --route"
check_common mcp claude-code mcp
check_lean mcp claude-code
step_has mcp 4 'e2e-background-42'
report $? "claude-code: mcp: a background job's output reaches the model through job_output" \
  "job: $(step_text mcp 3)" "output: $(step_text mcp 4)"
step_has mcp 5 'e2e-asked-42' && asked mcp && grep -q 'e2e-asked-' "$TEST_TMP/mcp.elicitation" &&
  grep -q '"answeredBy":"mcp-client"' "$TEST_TMP/mcp.audit"
report $? "claude-code: mcp: an ask is put to Claude Code (elicitation), accepted, and the command runs" \
  "$(step_text mcp 5)" "$(cat "$TEST_TMP/mcp.elicitation" 2>/dev/null)"
if [ ${#net_steps[@]} -eq 1 ]; then
  step_has mcp 6 'e2e-fetched-42' && grep -q "Host: 127.0.0.3 port $net_port" "$TEST_TMP/mcp.elicitation" &&
    grep -q '"networkAsks":\[{"host":"127.0.0.3","port":'"$net_port"',"answer":"asked-yes","by":"mcp-client"' "$TEST_TMP/mcp.audit"
  report $? "claude-code: mcp: a host not on [network] allow is put to Claude Code (elicitation), accepted, and the model reads what was fetched" \
    "$(step_text mcp 6)" "$(cat "$TEST_TMP/mcp.elicitation" 2>/dev/null)" "$(tail -n 1 "$TEST_TMP/mcp.audit")"
  kill "$net_srv" 2>/dev/null
else
  skip "claude-code: mcp: a host not on [network] allow put to Claude Code" "no network namespace here (the egress proxy needs one)"
fi
