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

checks=("--skip-trust in an untrusted folder drops the project's hook: the force push rewrites the remote (the attack)"
  "--skip-trust in an untrusted folder: the workspace policy is ignored, run_shell_command still offered"
  "sluice hook gemini --check says the project's hook would not take effect"
  "hook: the force push is denied and the model reads sluice's reason"
  "hook: the remote's main is unchanged (read from outside)"
  "hook: an allowed command's stdout and stderr reach the model"
  "hook: a failing command's output reaches the model"
  "hook: the verdicts are audited"
  "hook --route: the force push is denied and the model reads sluice's reason"
  "hook --route: the remote's main is unchanged (read from outside)"
  "hook --route: an allowed command's stdout and stderr reach the model"
  "hook --route: a failing command's output reaches the model"
  "mcp: the user's policy takes run_shell_command away"
  "mcp: the force push is denied and the model reads sluice's reason"
  "mcp: the remote's main is unchanged (read from outside)"
  "mcp: an allowed command's stdout and stderr reach the model"
  "mcp: a failing command's output reaches the model"
  "mcp: a background job's output reaches the model through job_output")
if [ -n "${SLUICE_IN_PACKAGE_BUILD:-}" ]; then
  e2e_skip_all gemini "a package build downloads nothing" "${checks[@]}"
  exit 0
fi
if ! e2e_find gemini; then
  e2e_skip_all gemini "Gemini CLI is not installed in $agents_dir (scripts/fetch-agents.sh)" "${checks[@]}"
  exit 0
fi
gemini=$e2e_bin
echo "# Gemini CLI $e2e_version"

policy='[[rule]]
toolName = "run_shell_command"
decision = "deny"
priority = 999
denyMessage = "Run shell commands with the sluice bash tool."'

# gemini_home NAME [trusted]: the user's settings (an API key's auth, no
# update checks or statistics), and the workspace trusted in
# trustedFolders.json when asked.
gemini_home() {
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

# gemini_session NAME ARGS...: gemini -p in workspace NAME, every tool call
# approved (--approval-mode yolo: sluice is what decides); its output in
# NAME.out/NAME.err.
gemini_session() {
  local name=$1 start=$SECONDS
  shift
  (cd "$TEST_TMP/$name" && "${e2e_env[@]}" HOME="$TEST_TMP/$name-home" \
    GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$port" GEMINI_API_KEY=e2e-not-a-key \
    GEMINI_CLI_NO_RELAUNCH=true \
    timeout -k 5 150 "$gemini" -p "Run the steps." --approval-mode yolo "$@" \
    </dev/null >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err")
  echo "# $name: gemini exited $? after $((SECONDS - start)) s"
  e2e_stop
  e2e_results "$name"
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

# The attack: the hook and the policy in the project, the folder not
# trusted, --skip-trust given.
e2e_workspace control
hook_settings control "$e2e_sluice hook gemini"
mkdir -p "$TEST_TMP/control/.gemini/policies"
printf '%s\n' "$policy" >"$TEST_TMP/control/.gemini/policies/sluice.toml"
gemini_home control
e2e_serve control "$(script_json builtin "$(step_json bash "$push_cmd")")"
gemini_session control --skip-trust
[ "$(remote_main control)" != "$remote_before" ]
report $? "gemini: ${checks[0]}" "remote main $(remote_main control), before $remote_before" "$(tail -c 600 "$TEST_TMP/control.err")"
offered control run_shell_command
report $? "gemini: ${checks[1]}"
run env -C "$TEST_TMP/control" HOME="$TEST_TMP/control-home" "$e2e_sluice" hook gemini --check
[ "$rc" -ne 0 ] && grep -qi 'trust' <<<"$out$err"
report $? "gemini: ${checks[2]}" "rc=$rc" "$out" "$err"

# The hook, plain, the folder trusted.
e2e_workspace hook
hook_settings hook "$e2e_sluice hook gemini"
gemini_home hook trusted
e2e_serve hook "$(script_json builtin "$(step_json bash "$push_cmd")" "$(step_json bash "$out_cmd")" \
  "$(step_json bash "$fail_cmd")" "$(step_json bash "$ask_cmd")")"
gemini_session hook
check_common hook gemini hook
grep -q 'git push --force origin main' "$TEST_TMP/audit.log" 2>/dev/null
report $? "gemini: ${checks[7]}" "$(cat "$TEST_TMP/audit.log" 2>/dev/null)"

# --route: the allowed commands run through `sluice run`.
e2e_workspace route
hook_settings route "$e2e_sluice hook gemini --route --sandbox workspace-write"
gemini_home route trusted
e2e_serve route "$(script_json builtin "$(step_json bash "$push_cmd")" "$(step_json bash "$out_cmd")" \
  "$(step_json bash "$fail_cmd")")"
gemini_session route
check_common route gemini "hook --route"

# sluice mcp, the built-in shell taken away by the user's policy.
e2e_workspace mcp
mkdir -p "$TEST_TMP/mcp/.gemini"
python3 -c '
import json, sys
print(json.dumps({"mcpServers": {"sluice": {"command": sys.argv[1],
  "args": ["mcp", "--sandbox", "workspace-write"]}}}))' "$e2e_sluice" >"$TEST_TMP/mcp/.gemini/settings.json"
gemini_home mcp trusted
mkdir -p "$TEST_TMP/mcp-home/.gemini/policies"
printf '%s\n' "$policy" >"$TEST_TMP/mcp-home/.gemini/policies/sluice.toml"
e2e_serve mcp "$(script_json mcp "$(step_json bash "$push_cmd")" "$(step_json bash "$out_cmd")" \
  "$(step_json bash "$fail_cmd")" "$(step_json bash "$bg_cmd" background)" "$(step_json job_output)" \
  "$(step_json bash "$ask_cmd")")"
gemini_session mcp
! offered mcp run_shell_command && offered mcp mcp_sluice_bash
report $? "gemini: ${checks[12]}"
check_common mcp gemini mcp
step_has mcp 4 'e2e-background-42'
report $? "gemini: ${checks[17]}" "job: $(step_text mcp 3)" "output: $(step_text mcp 4)"
