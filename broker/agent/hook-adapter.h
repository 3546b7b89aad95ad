/* SPDX-License-Identifier: MIT */
/*
 * The agents' pre-tool hook protocols as data: which event and which tool
 * names mean "a shell command", where the command is in the payload, and
 * how a verdict is answered (deny with the policy's message, ask, no
 * objection, or an allowed command routed through `sluice run`).
 * Not for: reading stdin or deciding (cmd-hook.c, the policy seam).
 */
#ifndef SLUICE_HOOK_ADAPTER_H
#define SLUICE_HOOK_ADAPTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "errors.h"
#include "policy/verdict.h"

struct hook_protocol;

/* The protocol called name ("claude-code", "gemini"), or NULL. */
const struct hook_protocol *hook_protocol_find(const char *name);

/* "claude-code|gemini", for usage messages. Static. */
const char *hook_protocol_names(void);

/* One parsed hook payload; everything borrowed from doc. */
struct hook_call {
	json_t *doc;         /* owned */
	const char *tool;    /* tool_name */
	json_t *tool_input;  /* the tool's arguments (an object) */
	const char *command; /* the shell command, or NULL when the tool is not a shell */
	const char *cwd;     /* the agent's working directory, or NULL */
};

/*
 * Parse a payload of protocol p. Refuses (-EINVAL, reterr saying why) what
 * is not the protocol's pre-tool event: not JSON, another hook_event_name,
 * no tool_name, tool_input not an object, a shell tool without a string
 * command.
 */
int hook_parse(const struct hook_protocol *p, const char *text, size_t len, struct hook_call *ret,
               struct sluice_error *reterr);

/* Release call->doc. */
void hook_call_done(struct hook_call *call);

/*
 * The answer to print on stdout (a new reference), or NULL with *ret_silent
 * set when the answer is no output at all (no objection). routed, when not
 * NULL, is the command that replaces an allowed command. NULL without
 * *ret_silent: out of memory.
 */
json_t *hook_answer(const struct hook_protocol *p, const struct hook_call *call,
                    const struct verdict *verdict, const char *routed, bool *ret_silent);

/*
 * The `sluice run --json` request for a routed command (a new reference, or
 * NULL): the command exactly as given, its description, and what the
 * agent's shell tool said about time (its timeout, cut to max_timeout_ms;
 * running in the background -> mode background).
 */
json_t *hook_route_request(const struct hook_protocol *p, const struct hook_call *call,
                           uint64_t max_timeout_ms);

#endif
