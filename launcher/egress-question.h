/* SPDX-License-Identifier: MIT */
/*
 * A host not in the allowlist, put to the broker by the egress proxy's
 * connection that wants it (--egress-ask-fd, common/egress-ask.h says
 * how): the question sent with a pipe of its own for the answer, and the
 * answer awaited a bounded time. Whatever goes wrong is a refusal.
 * Not for: who answers or how (the broker's run, broker/run/egress-asks.c).
 */
#ifndef SLUICE_LAUNCHER_EGRESS_QUESTION_H
#define SLUICE_LAUNCHER_EGRESS_QUESTION_H

#include <stdint.h>

#include "egress-ask.h"

/* Where the proxy's questions go. */
struct egress_asker {
	int fd;           /* the ask channel, or -1: nobody to ask (403 at once) */
	uint64_t wait_ms; /* how long an answer is awaited */
	/* an IP literal of an internal address (egress_address_is_internal())
	 * is asked about too: --egress-ask-internal; else refused at once */
	bool internal;
};

/* Ask whether host:port (a connection of kind) may be reached and wait for
 * the answer up to a->wait_ms. Returns the answer's reason:
 * EGRESS_REASON_ASKED_YES approves; EGRESS_REASON_ASKED_NO,
 * EGRESS_REASON_ASK_LIMIT as the broker said; EGRESS_REASON_ASK_TIMEOUT
 * when it said so or no answer came in time; EGRESS_REASON_ASK_FAILED when
 * the question could not be put or the answer was not one (a closed
 * channel, a malformed word). */
enum egress_audit_reason egress_asker_ask(const struct egress_asker *a,
                                          const struct egress_host *host, uint16_t port,
                                          enum egress_audit_kind kind);

#endif
