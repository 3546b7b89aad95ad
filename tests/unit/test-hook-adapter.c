/* SPDX-License-Identifier: MIT */
/*
 * broker/agent/hook-adapter.c: the agents' pre-tool payloads as their
 * documentation shows them, and every answer shape: deny and ask with the
 * policy's message and suggestion, no objection, a routed command.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "agent/hook-adapter.h"

static const char claude_bash[] =
        "{\"session_id\":\"abc123\",\"transcript_path\":\"/home/u/.claude/projects/p/"
        "00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl\",\"cwd\":\"/home/u/project\","
        "\"permission_mode\":\"default\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
        "\"Bash\",\"tool_input\":{\"command\":\"git push --force origin main\",\"description\":"
        "\"Push the branch\",\"timeout\":120000,\"run_in_background\":false},\"tool_use_id\":"
        "\"toolu_01ABC123\"}";

static const char gemini_shell[] =
        "{\"session_id\":\"s-1\",\"transcript_path\":\"/home/u/.gemini/tmp/t.json\",\"cwd\":"
        "\"/home/u/project\",\"hook_event_name\":\"BeforeTool\",\"timestamp\":"
        "\"2026-01-28T10:00:00.000Z\",\"tool_name\":\"run_shell_command\",\"tool_input\":"
        "{\"command\":\"rm -rf /\",\"description\":\"clean up\"}}";

static json_t *answer(const char *protocol, const char *payload, enum verdict_kind v,
                      const char *routed, bool *silent)
{
	const struct hook_protocol *p = hook_protocol_find(protocol);
	cr_assert_not_null(p);
	struct hook_call call;
	struct sluice_error err = { 0 };
	cr_assert_eq(hook_parse(p, payload, strlen(payload), &call, &err), 0, "%s", err.detail);
	struct verdict pol;
	verdict_init(&pol);
	if (v != VERDICT_ALLOW)
		cr_assert_eq(verdict_add(&pol, v, "git_push",
		                         "force pushes rewrite the remote's history",
		                         "use --force-with-lease"),
		             0);
	json_t *a = hook_answer(p, &call, &pol, routed, silent);
	verdict_done(&pol);
	hook_call_done(&call);
	return a;
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
	/* No "ask" in that protocol: a deny that says approval is needed. */
	a = answer("gemini", gemini_shell, VERDICT_ASK, NULL, &silent);
	cr_assert_str_eq(get(a, "decision", NULL), "deny");
	cr_assert(strstr(get(a, "reason", NULL), "Approval required"));
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
