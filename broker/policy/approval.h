/* SPDX-License-Identifier: MIT */
/*
 * Answering an `ask` verdict, as [approval] method says: `program` runs the
 * administrator's approver with the request as JSON on stdin (exit status 0
 * approves; a timeout is a no), `terminal` asks on /dev/tty when there is
 * one, and `deny` (the default) says no, naming the rule that asked. Every
 * failure is a no (fail closed).
 * Not for: deny verdicts (they are never put to anyone).
 */
#ifndef SLUICE_APPROVAL_H
#define SLUICE_APPROVAL_H

#include <stddef.h>

#include "config/broker-config.h"
#include "policy/verdict.h"

struct approval_request {
	const char *command;     /* the command as it would run */
	const char *display;     /* its display form (may be NULL) */
	const char *description; /* the agent's description (may be NULL) */
	const char *cwd;         /* working directory (may be NULL) */
	const struct verdict *verdict;
	/* a network ask (the egress proxy's, for a host not in [network]
	 * allow): the host as the allowlist writes it and the port; NULL for
	 * a command's ask */
	const char *network_host;
	unsigned network_port;
};

/* An answer to a question about an ask. */
enum approval_reply {
	APPROVAL_NO = 0,         /* refused: final */
	APPROVAL_YES = 1,        /* approved */
	APPROVAL_UNANSWERED = 2, /* nobody answered (dismissed, timed out, cannot ask) */
	APPROVAL_WITHDRAWN = 3,  /* the question was withdrawn (the call ended): refused,
	                          * nobody answered, nobody else is asked */
};

/*
 * Someone asked before the configured approver: the person at the agent
 * (the MCP server asks its client's user through elicitation). ask returns
 * an approval_reply, with *ret_why (owned, may stay NULL) saying who
 * answered and how; an unanswered question goes on to the configured
 * approver. by names who answered in the audit log ("mcp-client").
 */
struct approval_asker {
	enum approval_reply (*ask)(void *userdata, const struct approval_request *req,
	                           char **ret_why);
	void *userdata;
	const char *by;
};

/*
 * Put req to first (NULL: nobody), then, unless first answered, to whoever
 * cfg names. Returns 1 when approved, 0 when not; in both cases *ret_why
 * (owned by the caller; may be NULL when not wanted) says who answered and
 * how, without the rule that asked (the caller names it), e.g. "no
 * approver is configured ([approval] method = deny)", and *ret_by (may be
 * NULL) is who answered for the audit log: first->by, "program",
 * "terminal", or NULL when nobody did. A negative -errno only for an
 * internal failure, which the caller must also treat as "not approved".
 */
int approval_ask(const struct broker_config *cfg, const struct approval_request *req,
                 const struct approval_asker *first, char **ret_why, const char **ret_by);

/* The request as the approver program reads it: {"kind", "command",
 * "display", "description", "cwd", "verdict", "reasons"} ("kind":
 * "command", or "network" with "host" and "port"), one line. New string. */
char *approval_request_json(const struct approval_request *req);

#endif
