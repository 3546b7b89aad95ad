/* SPDX-License-Identifier: MIT */
/*
 * broker/agent/hook-adapter.c: the agents' hook payloads in the shape their
 * shipped code sends (Claude Code 2.1, Gemini CLI 0.61, Codex 0.169), and
 * every answer shape each of them accepts: deny and ask with the policy's
 * message and suggestion, no objection, a routed command, an approver's
 * answer.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "agent/hook-adapter.h"

static const char claude_bash[] =
        "{\"session_id\":\"abc123\",\"transcript_path\":\"/home/u/.claude/projects/p/"
        "00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl\",\"cwd\":\"/home/u/project\","
        "\"permission_mode\":\"default\",\"effort\":{\"level\":\"high\"},"
        "\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
        "\"Bash\",\"tool_input\":{\"command\":\"git push --force origin main\",\"description\":"
        "\"Push the branch\",\"timeout\":120000,\"run_in_background\":false},\"tool_use_id\":"
        "\"toolu_01ABC123\"}";

/* Claude Code's PermissionRequest: its dialog is about to open. */
static const char claude_permission[] =
        "{\"session_id\":\"abc123\",\"transcript_path\":\"/home/u/.claude/projects/p/"
        "00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl\",\"cwd\":\"/home/u/project\","
        "\"permission_mode\":\"default\",\"hook_event_name\":\"PermissionRequest\","
        "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"npm publish\",\"description\":"
        "\"Publish\"},\"permission_suggestions\":[{\"type\":\"addRules\",\"rules\":[{"
        "\"toolName\":\"Bash\",\"ruleContent\":\"npm publish:*\"}],\"behavior\":\"allow\","
        "\"destination\":\"localSettings\"}]}";

/* Codex: every shell tool is named Bash, its input {"command": text}. */
static const char codex_bash[] =
        "{\"session_id\":\"019a0000-0000-7000-8000-000000000000\",\"turn_id\":\"1\","
        "\"transcript_path\":null,\"cwd\":\"/home/u/project\",\"hook_event_name\":"
        "\"PreToolUse\",\"model\":\"gpt-5.5\",\"permission_mode\":\"default\","
        "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git push --force origin "
        "main\"},\"tool_use_id\":\"call_abc\"}";

static const char gemini_shell[] =
        "{\"session_id\":\"s-1\",\"transcript_path\":\"/home/u/.gemini/tmp/t.json\",\"cwd\":"
        "\"/home/u/project\",\"hook_event_name\":\"BeforeTool\",\"timestamp\":"
        "\"2026-01-28T10:00:00.000Z\",\"tool_name\":\"run_shell_command\",\"tool_input\":"
        "{\"command\":\"rm -rf /\",\"description\":\"clean up\",\"dir_path\":\"sub\","
        "\"is_background\":false}}";

/* The answer of protocol to payload when the policy's verdict is v (with
 * git_push's reason) and, for an ask, approval is how it was answered
 * ("not asked", "approved", "refused"). */
static json_t *answer_to(const char *protocol, const char *payload, enum verdict_kind v,
                         const char *approval, const char *routed, bool *silent)
{
	const struct hook_protocol *p = hook_protocol_find(protocol);
	cr_assert_not_null(p);
	struct hook_call call;
	struct sluice_error err = { 0 };
	cr_assert_eq(hook_parse(p, payload, strlen(payload), &call, &err), 0, "%s", err.detail);
	struct policy_decision d = { .approval = "not needed" };
	verdict_init(&d.verdict);
	if (v != VERDICT_ALLOW)
		cr_assert_eq(verdict_add(&d.verdict, v, "git_push",
		                         "force pushes rewrite the remote's history",
		                         "use --force-with-lease"),
		             0);
	if (v == VERDICT_ASK) {
		d.approval = approval;
		if (strcmp(approval, "not asked") != 0)
			d.approval_note =
			        strdup(strcmp(approval, "approved") == 0
			                       ? "approved by /usr/bin/approver"
			                       : "the approver /usr/bin/approver said no");
	}
	d.allowed = v == VERDICT_ALLOW || strcmp(approval, "approved") == 0;
	struct hook_outcome o = hook_outcome_of(&d);
	o.routed = o.kind == HOOK_ALLOW ? routed : NULL;
	json_t *a = hook_answer(p, &call, &o, silent);
	policy_decision_done(&d);
	hook_call_done(&call);
	return a;
}

static json_t *answer(const char *protocol, const char *payload, enum verdict_kind v,
                      const char *routed, bool *silent)
{
	return answer_to(protocol, payload, v, "not asked", routed, silent);
}

/* answer_to() as compact JSON (owned), to compare with what an agent
 * accepts; "" for no output. */
static char *text_to(const char *protocol, const char *payload, enum verdict_kind v,
                     const char *approval, const char *routed)
{
	bool silent;
	json_t *a = answer_to(protocol, payload, v, approval, routed, &silent);
	char *s = silent ? strdup("") : json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(a);
	cr_assert_not_null(s);
	return s;
}

static char *text(const char *protocol, const char *payload, enum verdict_kind v,
                  const char *routed)
{
	return text_to(protocol, payload, v, "not asked", routed);
}

static const char *get(json_t *obj, const char *a, const char *b)
{
	json_t *o = json_object_get(obj, a);
	return json_string_value(b ? json_object_get(o, b) : o);
}

Test(hook_adapter, claude_deny_and_ask_carry_the_reason)
{
	bool silent;
	json_t *a = answer("claude-code", claude_bash, VERDICT_DENY, NULL, &silent);
	cr_assert_not_null(a);
	json_t *h = json_object_get(a, "hookSpecificOutput");
	cr_assert_str_eq(get(h, "hookEventName", NULL), "PreToolUse");
	cr_assert_str_eq(get(h, "permissionDecision", NULL), "deny");
	const char *why = get(h, "permissionDecisionReason", NULL);
	cr_assert(strstr(why, "git_push") && strstr(why, "rewrite") && strstr(why, "lease"), "%s",
	          why);
	json_decref(a);
	a = answer("claude-code", claude_bash, VERDICT_ASK, NULL, &silent);
	cr_assert_str_eq(get(a, "hookSpecificOutput", "permissionDecision"), "ask");
	json_decref(a);
}

/* The reason reads as sentences: a full stop before "Instead:", one only. */
Test(hook_adapter, the_suggestion_follows_a_full_stop)
{
	const struct hook_protocol *p = hook_protocol_find("claude-code");
	struct hook_call call;
	cr_assert_eq(hook_parse(p, claude_bash, strlen(claude_bash), &call, NULL), 0);
	const char *messages[] = { "force pushes rewrite history",
		                   "force pushes rewrite history." };
	for (size_t i = 0; i < 2; i++) {
		struct policy_decision d = { .approval = "not asked" };
		verdict_init(&d.verdict);
		cr_assert_eq(verdict_add(&d.verdict, VERDICT_DENY, "git_push", messages[i],
		                         "use --force-with-lease"),
		             0);
		struct hook_outcome o = hook_outcome_of(&d);
		bool silent = false;
		json_t *a = hook_answer(p, &call, &o, &silent);
		cr_assert_str_eq(get(a, "hookSpecificOutput", "permissionDecisionReason"),
		                 "Denied by sluice policy git_push: force pushes rewrite history. "
		                 "Instead: use --force-with-lease");
		json_decref(a);
		policy_decision_done(&d);
	}
	hook_call_done(&call);
}

Test(hook_adapter, claude_allow_is_silent_and_routing_keeps_the_other_fields)
{
	bool silent;
	cr_assert_null(answer("claude-code", claude_bash, VERDICT_ALLOW, NULL, &silent));
	cr_assert(silent);
	json_t *a = answer("claude-code", claude_bash, VERDICT_ALLOW, "ROUTED", &silent);
	cr_assert(!silent);
	json_t *h = json_object_get(a, "hookSpecificOutput");
	cr_assert_str_eq(get(h, "permissionDecision", NULL), "allow");
	json_t *in = json_object_get(h, "updatedInput");
	cr_assert_str_eq(get(in, "command", NULL), "ROUTED");
	cr_assert_str_eq(get(in, "description", NULL), "Push the branch");
	cr_assert_eq(json_integer_value(json_object_get(in, "timeout")), 120000);
	json_decref(a);
}

Test(hook_adapter, gemini_deny_ask_allow_route)
{
	bool silent;
	json_t *a = answer("gemini", gemini_shell, VERDICT_DENY, NULL, &silent);
	cr_assert_str_eq(get(a, "decision", NULL), "deny");
	cr_assert(strstr(get(a, "reason", NULL), "git_push"));
	json_decref(a);
	/* Gemini CLI 0.61 confirms with its user on "ask", showing
	 * systemMessage. */
	a = answer("gemini", gemini_shell, VERDICT_ASK, NULL, &silent);
	cr_assert_str_eq(get(a, "decision", NULL), "ask");
	cr_assert(strstr(get(a, "systemMessage", NULL), "Approval required by sluice policy"));
	json_decref(a);
	a = answer("gemini", gemini_shell, VERDICT_ALLOW, NULL, &silent);
	cr_assert(!silent);
	cr_assert_eq(json_object_size(a), 0);
	json_decref(a);
	a = answer("gemini", gemini_shell, VERDICT_ALLOW, "ROUTED", &silent);
	cr_assert_str_eq(get(a, "decision", NULL), "allow");
	cr_assert_str_eq(get(json_object_get(a, "hookSpecificOutput"), "tool_input", "command"),
	                 "ROUTED");
	json_decref(a);
}

Test(hook_adapter, bad_payloads_are_refused)
{
	static const char *const bad[] = {
		"not json",
		"[]",
		"{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{}}",
		"{\"hook_event_name\":\"PreToolUse\",\"tool_input\":{}}",
		"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":\"x\"}",
		"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{}}",
		"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":"
		"{\"command\":1}}",
		"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"cwd\":2,\"tool_input\":"
		"{\"command\":\"ls\"}}",
	};
	const struct hook_protocol *p = hook_protocol_find("claude-code");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hook_call call;
		struct sluice_error err = { 0 };
		cr_assert_eq(hook_parse(p, bad[i], strlen(bad[i]), &call, &err), -EINVAL, "%s",
		             bad[i]);
		cr_assert(err.detail[0]);
		hook_call_done(&call);
	}
}

Test(hook_adapter, a_byte_that_is_not_utf8_is_named_by_its_field)
{
	static const char payload[] = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
	                              "\"tool_input\":{\"command\":\"echo \xff\"}}";
	struct hook_call call;
	struct sluice_error err = { 0 };
	cr_assert_eq(hook_parse(hook_protocol_find("claude-code"), payload, strlen(payload), &call,
	                        &err),
	             -EINVAL);
	cr_assert(strstr(err.detail, "field 'tool_input.command' is not valid UTF-8"), "%s",
	          err.detail);
	hook_call_done(&call);
}

Test(hook_adapter, other_tools_have_no_command)
{
	static const char read_tool[] =
	        "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Read\",\"tool_input\":"
	        "{\"file_path\":\"/etc/passwd\"}}";
	struct hook_call call;
	cr_assert_eq(hook_parse(hook_protocol_find("claude-code"), read_tool, strlen(read_tool),
	                        &call, NULL),
	             0);
	cr_assert_null(call.command);
	hook_call_done(&call);
	cr_assert_null(hook_protocol_find("other-agent"));
}

Test(hook_adapter, a_routed_request_carries_the_command_and_the_tools_timing)
{
	const struct hook_protocol *p = hook_protocol_find("claude-code");
	struct hook_call call;
	cr_assert_eq(hook_parse(p, claude_bash, strlen(claude_bash), &call, NULL), 0);
	json_t *req = hook_route_request(p, &call, 900000);
	cr_assert_str_eq(get(req, "command", NULL), "git push --force origin main");
	cr_assert_str_eq(get(req, "description", NULL), "Push the branch");
	cr_assert_eq(json_integer_value(json_object_get(req, "timeout_ms")), 120000);
	cr_assert_null(json_object_get(req, "mode"), "run_in_background is false");
	json_decref(req);
	req = hook_route_request(p, &call, 60000);
	cr_assert_eq(json_integer_value(json_object_get(req, "timeout_ms")), 60000,
	             "cut to the configured maximum");
	json_decref(req);
	json_object_set_new(call.tool_input, "run_in_background", json_true());
	req = hook_route_request(p, &call, 900000);
	cr_assert_str_eq(get(req, "mode", NULL), "background");
	json_decref(req);
	hook_call_done(&call);

	p = hook_protocol_find("gemini");
	cr_assert_eq(hook_parse(p, gemini_shell, strlen(gemini_shell), &call, NULL), 0);
	req = hook_route_request(p, &call, 900000);
	cr_assert_str_eq(get(req, "command", NULL), "rm -rf /");
	cr_assert_eq(json_object_size(req), 2, "command and description only");
	json_decref(req);
	hook_call_done(&call);
}

/* The exact answers, as each agent's parser takes them. */
static const char reason[] = "by sluice policy git_push: force pushes rewrite the remote's "
                             "history. Instead: use --force-with-lease";

/* got (freed here) is PreToolUse's answer: decision, and the reason
 * PREFIX reason SUFFIX. */
static void expect_pre_tool_use(char *got, const char *decision, const char *prefix,
                                const char *suffix)
{
	char want[1024];
	snprintf(want, sizeof(want),
	         "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
	         "\"permissionDecision\":\"%s\",\"permissionDecisionReason\":\"%s %s%s\"}}",
	         decision, prefix, reason, suffix);
	cr_assert_str_eq(got, want);
	free(got);
}

Test(hook_adapter, exact_answers_claude_code_accepts)
{
	expect_pre_tool_use(text("claude-code", claude_bash, VERDICT_DENY, NULL), "deny", "Denied",
	                    "");
	expect_pre_tool_use(text("claude-code", claude_bash, VERDICT_ASK, NULL), "ask",
	                    "Approval required", "");
	char *s = text("claude-code", claude_bash, VERDICT_ALLOW, NULL);
	cr_assert_str_eq(s, "", "no objection is no output");
	free(s);
}

Test(hook_adapter, claude_permission_request_lets_an_approver_answer_the_dialog)
{
	char want[1024];
	/* Nobody answered (no approver program): the dialog asks the user. */
	char *s = text("claude-code", claude_permission, VERDICT_ASK, NULL);
	cr_assert_str_eq(s, "");
	free(s);
	s = text_to("claude-code", claude_permission, VERDICT_ASK, "approved", NULL);
	cr_assert_str_eq(s, "{\"hookSpecificOutput\":{\"decision\":{\"behavior\":\"allow\"},"
	                    "\"hookEventName\":\"PermissionRequest\"}}");
	free(s);
	s = text_to("claude-code", claude_permission, VERDICT_ASK, "refused", NULL);
	snprintf(want, sizeof(want),
	         "{\"hookSpecificOutput\":{\"decision\":{\"behavior\":\"deny\",\"message\":"
	         "\"Approval required %s; not given: the approver /usr/bin/approver said no\"},"
	         "\"hookEventName\":\"PermissionRequest\"}}",
	         reason);
	cr_assert_str_eq(s, want);
	free(s);
	s = text("claude-code", claude_permission, VERDICT_ALLOW, NULL);
	cr_assert_str_eq(s, "", "an allowed command is the user's to allow");
	free(s);
}

Test(hook_adapter, exact_answers_gemini_accepts)
{
	char want[1024];
	char *s = text("gemini", gemini_shell, VERDICT_ASK, NULL);
	snprintf(want, sizeof(want),
	         "{\"decision\":\"ask\",\"reason\":\"Approval required %s\","
	         "\"systemMessage\":\"Approval required %s\"}",
	         reason, reason);
	cr_assert_str_eq(s, want);
	free(s);
	s = text("gemini", gemini_shell, VERDICT_DENY, NULL);
	snprintf(want, sizeof(want), "{\"decision\":\"deny\",\"reason\":\"Denied %s\"}", reason);
	cr_assert_str_eq(s, want);
	free(s);
	s = text("gemini", gemini_shell, VERDICT_ALLOW, NULL);
	cr_assert_str_eq(s, "{}");
	free(s);
}

Test(hook_adapter, exact_answers_codex_accepts_and_never_an_ask)
{
	expect_pre_tool_use(text("codex", codex_bash, VERDICT_DENY, NULL), "deny", "Denied", "");
	/* Codex refuses "ask" (and then runs the command): a deny saying why. */
	expect_pre_tool_use(text("codex", codex_bash, VERDICT_ASK, NULL), "deny",
	                    "Approval required",
	                    "; not given: Codex hooks cannot ask the user, and no approver "
	                    "program is configured ([approval] method = program)");
	char *s = text_to("codex", codex_bash, VERDICT_ASK, "refused", NULL);
	cr_assert(strstr(s, "\"permissionDecision\":\"deny\"") &&
	                  strstr(s, "; not given: the approver /usr/bin/approver said no"),
	          "%s", s);
	free(s);
	/* Codex refuses "allow" without updatedInput: no objection is silence. */
	s = text("codex", codex_bash, VERDICT_ALLOW, NULL);
	cr_assert_str_eq(s, "");
	free(s);
	s = text_to("codex", codex_bash, VERDICT_ASK, "approved", NULL);
	cr_assert_str_eq(s, "", "an approved ask is no objection");
	free(s);
	s = text("codex", codex_bash, VERDICT_ALLOW, "ROUTED");
	cr_assert_str_eq(s,
	                 "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
	                 "\"permissionDecision\":\"allow\",\"permissionDecisionReason\":"
	                 "\"allowed by sluice policy; runs through sluice run\",\"updatedInput\":"
	                 "{\"command\":\"ROUTED\"}}}");
	free(s);
}

Test(hook_adapter, who_may_ask)
{
	struct broker_config cfg = { .approval_method = CONFIG_APPROVAL_DENY };
	struct hook_call call;
	const struct hook_protocol *codex = hook_protocol_find("codex");
	const struct hook_protocol *claude = hook_protocol_find("claude-code");
	cr_assert_eq(hook_parse(codex, codex_bash, strlen(codex_bash), &call, NULL), 0);
	cr_assert_eq(hook_ask_handling(codex, &call, &cfg), ASK_TO_CALLER, "no approver: refused");
	cfg.approval_method = CONFIG_APPROVAL_TERMINAL;
	cr_assert_eq(hook_ask_handling(codex, &call, &cfg), ASK_TO_CALLER,
	             "the terminal is the agent's");
	cfg.approval_method = CONFIG_APPROVAL_PROGRAM;
	cr_assert_eq(hook_ask_handling(codex, &call, &cfg), ASK_APPROVER);
	hook_call_done(&call);
	cr_assert_eq(hook_parse(claude, claude_bash, strlen(claude_bash), &call, NULL), 0);
	cr_assert_eq(hook_ask_handling(claude, &call, &cfg), ASK_TO_CALLER, "Claude asks its user");
	hook_call_done(&call);
	cr_assert_eq(hook_parse(claude, claude_permission, strlen(claude_permission), &call, NULL),
	             0);
	cr_assert_eq(call.event, HOOK_EVENT_PERMISSION_REQUEST);
	cr_assert_eq(hook_ask_handling(claude, &call, &cfg), ASK_APPROVER);
	hook_call_done(&call);
}

Test(hook_adapter, gemini_routes_its_background_flag_and_names_its_directory)
{
	const struct hook_protocol *p = hook_protocol_find("gemini");
	struct hook_call call;
	cr_assert_eq(hook_parse(p, gemini_shell, strlen(gemini_shell), &call, NULL), 0);
	cr_assert_str_eq(call.directory, "sub");
	json_object_set_new(call.tool_input, "is_background", json_true());
	json_t *req = hook_route_request(p, &call, 900000);
	cr_assert_str_eq(get(req, "mode", NULL), "background");
	json_decref(req);
	hook_call_done(&call);
}
