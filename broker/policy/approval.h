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
};

/*
 * Put req to whoever cfg names. Returns 1 when approved, 0 when not; in
 * both cases *ret_why (owned by the caller; may be NULL when not wanted)
 * says who answered and how, e.g. "approval required (rule 'publish':
 * publishing a package needs a human), and no approver is configured". A
 * negative -errno only for an internal failure, which the caller must also
 * treat as "not approved".
 */
int approval_ask(const struct broker_config *cfg, const struct approval_request *req,
                 char **ret_why);

/* The request as the approver program reads it: {"command", "display",
 * "description", "cwd", "verdict", "reasons"}, one line. New string. */
char *approval_request_json(const struct approval_request *req);

#endif
