/* SPDX-License-Identifier: MIT */
/*
 * Each agent's pre-tool hook protocol is one row: its event name, its shell
 * tools, and its answer function. The answer puts the policy's message and
 * suggestion where the agent shows them to the model.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "agent/hook-adapter.h"
#include "util/json-locate.h"

/* A protocol's answer builder; see hook_answer(). */
typedef json_t *(*answer_fn)(const struct hook_call *call, const struct verdict *verdict,
                             const char *reason, const char *routed, bool *ret_silent);

struct hook_protocol {
	const char *name;
	const char *event; /* hook_event_name */
	const char *const *shell_tools;
	answer_fn answer;
	/* The shell tool's own fields a routed request carries over, or NULL. */
	const char *timeout_ms_field; /* an integer of milliseconds -> timeout_ms */
	const char *background_field; /* true -> mode background */
};

/* The first reason as one sentence for the model. */
static void reason_text(const struct verdict *v, char *buf, size_t size)
{
	const struct verdict_reason *r = verdict_main_reason(v);
	if (!r) {
		snprintf(buf, size, "sluice policy: %s", verdict_kind_name(v->kind));
		return;
	}
	bool suggest = r->suggestion && r->suggestion[0];
	snprintf(buf, size, "%s by sluice policy %s: %s%s%s",
	         v->kind == VERDICT_ASK ? "Approval required" : "Denied", r->plugin, r->message,
	         suggest ? " Instead: " : "", suggest ? r->suggestion : "");
}

/* Claude Code: hookSpecificOutput with permissionDecision; nothing at all
 * for no objection. A routed command replaces tool_input.command, keeping
 * the other fields. */
static json_t *answer_claude(const struct hook_call *call, const struct verdict *v,
                             const char *reason, const char *routed, bool *ret_silent)
{
	if (v->kind == VERDICT_DENY || v->kind == VERDICT_ASK)
		return json_pack("{s:{s:s, s:s, s:s}}", "hookSpecificOutput", "hookEventName",
		                 "PreToolUse", "permissionDecision", verdict_kind_name(v->kind),
		                 "permissionDecisionReason", reason);
	if (!routed) {
		*ret_silent = true;
		return NULL;
	}
	json_t *input = json_deep_copy(call->tool_input);
	if (!input || json_object_set_new(input, "command", json_string(routed)) < 0) {
		json_decref(input);
		return NULL;
	}
	return json_pack("{s:{s:s, s:s, s:s, s:o}}", "hookSpecificOutput", "hookEventName",
	                 "PreToolUse", "permissionDecision", "allow", "permissionDecisionReason",
	                 "allowed by sluice policy; runs through sluice run", "updatedInput",
	                 input);
}

/* Gemini CLI: decision and reason; it has no "ask", so approval that cannot
 * be given here is a deny that says so. No objection is an empty object (its
 * documentation's own example). A routed command overrides
 * tool_input.command through hookSpecificOutput.tool_input. */
static json_t *answer_gemini(const struct hook_call *call, const struct verdict *v,
                             const char *reason, const char *routed, bool *ret_silent)
{
	(void)call;
	(void)ret_silent;
	if (v->kind == VERDICT_DENY || v->kind == VERDICT_ASK)
		return json_pack("{s:s, s:s}", "decision", "deny", "reason", reason);
	if (!routed)
		return json_object();
	return json_pack("{s:s, s:{s:{s:s}}}", "decision", "allow", "hookSpecificOutput",
	                 "tool_input", "command", routed);
}

static const char *const claude_shell_tools[] = { "Bash", NULL };
static const char *const gemini_shell_tools[] = { "run_shell_command", NULL };

static const struct hook_protocol protocols[] = {
	{ "claude-code", "PreToolUse", claude_shell_tools, answer_claude, "timeout",
	  "run_in_background" },
	{ "gemini", "BeforeTool", gemini_shell_tools, answer_gemini, NULL, NULL },
};

const struct hook_protocol *hook_protocol_find(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(protocols); i++)
		if (strcmp(protocols[i].name, name) == 0)
			return &protocols[i];
	return NULL;
}

const char *hook_protocol_names(void)
{
	return "claude-code|gemini";
}

static bool is_shell_tool(const struct hook_protocol *p, const char *tool)
{
	for (const char *const *t = p->shell_tools; *t; t++)
		if (strcmp(*t, tool) == 0)
			return true;
	return false;
}

int hook_parse(const struct hook_protocol *p, const char *text, size_t len, struct hook_call *ret,
               struct sluice_error *reterr)
{
	*ret = (struct hook_call){ 0 };
	json_error_t jerr;
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		char what[192];
		if (json_utf8_error_text(text, len, &jerr, what, sizeof(what)))
			return sluice_error_set(reterr, -EINVAL, "the hook input: %s (line %d: %s)",
			                        what, jerr.line, jerr.text);
		return sluice_error_set(reterr, -EINVAL, "the hook input is not JSON: line %d: %s",
		                        jerr.line, jerr.text);
	}
	ret->doc = doc;
	if (!json_is_object(doc))
		return sluice_error_set(reterr, -EINVAL, "the hook input is not a JSON object");
	const char *event = json_string_value(json_object_get(doc, "hook_event_name"));
	if (!event || strcmp(event, p->event) != 0)
		return sluice_error_set(reterr, -EINVAL,
		                        "the hook input is not a %s event (hook_event_name '%s')",
		                        p->event, event ? event : "");
	ret->tool = json_string_value(json_object_get(doc, "tool_name"));
	if (!ret->tool)
		return sluice_error_set(reterr, -EINVAL, "the hook input has no 'tool_name'");
	ret->tool_input = json_object_get(doc, "tool_input");
	if (!json_is_object(ret->tool_input))
		return sluice_error_set(reterr, -EINVAL, "'tool_input' is not an object");
	json_t *cwd = json_object_get(doc, "cwd");
	if (cwd && !json_is_string(cwd))
		return sluice_error_set(reterr, -EINVAL, "'cwd' is not a string");
	ret->cwd = json_string_value(cwd);
	if (!is_shell_tool(p, ret->tool))
		return 0;
	ret->command = json_string_value(json_object_get(ret->tool_input, "command"));
	if (!ret->command)
		return sluice_error_set(reterr, -EINVAL,
		                        "'tool_input.command' of tool %s is not a string",
		                        ret->tool);
	return 0;
}

void hook_call_done(struct hook_call *call)
{
	json_decref(call->doc);
	call->doc = NULL;
}

json_t *hook_answer(const struct hook_protocol *p, const struct hook_call *call,
                    const struct verdict *verdict, const char *routed, bool *ret_silent)
{
	char reason[1400];
	*ret_silent = false;
	reason_text(verdict, reason, sizeof(reason));
	return p->answer(call, verdict, reason, routed, ret_silent);
}

json_t *hook_route_request(const struct hook_protocol *p, const struct hook_call *call,
                           uint64_t max_timeout_ms)
{
	json_t *req = json_pack("{s:s}", "command", call->command);
	json_t *description = json_object_get(call->tool_input, "description");
	if (req && json_is_string(description))
		json_object_set(req, "description", description);
	json_t *t =
	        p->timeout_ms_field ? json_object_get(call->tool_input, p->timeout_ms_field) : NULL;
	if (req && json_is_integer(t) && json_integer_value(t) > 0)
		json_object_set_new(req, "timeout_ms",
		                    json_integer((uint64_t)json_integer_value(t) > max_timeout_ms
		                                         ? (json_int_t)max_timeout_ms
		                                         : json_integer_value(t)));
	json_t *bg =
	        p->background_field ? json_object_get(call->tool_input, p->background_field) : NULL;
	if (req && json_is_true(bg))
		json_object_set_new(req, "mode", json_string("background"));
	return req;
}
