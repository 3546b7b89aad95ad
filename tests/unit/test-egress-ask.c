/* SPDX-License-Identifier: MIT */
/*
 * common/egress-ask.c: the egress proxy's questions and the broker's
 * answers as text and back; whatever is not exactly one is refused.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "egress-ask.h"

static struct egress_host host_of(const char *text)
{
	struct egress_host h;
	struct sluice_error err = { 0 };
	cr_assert_eq(egress_host_parse(text, strlen(text), &h, &err), 0, "%s", text);
	return h;
}

Test(egress_ask, question_round_trips)
{
	struct egress_host h = host_of("registry.example.org");
	char buf[EGRESS_ASK_QUESTION_MAX];
	ssize_t n = egress_ask_format_question(&h, 443, EGRESS_AUDIT_TUNNEL, buf, sizeof(buf));
	cr_assert_eq(n, (ssize_t)strlen("sluice-egress-ask/1 registry.example.org 443 tunnel\n"));
	cr_assert_eq(memcmp(buf, "sluice-egress-ask/1 registry.example.org 443 tunnel\n", n), 0);
	struct egress_ask_question q;
	cr_assert_eq(egress_ask_parse_question(buf, (size_t)n, &q), 0);
	cr_assert_str_eq(q.host.name, "registry.example.org");
	cr_assert_eq(q.port, 443);
	cr_assert_eq(q.kind, EGRESS_AUDIT_TUNNEL);
}

Test(egress_ask, ipv6_question_round_trips_in_brackets)
{
	struct egress_host h = host_of("[2001:db8::7]");
	char buf[EGRESS_ASK_QUESTION_MAX];
	ssize_t n = egress_ask_format_question(&h, 80, EGRESS_AUDIT_HTTP, buf, sizeof(buf));
	cr_assert_gt(n, 0);
	struct egress_ask_question q;
	cr_assert_eq(egress_ask_parse_question(buf, (size_t)n, &q), 0);
	cr_assert_eq(q.host.family, AF_INET6);
	cr_assert_eq(q.kind, EGRESS_AUDIT_HTTP);
}

static const struct {
	const char *text, *why;
} bad_questions[] = {
	{ "sluice-egress-ask/1 a.example.org 443 tunnel", "no newline" },
	{ "sluice-egress-ask/2 a.example.org 443 tunnel\n", "another version" },
	{ "sluice-egress-ask/1 a.example.org 443\n", "a word missing" },
	{ "sluice-egress-ask/1 a.example.org 443 tunnel x\n", "a word too many" },
	{ "sluice-egress-ask/1 a.example.org 0 tunnel\n", "port 0" },
	{ "sluice-egress-ask/1 a.example.org 65536 tunnel\n", "a port out of range" },
	{ "sluice-egress-ask/1 a.example.org 443 unknown\n", "an unknown kind" },
	{ "sluice-egress-ask/1 a\033[2J.example.org 443 tunnel\n", "a host with a control byte" },
	{ "sluice-egress-ask/1 a'b.example.org 443 tunnel\n", "a host with a quote" },
	{ "", "nothing" },
};

Test(egress_ask, refuses_what_is_not_a_question)
{
	for (size_t i = 0; i < sizeof(bad_questions) / sizeof(bad_questions[0]); i++) {
		struct egress_ask_question q;
		cr_expect_eq(egress_ask_parse_question(bad_questions[i].text,
		                                       strlen(bad_questions[i].text), &q),
		             -EINVAL, "%s", bad_questions[i].why);
	}
	struct egress_ask_question q;
	static const char nul[] = "sluice-egress-ask/1 a.example.org\0 443 tunnel\n";
	cr_expect_eq(egress_ask_parse_question(nul, sizeof(nul) - 1, &q), -EINVAL, "a NUL byte");
}

Test(egress_ask, answers_are_four_exact_words_else_a_refusal)
{
	cr_assert_eq(egress_ask_parse_answer("asked-yes\n", 10), EGRESS_REASON_ASKED_YES);
	cr_assert_eq(egress_ask_parse_answer("asked-no\n", 9), EGRESS_REASON_ASKED_NO);
	cr_assert_eq(egress_ask_parse_answer("ask-timeout\n", 12), EGRESS_REASON_ASK_TIMEOUT);
	cr_assert_eq(egress_ask_parse_answer("ask-limit\n", 10), EGRESS_REASON_ASK_LIMIT);
	static const char *const bad[] = { "asked-yes",   "asked-yes\nasked-yes\n", "yes\n",
		                           "ASKED-YES\n", "asked-yes \n",           "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(egress_ask_parse_answer(bad[i], strlen(bad[i])),
		             EGRESS_REASON_ASK_FAILED, "'%s'", bad[i]);
}
