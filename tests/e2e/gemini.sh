#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real Gemini CLI (scripts/fetch-agents.sh installs it), headless (-p),
# driven by the scripted model of fake_model.py over the Gemini API
# (streamGenerateContent with functionCall parts), through `sluice hook
# gemini` (plain and --route) and `sluice mcp`: what the model is handed for
# a denied force push, an allowed command, a failing one, a background job
# and an ask. The attack first: in a folder that is not trusted, even with
# --skip-trust, the project's settings (and so the hook) are dropped and
# workspace policies ignored, and Gemini CLI runs the force push itself;
# sluice must say so. A loud skip where Gemini CLI is not installed.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
. "$SLUICE_SRCDIR/tests/e2e/lib.sh"

if [ -n "${SLUICE_IN_PACKAGE_BUILD:-}" ]; then
  skip "gemini: the end-to-end checks" "a package build downloads nothing"
  exit 0
fi
if ! e2e_find gemini @google/gemini-cli; then
  skip "gemini: the end-to-end checks" "Gemini CLI is not installed in $agents_dir (scripts/fetch-agents.sh)"
  exit 0
fi
# Gemini CLI needs Node.js 20 or later; Debian 12's own nodejs is 18.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  skip "gemini: the end-to-end checks" "Gemini CLI needs Node.js 20 or later, this node is ${node_major:-absent}"
  exit 0
fi
gemini=$e2e_bin

# gemini NAME ARGS...: gemini -p against session NAME's model, every tool
# call approved (--approval-mode yolo: sluice is what decides).
gemini() {
  "${e2e_env[@]}" GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$port" GEMINI_API_KEY=e2e-not-a-key \
    GEMINI_CLI_NO_RELAUNCH=true \
    timeout -k 5 600 "$gemini" -p "Run the steps." --approval-mode yolo "${@:2}"
}

policy='[[rule]]
toolName = "run_shell_command"
decision = "deny"
priority = 999
denyMessage = "Run shell commands with the sluice bash tool."'

# user_settings NAME [trusted]: the user's settings (an API key's auth, no
# update checks or statistics), and the workspace trusted in
# trustedFolders.json when asked.
user_settings() {
  mkdir -p "$TEST_TMP/$1-home/.gemini"
  echo '{"security": {"auth": {"selectedType": "gemini-api-key"}},
    "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
    "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}}' \
    >"$TEST_TMP/$1-home/.gemini/settings.json"
  if [ "${2:-}" = trusted ]; then
    printf '{"%s": "TRUST_FOLDER"}\n' "$TEST_TMP/$1" >"$TEST_TMP/$1-home/.gemini/trustedFolders.json"
  fi
}

# hook_settings NAME COMMAND: the project's .gemini/settings.json, as
# docs/integrations.md gives it.
hook_settings() {
  mkdir -p "$TEST_TMP/$1/.gemini"
  python3 -c '
import json, sys
print(json.dumps({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
  "hooks": [{"type": "command", "command": sys.argv[1], "timeout": 30000}]}]}}))' "$2" \
    >"$TEST_TMP/$1/.gemini/settings.json"
}
# The attack's setup: the hook and the policy in the project, the folder
# not trusted (the session gives --skip-trust).
control_settings() {
  user_settings "$1"
  hook_settings "$1" "$(e2e_sluice "$1") hook gemini"
  mkdir -p "$TEST_TMP/$1/.gemini/policies"
  printf '%s\n' "$policy" >"$TEST_TMP/$1/.gemini/policies/sluice.toml"
}
hook_config() { user_settings "$1" trusted; hook_settings "$1" "$(e2e_sluice "$1") hook gemini"; }
# The hook in the user's own settings, the folder not trusted.
user_hook_config() {
  user_settings "$1"
  python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
s["hooks"] = {"BeforeTool": [{"matcher": "run_shell_command",
  "hooks": [{"type": "command", "command": sys.argv[2], "timeout": 30000}]}]}
json.dump(s, open(sys.argv[1], "w"))' "$TEST_TMP/$1-home/.gemini/settings.json" "$(e2e_sluice "$1") hook gemini"
}
route_config() { user_settings "$1" trusted; hook_settings "$1" "$(e2e_sluice "$1") hook gemini --route --sandbox workspace-write"; }
# sluice mcp, the built-in shell taken away by the user's policy.
mcp_config() {
  user_settings "$1" trusted
  mkdir -p "$TEST_TMP/$1/.gemini" "$TEST_TMP/$1-home/.gemini/policies"
  python3 -c '
import json, sys
print(json.dumps({"mcpServers": {"sluice": {"command": sys.argv[1],
  "args": ["mcp", "--sandbox", "workspace-write"]}}}))' "$(e2e_sluice "$1")" >"$TEST_TMP/$1/.gemini/settings.json"
  printf '%s\n' "$policy" >"$TEST_TMP/$1-home/.gemini/policies/sluice.toml"
}

# offered NAME TOOL: the model was offered TOOL in session NAME.
offered() {
  python3 -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    for tool in (e.get("body") or {}).get("tools") or []:
        for d in tool.get("functionDeclarations") or []:
            if d.get("name") == sys.argv[2]:
                sys.exit(0)
sys.exit(1)' "$TEST_TMP/$1.requests" "$2"
}

for name in control userhook untrusted hook route mcp; do e2e_workspace "$name"; done
e2e_session control "$(script_json builtin "$(step_json bash "$push_cmd")")" control_settings \
  gemini control --skip-trust
e2e_session userhook "$(script_json builtin "$(step_json bash "$push_cmd")")" user_hook_config \
  gemini userhook --skip-trust
e2e_session untrusted "$(script_json builtin "$(step_json bash "$push_cmd")")" user_hook_config \
  gemini untrusted
e2e_session hook "$(script_json builtin "${common_steps[@]}" "$(step_json bash "$ask_cmd")")" hook_config \
  gemini hook
e2e_session route "$(script_json builtin "${common_steps[@]}")" route_config gemini route
e2e_session mcp "$(script_json mcp "${common_steps[@]}" "$(step_json bash "$bg_cmd" background)" \
  "$(step_json job_output)" "$(step_json bash "$ask_cmd")")" mcp_config gemini mcp
e2e_wait

check_attack control gemini "--skip-trust in an untrusted folder drops the project's hook: the force push rewrites the remote (the attack)"
offered control run_shell_command
report $? "gemini: --skip-trust in an untrusted folder: the workspace policy is ignored, run_shell_command still offered"
check_detected gemini "a project hook that would not take effect (folder not trusted) is detected" \
  env -C "$TEST_TMP/control" HOME="$TEST_TMP/control-home" "$(e2e_sluice control)" hook gemini --check
# --skip-trust trusts after the settings were read: the user's hook runs.
step_has userhook 0 'git_push' && [ "$(remote_main userhook)" = "$(remote_before userhook)" ]
report $? "gemini: --skip-trust in an untrusted folder: a hook in the user's settings runs, the force push is denied" \
  "$(step_text userhook 0)" "$(tail -c 600 "$TEST_TMP/userhook.err")"
! grep -q '^exited 0' "$TEST_TMP/untrusted.summary" && [ "$(remote_main untrusted)" = "$(remote_before untrusted)" ]
report $? "gemini: without --skip-trust, headless Gemini CLI does not work in an untrusted folder" \
  "$(cat "$TEST_TMP/untrusted.summary")" "$(tail -c 600 "$TEST_TMP/untrusted.err")"
run env -C "$TEST_TMP/userhook" HOME="$TEST_TMP/userhook-home" "$(e2e_sluice userhook)" hook gemini --check
[ "$rc" -eq 1 ] && grep -q 'only when Gemini CLI is started with --skip-trust' <<<"$out"
report $? "gemini: sluice's check says a user's hook in an untrusted folder takes effect only with --skip-trust" \
  "rc=$rc" "$out" "$err"
check_takes_effect gemini "the hook in a trusted folder" \
  env -C "$TEST_TMP/hook" HOME="$TEST_TMP/hook-home" "$(e2e_sluice hook)" hook gemini --check
check_common hook gemini hook
check_audited hook gemini
# Gemini CLI -p shows the hook's reason on stderr and ends the session at
# once: no function response goes back, and the command does not run.
[ -z "$(step_text hook 3)" ] && ! asked hook && grep -q 'Approval required by sluice' "$TEST_TMP/hook.err"
report $? "gemini: hook: an ask under -p ends the session: the model is handed nothing, nothing runs" \
  "$(step_text hook 3)" "$(tail -c 400 "$TEST_TMP/hook.err")"
check_common route gemini "hook --route"
! offered mcp run_shell_command && offered mcp mcp_sluice_bash
report $? "gemini: mcp: the user's policy takes run_shell_command away"
check_common mcp gemini mcp
step_has mcp 4 'e2e-background-42'
report $? "gemini: mcp: a background job's output reaches the model through job_output" \
  "job: $(step_text mcp 3)" "output: $(step_text mcp 4)"
# Gemini CLI leaves sluice's question unanswered; the approver answers it.
step_has mcp 5 'e2e-asked-42' && asked mcp && grep -q '"answeredBy":"program"' "$TEST_TMP/mcp.audit"
report $? "gemini: mcp: an ask goes to the approver program, which approves; the command runs" \
  "$(step_text mcp 5)" "$(grep 'e2e-asked' "$TEST_TMP/mcp.audit" 2>/dev/null)"
