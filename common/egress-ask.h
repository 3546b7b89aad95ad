/* SPDX-License-Identifier: MIT */
/*
 * The egress proxy's questions to the broker (--egress-ask-fd): "may the
 * run reach this host, which is not in [network] allow?". Each question is
 * one message on a SOCK_SEQPACKET socket the broker made, carrying the
 * write end of a pipe of its own: the answer comes back on that pipe alone,
 * so that the questions of connections served at once never take each
 * other's answers. Shared by both programs so that the text is written
 * down once.
 *
 * Question: "EGRESS_ASK_MAGIC HOST PORT KIND\n", HOST as the allowlist
 * reads one ("[...]" for IPv6), KIND "tunnel" or "http".
 * Answer: one word and "\n": "asked-yes" approves; "asked-no",
 * "ask-timeout" or "ask-limit" refuses, saying why. Anything else, no
 * answer in time, or the pipe's end is a refusal ("ask-failed"): the
 * proxy fails closed.
 * Not for: putting the question (launcher/egress-ask.c) or answering it
 * (broker/run/egress-asks.c).
 */
#ifndef SLUICE_EGRESS_ASK_H
#define SLUICE_EGRESS_ASK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "egress-allow.h"
#include "egress-audit.h"

#define EGRESS_ASK_MAGIC "sluice-egress-ask/1"
/* The longest question: the magic, a host, a port, a kind. */
#define EGRESS_ASK_QUESTION_MAX (sizeof(EGRESS_ASK_MAGIC) + EGRESS_HOST_MAX + 32)
/* The longest answer read. */
#define EGRESS_ASK_ANSWER_MAX 32

struct egress_ask_question {
	struct egress_host host;
	uint16_t port;
	enum egress_audit_kind kind; /* EGRESS_AUDIT_TUNNEL or EGRESS_AUDIT_HTTP */
};

/* The question's text for host (its name as the allowlist writes it, IPv6
 * in brackets), port and kind into buf; its length, or -E2BIG. */
ssize_t egress_ask_format_question(const struct egress_host *host, uint16_t port,
                                   enum egress_audit_kind kind, char *buf, size_t size);

/* Read the len bytes at buf as a question (nothing taken on trust: the
 * host read as the allowlist reads one, the port 1 to 65535, the kind a
 * known word). 0, or -EINVAL. */
int egress_ask_parse_question(const char *buf, size_t len, struct egress_ask_question *ret);

/* The host of a question as text: the name, or the IPv6 literal in
 * brackets; into buf (EGRESS_HOST_MAX + 2 bytes is enough). */
void egress_ask_host_text(const struct egress_host *host, char *buf, size_t size);

/* The answer's word: reason is EGRESS_REASON_ASKED_YES, _ASKED_NO,
 * _ASK_TIMEOUT or _ASK_LIMIT. */
const char *egress_ask_answer_word(enum egress_audit_reason reason);

/* The len bytes read as an answer: one of the four reasons above, or
 * EGRESS_REASON_ASK_FAILED for anything else. */
enum egress_audit_reason egress_ask_parse_answer(const char *buf, size_t len);

#endif
