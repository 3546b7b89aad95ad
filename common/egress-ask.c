/* SPDX-License-Identifier: MIT */
/*
 * The egress proxy's questions and the broker's answers as text and back.
 * Both readers trust nothing: a question's host is read as the allowlist
 * reads one, and an answer is one of four exact words or a refusal.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "cleanup.h"
#include "egress-ask.h"
#include "parse-number.h"

void egress_ask_host_text(const struct egress_host *host, char *buf, size_t size)
{
	bool v6 = host->family == AF_INET6;
	snprintf(buf, size, "%s%s%s", v6 ? "[" : "", host->name, v6 ? "]" : "");
}

ssize_t egress_ask_format_question(const struct egress_host *host, uint16_t port,
                                   enum egress_audit_kind kind, char *buf, size_t size)
{
	char text[EGRESS_HOST_MAX + 2];
	egress_ask_host_text(host, text, sizeof(text));
	int n = snprintf(buf, size, EGRESS_ASK_MAGIC " %s %u %s\n", text, (unsigned)port,
	                 egress_audit_kind_name(kind));
	return n < 0 || (size_t)n >= size ? -E2BIG : n;
}

int egress_ask_parse_question(const char *buf, size_t len, struct egress_ask_question *ret)
{
	char line[EGRESS_ASK_QUESTION_MAX];
	memset(ret, 0, sizeof(*ret));
	if (len == 0 || len >= sizeof(line) || buf[len - 1] != '\n' || memchr(buf, '\0', len))
		return -EINVAL;
	memcpy(line, buf, len - 1);
	line[len - 1] = '\0';
	char *words[4], *save = NULL;
	size_t n = 0;
	for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (n == 4)
			return -EINVAL;
		words[n++] = w;
	}
	uint64_t port;
	struct sluice_error err = { 0 };
	if (n != 4 || strcmp(words[0], EGRESS_ASK_MAGIC) != 0 ||
	    egress_host_parse(words[1], strlen(words[1]), &ret->host, &err) < 0 ||
	    parse_uint64(words[2], 65535, &port) < 0 || port == 0)
		return -EINVAL;
	ret->port = (uint16_t)port;
	if (strcmp(words[3], egress_audit_kind_name(EGRESS_AUDIT_TUNNEL)) == 0)
		ret->kind = EGRESS_AUDIT_TUNNEL;
	else if (strcmp(words[3], egress_audit_kind_name(EGRESS_AUDIT_HTTP)) == 0)
		ret->kind = EGRESS_AUDIT_HTTP;
	else
		return -EINVAL;
	return 0;
}

static const enum egress_audit_reason answers[] = {
	EGRESS_REASON_ASKED_YES,
	EGRESS_REASON_ASKED_NO,
	EGRESS_REASON_ASK_TIMEOUT,
	EGRESS_REASON_ASK_LIMIT,
};

const char *egress_ask_answer_word(enum egress_audit_reason reason)
{
	return egress_audit_reason_name(reason);
}

enum egress_audit_reason egress_ask_parse_answer(const char *buf, size_t len)
{
	for (size_t i = 0; i < ELEMENTSOF(answers); i++) {
		const char *word = egress_audit_reason_name(answers[i]);
		size_t w = strlen(word);
		if (len == w + 1 && memcmp(buf, word, w) == 0 && buf[w] == '\n')
			return answers[i];
	}
	return EGRESS_REASON_ASK_FAILED;
}
