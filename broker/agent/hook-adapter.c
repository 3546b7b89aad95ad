/* SPDX-License-Identifier: MIT */
/*
 * Each agent's hook protocol is one row: its event names, its shell tools,
 * whether it can ask its user, and an answer function per event. The answer
 * puts the policy's message and suggestion where the agent shows them to
 * the model, in a shape the agent's own parser accepts (checked against
 * each agent's shipped code: Claude Code 2.1, Gemini CLI 0.61, Codex 0.169).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "agent/hook-adapter.h"
#include "util/json-locate.h"

/* A protocol's answer builder for one event; see hook_answer(). reason is
 * the outcome in a sentence for the model (or the user). */
typedef json_t *(*answer_fn)(const struct hook_call *call, const struct hook_outcome *o,
                             const char *reason, bool *ret_silent);

/* Whether the agent can put an ask to its user through the hook's answer. */
enum hook_asks {
	AGENT_ASKS,   /* the protocol has an "ask" answer */
	AGENT_NO_ASK, /* it has none (Codex refuses "ask"): an approver or a refusal */
};

struct hook_protocol {
	const char *name;
	/* hook_event_name per enum hook_event, NULL for an event it has not */
	const char *events[2];
	answer_fn answers[2];
	enum hook_asks asks;
	const char *const *shell_tools;
	/* The shell tool's own fields, or NULL. */
	const char *timeout_ms_field; /* an integer of milliseconds -> timeout_ms */
	const char *background_field; /* true -> mode background */
	const char *directory_field;  /* where it runs, relative to cwd */
};

/* Whether a message ends as a sentence does (a full stop or the like). */
static bool ends_sentence(const char *msg)
{
	size_t n = strlen(msg);
	return n > 0 && strchr(".!?", msg[n - 1]);
}

/* The outcome as one sentence for the model: the first reason, its
 * suggestion, and when an approver refused, who and how. */
static void reason_text(const struct hook_outcome *o, char *buf, size_t size)
{
	const struct verdict_reason *r = o->verdict ? verdict_main_reason(o->verdict) : NULL;
	if (!r) {
		snprintf(buf, size, "sluice policy: %s",
		         o->verdict ? verdict_kind_name(o->verdict->kind) : "allow");
		return;
	}
	bool suggest = r->suggestion && r->suggestion[0];
	bool asked = o->verdict->kind == VERDICT_ASK;
	snprintf(buf, size, "%s by sluice policy %s: %s%s%s%s%s",
	         asked ? "Approval required" : "Denied", r->plugin, r->message,
	         suggest ? (ends_sentence(r->message) ? " Instead: " : ". Instead: ") : "",
	         suggest ? r->suggestion : "", asked && o->approval_note ? "; not given: " : "",
	         asked && o->approval_note ? o->approval_note : "");
}

/* tool_input with command replaced by routed (a new reference), or NULL. */
static json_t *routed_input(const struct hook_call *call, const char *routed)
{
	json_t *input = json_deep_copy(call->tool_input);
	if (!input || json_object_set_new(input, "command", json_string(routed)) < 0) {
		json_decref(input);
		return NULL;
	}
	return input;
}

/* PreToolUse's hookSpecificOutput with a decision and its reason. */
static json_t *pre_tool_use(const char *decision, const char *reason)
{
	return json_pack("{s:{s:s, s:s, s:s}}", "hookSpecificOutput", "hookEventName", "PreToolUse",
	                 "permissionDecision", decision, "permissionDecisionReason", reason);
}

/* PreToolUse's allow of a routed command: updatedInput replaces the
 * command, the other fields kept (Codex reads updatedInput only beside
 * "allow", and "allow" only beside updatedInput). */
static json_t *pre_tool_use_routed(const struct hook_call *call, const char *routed)
{
	json_t *input = routed_input(call, routed);
	if (!input)
		return NULL;
	return json_pack("{s:{s:s, s:s, s:s, s:o}}", "hookSpecificOutput", "hookEventName",
	                 "PreToolUse", "permissionDecision", "allow", "permissionDecisionReason",
	                 "allowed by sluice policy; runs through sluice run", "updatedInput",
	                 input);
}

/* Claude Code, PreToolUse: permissionDecision deny or ask with the reason;
 * nothing at all for no objection (its own permission rules still apply). */
static json_t *answer_claude(const struct hook_call *call, const struct hook_outcome *o,
                             const char *reason, bool *ret_silent)
{
	if (o->kind == HOOK_DENY)
		return pre_tool_use("deny", reason);
	if (o->kind == HOOK_ASK)
		return pre_tool_use("ask", reason);
	if (o->routed)
		return pre_tool_use_routed(call, o->routed);
	*ret_silent = true;
	return NULL;
}

/* Claude Code, PermissionRequest: its dialog is about to ask the user. A
 * deny, or an approver's answer, is given in its place (decision.behavior);
 * anything else leaves the dialog to the user. */
static json_t *answer_claude_permission(const struct hook_call *call, const struct hook_outcome *o,
                                        const char *reason, bool *ret_silent)
{
	(void)call;
	if (o->kind == HOOK_DENY)
		return json_pack("{s:{s:s, s:{s:s, s:s}}}", "hookSpecificOutput", "hookEventName",
		                 "PermissionRequest", "decision", "behavior", "deny", "message",
		                 reason);
	if (o->kind == HOOK_ALLOW && o->approved)
		return json_pack("{s:{s:s, s:{s:s}}}", "hookSpecificOutput", "hookEventName",
		                 "PermissionRequest", "decision", "behavior", "allow");
	*ret_silent = true;
	return NULL;
}

/* Gemini CLI, BeforeTool: decision deny with the reason; "ask" makes it
 * confirm with its user, showing systemMessage. No objection is an empty
 * object (its documentation's own example). A routed command overrides
 * tool_input.command through hookSpecificOutput.tool_input. */
static json_t *answer_gemini(const struct hook_call *call, const struct hook_outcome *o,
                             const char *reason, bool *ret_silent)
{
	(void)call;
	(void)ret_silent;
	if (o->kind == HOOK_DENY)
		return json_pack("{s:s, s:s}", "decision", "deny", "reason", reason);
	if (o->kind == HOOK_ASK)
		return json_pack("{s:s, s:s, s:s}", "decision", "ask", "reason", reason,
		                 "systemMessage", reason);
	if (!o->routed)
		return json_object();
	return json_pack("{s:s, s:{s:{s:s}}}", "decision", "allow", "hookSpecificOutput",
	                 "tool_input", "command", o->routed);
}

/* Codex CLI, PreToolUse: Claude Code's wire format, but it refuses "ask",
 * a deny without a non-empty reason, "allow" without updatedInput and
 * updatedInput without "allow" (and a refused answer lets the command run).
 * So an ask nobody approved is a deny that says why, and no objection is
 * no output. */
static json_t *answer_codex(const struct hook_call *call, const struct hook_outcome *o,
                            const char *reason, bool *ret_silent)
{
	if (o->kind == HOOK_DENY)
		return pre_tool_use("deny", reason);
	if (o->kind == HOOK_ASK) {
		char why[1600];
		snprintf(
		        why, sizeof(why),
		        "%s; not given: Codex hooks cannot ask the user, and no approver program is "
		        "configured ([approval] method = program)",
		        reason);
		return pre_tool_use("deny", why);
	}
	if (o->routed)
		return pre_tool_use_routed(call, o->routed);
	*ret_silent = true;
	return NULL;
}

static const char *const claude_shell_tools[] = { "Bash", NULL };
static const char *const gemini_shell_tools[] = { "run_shell_command", NULL };

static const struct hook_protocol protocols[] = {
	{ "claude-code",
	  { "PreToolUse", "PermissionRequest" },
	  { answer_claude, answer_claude_permission },
	  AGENT_ASKS,
	  claude_shell_tools,
	  "timeout",
	  "run_in_background",
	  NULL },
	{ "gemini",
	  { "BeforeTool", NULL },
	  { answer_gemini, NULL },
	  AGENT_ASKS,
	  gemini_shell_tools,
	  NULL,
	  "is_background",
	  "dir_path" },
	/* Codex names its shell tools (shell, exec_command) Bash in hooks. */
	{ "codex",
	  { "PreToolUse", NULL },
	  { answer_codex, NULL },
	  AGENT_NO_ASK,
	  claude_shell_tools,
	  NULL,
	  NULL,
	  NULL },
};

const char *hook_protocol_name(const struct hook_protocol *p)
{
	return p->name;
}

const struct hook_protocol *hook_protocol_find(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(protocols); i++)
		if (strcmp(protocols[i].name, name) == 0)
			return &protocols[i];
	return NULL;
}

const char *hook_protocol_names(void)
{
	return "claude-code|gemini|codex";
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
	size_t e = 0;
	while (e < ELEMENTSOF(p->events) &&
	       !(event && p->events[e] && strcmp(event, p->events[e]) == 0))
		e++;
	if (e == ELEMENTSOF(p->events))
		return sluice_error_set(
		        reterr, -EINVAL,
		        "the hook input is not a %s%s%s event (hook_event_name '%s')", p->events[0],
		        p->events[1] ? " or " : "", p->events[1] ? p->events[1] : "",
		        event ? event : "");
	ret->event = (enum hook_event)e;
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
	json_t *dir =
	        p->directory_field ? json_object_get(ret->tool_input, p->directory_field) : NULL;
	if (dir && !json_is_string(dir))
		return sluice_error_set(reterr, -EINVAL, "'tool_input.%s' is not a string",
		                        p->directory_field);
	ret->directory = json_string_value(dir);
	if (ret->directory && !ret->directory[0])
		ret->directory = NULL;
	return 0;
}

void hook_call_done(struct hook_call *call)
{
	json_decref(call->doc);
	call->doc = NULL;
}

enum ask_handling hook_ask_handling(const struct hook_protocol *p, const struct hook_call *call,
                                    const struct broker_config *cfg)
{
	bool nobody_to_ask =
	        p->asks == AGENT_NO_ASK || call->event == HOOK_EVENT_PERMISSION_REQUEST;
	return nobody_to_ask && cfg->approval_method == CONFIG_APPROVAL_PROGRAM ? ASK_APPROVER
	                                                                        : ASK_TO_CALLER;
}

struct hook_outcome hook_outcome_of(const struct policy_decision *d)
{
	struct hook_outcome o = {
		.kind = HOOK_ALLOW,
		.verdict = &d->verdict,
		.approval_note = d->approval_note,
	};
	if (d->allowed)
		o.approved = d->verdict.kind == VERDICT_ASK;
	else if (d->verdict.kind == VERDICT_ASK && strcmp(d->approval, "not asked") == 0)
		o.kind = HOOK_ASK;
	else
		o.kind = HOOK_DENY;
	return o;
}

json_t *hook_answer(const struct hook_protocol *p, const struct hook_call *call,
                    const struct hook_outcome *outcome, bool *ret_silent)
{
	char reason[2400];
	*ret_silent = false;
	reason_text(outcome, reason, sizeof(reason));
	return p->answers[call->event](call, outcome, reason, ret_silent);
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
