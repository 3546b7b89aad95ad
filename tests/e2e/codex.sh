#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real Codex CLI (scripts/fetch-agents.sh installs it) under `codex
# exec`, driven by the scripted model of fake_model.py over the Responses
# API, through `sluice hook codex` (plain and --route) and `sluice mcp`:
# what the model is handed for a denied force push, an allowed command, a
# failing one, a background job and an ask. The attack first: with the hook
# installed but not trusted, Codex runs the force push itself, and sluice
# must say so. A loud skip where Codex is not installed.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
. "$SLUICE_SRCDIR/tests/e2e/lib.sh"

if [ -n "${SLUICE_IN_PACKAGE_BUILD:-}" ]; then
  skip "codex: the end-to-end checks" "a package build downloads nothing"
  exit 0
fi
if ! e2e_find codex @openai/codex; then
  skip "codex: the end-to-end checks" "Codex is not installed in $agents_dir (scripts/fetch-agents.sh)"
  exit 0
fi
codex=$e2e_bin

# codex NAME ARGS...: codex exec against session NAME's model.
codex() {
  "${e2e_env[@]}" CODEX_HOME="$TEST_TMP/$1-home/.codex" \
    timeout -k 5 600 "$codex" exec --skip-git-repo-check "${@:2}" "Run the steps."
}

# config NAME [EXTRA-TOML]: CODEX_HOME of session NAME, its model the
# session's scripted one (no retries: a failure shows at once).
config() {
  mkdir -p "$TEST_TMP/$1-home/.codex"
  cat >"$TEST_TMP/$1-home/.codex/config.toml" <<EOF
model = "e2e-model"
model_provider = "e2e"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.e2e]
name = "e2e"
base_url = "http://127.0.0.1:$port/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
${2:-}
EOF
}

# hook_toml COMMAND: a PreToolUse hook on every shell tool (Bash in hooks),
# as docs/integrations.md gives it.
hook_toml() {
  printf '\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "%s"\ntimeout = 30\n' "$1"
}
hook_config() { config "$1" "$(hook_toml "$(e2e_sluice "$1") hook codex")"; }
# The hook trusted as sluice's check says to (what accepting it in codex
# records), the check's report before and after in NAME.check-untrusted and
# NAME.check-trusted (their exit status on the last line).
trusted_config() {
  hook_config "$1"
  local home="$TEST_TMP/$1-home/.codex" check=("$(e2e_sluice "$1")" hook codex --check --program "$codex")
  (cd "$TEST_TMP/$1" && CODEX_HOME=$home "${check[@]}" >"$TEST_TMP/$1.check-untrusted" 2>&1; echo "exit $?" >>"$TEST_TMP/$1.check-untrusted")
  grep -A1 '^\[hooks.state' "$TEST_TMP/$1.check-untrusted" >>"$home/config.toml"
  (cd "$TEST_TMP/$1" && CODEX_HOME=$home "${check[@]}" >"$TEST_TMP/$1.check-trusted" 2>&1; echo "exit $?" >>"$TEST_TMP/$1.check-trusted")
}
route_config() { config "$1" "$(hook_toml "$(e2e_sluice "$1") hook codex --route --sandbox workspace-write")"; }
# sluice mcp, its tools approved for exec (sluice's destructive and
# open-world hints make codex exec refuse them otherwise).
mcp_config() {
  config "$1" "$(printf '\n[mcp_servers.sluice]\ncommand = "%s"\nargs = ["mcp", "--sandbox", "workspace-write"]\ndefault_tools_approval_mode = "approve"\n' "$(e2e_sluice "$1")")"
}

for name in control trusted hook route mcp; do e2e_workspace "$name"; done
# The attack: the hook installed, but not trusted (no --dangerously-bypass-hook-trust).
e2e_session control "$(script_json builtin "$(step_json bash "$push_cmd")")" hook_config codex control
# The hook trusted as sluice's check says, and codex exec without the bypass.
e2e_session trusted "$(script_json builtin "$(step_json bash "$push_cmd")")" trusted_config codex trusted
# The hook, plain, trusted for this run: Codex runs what sluice does not
# object to; an ask goes to the approver program (Codex cannot ask).
e2e_session hook "$(script_json builtin "${common_steps[@]}" "$(step_json bash "$ask_cmd")")" hook_config \
  codex hook --dangerously-bypass-hook-trust
# --route: the allowed commands run through `sluice run`.
e2e_session route "$(script_json builtin "${common_steps[@]}")" route_config \
  codex route --dangerously-bypass-hook-trust
e2e_session mcp "$(script_json mcp "${common_steps[@]}" "$(step_json bash "$bg_cmd" background)" \
  "$(step_json job_output)" "$(step_json bash "$ask_cmd")")" mcp_config codex mcp
e2e_wait

check_attack control codex "an untrusted hook does not run: the scripted force push rewrites the remote (the attack)"
check_detected codex "a hook that is not trusted is detected" \
  env -C "$TEST_TMP/control" CODEX_HOME="$TEST_TMP/control-home/.codex" HOME="$TEST_TMP/control-home" \
  "$(e2e_sluice control)" hook codex --check --program "$codex"
grep -q '^exit 1$' "$TEST_TMP/trusted.check-untrusted" && grep -q '^trusted_hash = "sha256:' "$TEST_TMP/trusted.check-untrusted" &&
  grep -q '^exit 0$' "$TEST_TMP/trusted.check-trusted" && grep -q 'takes effect' "$TEST_TMP/trusted.check-trusted"
report $? "codex: sluice's check says how to trust the hook, and says it takes effect once trusted" \
  "$(cat "$TEST_TMP/trusted.check-untrusted" "$TEST_TMP/trusted.check-trusted" 2>/dev/null)"
step_has trusted 0 'git_push' 'force-with-lease' && [ "$(remote_main trusted)" = "$(remote_before trusted)" ]
report $? "codex: the hook trusted as the check said runs under codex exec without the bypass: the force push is denied" \
  "$(step_text trusted 0)" "before $(remote_before trusted), now $(remote_main trusted)"
check_common hook codex hook
step_has hook 3 'e2e-asked-42' && asked hook && grep -q 'e2e-asked-' "$TEST_TMP/hook.approver"
report $? "codex: hook: an ask goes to the approver program and the command runs" \
  "$(step_text hook 3)" "$(cat "$TEST_TMP/hook.approver" 2>/dev/null)"
check_audited hook codex
check_common route codex "hook --route"
left=$(find "$TEST_TMP/route-run" -type f -name 'route-*' 2>/dev/null)
[ -z "$left" ]
report $? "codex: hook --route: no request file is left behind" "$left"
check_common mcp codex mcp
check_lean mcp codex
step_has mcp 4 'e2e-background-42'
report $? "codex: mcp: a background job's output reaches the model through job_output" \
  "job: $(step_text mcp 3)" "output: $(step_text mcp 4)"
# codex exec answers sluice's question itself, declining: a person's no is
# final (the approver is not asked).
step_has mcp 5 'declined at the MCP client' && ! asked mcp &&
  grep -q '"answeredBy":"mcp-client"' "$TEST_TMP/mcp.audit" && [ ! -e "$TEST_TMP/mcp.approver" ]
report $? "codex: mcp: an ask is put to Codex (elicitation), codex exec declines it, nothing runs, the model reads why" \
  "$(step_text mcp 5)" "$(grep 'e2e-asked' "$TEST_TMP/mcp.audit" 2>/dev/null)"
