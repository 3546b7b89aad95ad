/* SPDX-License-Identifier: MIT */
/*
 * The agents' hook protocols as data: which events and which tool names
 * mean "a shell command", where the command is in the payload, who may put
 * an ask to a person, and how an outcome is answered (deny with the
 * policy's message, ask, no objection, an allowed command routed through
 * `sluice run`), in each agent's own dialect.
 * Not for: reading stdin or deciding (cmd-hook.c, the policy seam).
 */
#ifndef SLUICE_HOOK_ADAPTER_H
#define SLUICE_HOOK_ADAPTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/broker-config.h"
#include "errors.h"
#include "policy/broker-context.h"
#include "policy/verdict.h"

struct hook_protocol;

/* The protocol called name ("claude-code", "gemini", "codex"), or NULL. */
const struct hook_protocol *hook_protocol_find(const char *name);

/* Its name, as hook_protocol_find() takes it. Static. */
const char *hook_protocol_name(const struct hook_protocol *p);

/* "claude-code|gemini|codex", for usage messages. Static. */
const char *hook_protocol_names(void);

/* The events a hook answers. */
enum hook_event {
	HOOK_EVENT_PRE_TOOL,           /* before the tool runs: PreToolUse, BeforeTool */
	HOOK_EVENT_PERMISSION_REQUEST, /* the agent is about to ask its user (Claude Code) */
};

/* One parsed hook payload; everything borrowed from doc. */
struct hook_call {
	json_t *doc; /* owned */
	enum hook_event event;
	const char *tool;      /* tool_name */
	json_t *tool_input;    /* the tool's arguments (an object) */
	const char *command;   /* the shell command, or NULL when the tool is not a shell */
	const char *cwd;       /* the agent's working directory, or NULL */
	const char *directory; /* the shell tool's own directory (relative to cwd), or NULL */
};

/*
 * Parse a payload of protocol p. Refuses (-EINVAL, reterr saying why) what
 * is not one of the protocol's events: not JSON, another hook_event_name,
 * no tool_name, tool_input not an object, a shell tool without a string
 * command.
 */
int hook_parse(const struct hook_protocol *p, const char *text, size_t len, struct hook_call *ret,
               struct sluice_error *reterr);

/* Release call->doc. */
void hook_call_done(struct hook_call *call);

/*
 * How the decision of call treats an ask verdict: ASK_TO_CALLER when the
 * agent puts it to its user (the answer says "ask"), ASK_APPROVER when
 * nobody at the agent can be asked (a protocol without "ask", or the
 * agent's own permission dialog about to open) and cfg names an approver
 * program. A terminal approver is never used from a hook: the terminal is
 * the agent's.
 */
enum ask_handling hook_ask_handling(const struct hook_protocol *p, const struct hook_call *call,
                                    const struct broker_config *cfg);

/* What sluice makes of a hook call, as the answer needs it. */
enum hook_outcome_kind {
	HOOK_ALLOW, /* no objection (or an ask an approver said yes to) */
	HOOK_DENY,  /* a deny verdict, or an ask an approver said no to */
	HOOK_ASK,   /* an ask nobody has answered: the agent's to put to its user */
};
struct hook_outcome {
	enum hook_outcome_kind kind;
	const struct verdict *verdict; /* borrowed: the reasons */
	bool approved;                 /* HOOK_ALLOW: an approver said yes to an ask */
	const char *approval_note;     /* who answered an ask and how, or NULL (borrowed) */
	const char *routed;            /* the command replacing an allowed one, or NULL */
};

/* The outcome of decision d (borrowed into the outcome), routed NULL. */
struct hook_outcome hook_outcome_of(const struct policy_decision *d);

/*
 * The answer to print on stdout (a new reference), or NULL with *ret_silent
 * set when the answer is no output at all (no objection). NULL without
 * *ret_silent: out of memory.
 */
json_t *hook_answer(const struct hook_protocol *p, const struct hook_call *call,
                    const struct hook_outcome *outcome, bool *ret_silent);

/*
 * The `sluice run --json` request for a routed command (a new reference, or
 * NULL): the command exactly as given, its description, and what the
 * agent's shell tool said about time (its timeout, cut to max_timeout_ms;
 * running in the background -> mode background).
 */
json_t *hook_route_request(const struct hook_protocol *p, const struct hook_call *call,
                           uint64_t max_timeout_ms);

#endif
