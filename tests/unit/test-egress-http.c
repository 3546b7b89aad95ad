/* SPDX-License-Identifier: MIT */
/*
 * launcher/egress-http.c: a proxied plain-HTTP request made into one
 * request for the host judged (Host replaced, the headers that keep a
 * connection open dropped, Connection: close), its body's end found in
 * either framing, and the head read within one deadline for the whole.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "egress-http.h"
#include "monotonic.h"

/* The head for upstream of a request whose line is "GET http://.../p" and
 * whose rest is rest; its length, or the error. */
static ssize_t rewrite(const char *rest, char *out, size_t size, struct egress_http_body *body,
                       struct sluice_error *err)
{
	return egress_http_request_head("GET", "/p", 2, rest, strlen(rest), "allowed.example:80",
	                                out, size, body, err);
}

Test(egress_http, host_is_the_judged_authority_and_the_connection_closes)
{
	char out[1024];
	struct egress_http_body body;
	struct sluice_error err = { 0 };
	ssize_t n = rewrite(" HTTP/1.1\r\nHost: other.example\r\nAccept: */*\r\n"
	                    "Connection: keep-alive\r\nProxy-Connection: keep-alive\r\n"
	                    "keep-alive: 300\r\nProxy-Authorization: Basic eA==\r\n"
	                    "Upgrade: h2c\r\nHOST: third.example\r\n\r\n",
	                    out, sizeof(out), &body, &err);
	cr_assert_gt(n, 0, "%s", err.detail);
	cr_assert_str_eq(out, "GET /p HTTP/1.1\r\nHost: allowed.example:80\r\nAccept: */*\r\n"
	                      "Connection: close\r\n\r\n");
	cr_assert_eq((size_t)n, strlen(out));
	cr_assert(body.done, "no body: the head is the whole request");
}

Test(egress_http, refuses_what_an_upstream_could_read_otherwise)
{
	static const struct {
		const char *rest, *why;
	} bad[] = {
		{ " HTTP/1.1\r\nHost: a\nHost: other.example\r\n\r\n", "does not end in CRLF" },
		{ " HTTP/1.1\r\nX: a\rHost: other.example\r\n\r\n", "lone CR" },
		{ " HTTP/1.1\r\nX: a\r\n folded\r\n\r\n", "not 'Name: value'" },
		{ " HTTP/1.1\r\nHost : other.example\r\n\r\n", "not 'Name: value'" },
		{ " HTTP/1.1\r\nno colon\r\n\r\n", "not 'Name: value'" },
		{ " HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
		  "both Content-Length and Transfer-Encoding" },
		{ " HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
		  "two different Content-Length" },
		{ " HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "not a number of bytes" },
		{ " HTTP/1.1\r\nContent-Length: 1 2\r\n\r\n", "not a number of bytes" },
		{ " HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
		  "other than one 'chunked'" },
		{ " HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
		  "other than one 'chunked'" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char out[1024];
		struct egress_http_body body;
		struct sluice_error err = { 0 };
		cr_assert_eq(rewrite(bad[i].rest, out, sizeof(out), &body, &err), -EINVAL,
		             "accepted: %s", bad[i].rest);
		cr_assert_not_null(strstr(err.detail, bad[i].why), "%s: said '%s'", bad[i].rest,
		                   err.detail);
	}
	char small[40];
	struct egress_http_body body;
	struct sluice_error err = { 0 };
	cr_assert_eq(rewrite(" HTTP/1.1\r\nAccept: */*\r\n\r\n", small, sizeof(small), &body, &err),
	             -E2BIG);
}

/* The bytes of stream that body takes, fed in pieces of step bytes. */
static size_t take_all(struct egress_http_body *body, const char *stream, size_t step)
{
	size_t at = 0, len = strlen(stream);
	while (at < len && !body->done) {
		size_t n = len - at < step ? len - at : step;
		ssize_t k = egress_http_body_take(body, stream + at, n);
		cr_assert_geq(k, 0, "the body's syntax at byte %zu", at);
		at += (size_t)k;
		if ((size_t)k < n)
			break;
	}
	return at;
}

Test(egress_http, a_body_ends_where_its_framing_says_in_any_pieces)
{
	static const char second[] = "GET /second HTTP/1.1\r\nHost: other.example\r\n\r\n";
	static const struct {
		const char *headers, *body;
	} cases[] = {
		{ "Content-Length: 5\r\n", "hello" },
		{ "Transfer-Encoding: chunked\r\n", "5\r\nhello\r\n0\r\n\r\n" },
		{ "Transfer-Encoding: Chunked\r\n",
		  "3;ext=1\r\nhel\r\n2\r\nlo\r\n0\r\nTrailer: x\r\n\r\n" },
		{ "Transfer-Encoding: chunked\r\n", "A\r\n0123456789\r\n00\r\n\r\n" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (size_t step = 1; step <= 64; step *= 4) {
			char rest[256], out[512], stream[256];
			snprintf(rest, sizeof(rest), " HTTP/1.1\r\n%s\r\n", cases[i].headers);
			snprintf(stream, sizeof(stream), "%s%s", cases[i].body, second);
			struct egress_http_body body;
			struct sluice_error err = { 0 };
			cr_assert_gt(rewrite(rest, out, sizeof(out), &body, &err), 0, "%s",
			             err.detail);
			cr_assert_not(body.done);
			cr_assert_eq(take_all(&body, stream, step), strlen(cases[i].body),
			             "case %zu in pieces of %zu: the second request is not taken",
			             i, step);
			cr_assert(body.done);
		}
}

Test(egress_http, a_chunked_body_out_of_syntax_is_refused)
{
	static const char *const bad[] = { "x\r\n",
		                           "\r\n",
		                           "5\nhello",
		                           "5\r\nhelloXY",
		                           "0\r\nTrailer\n",
		                           "0\r\n\rX",
		                           "fffffffffffffffff\r\n" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct egress_http_body body = { .kind = EGRESS_BODY_CHUNKED };
		cr_assert_eq(egress_http_body_take(&body, bad[i], strlen(bad[i])), -EINVAL,
		             "accepted: %s", bad[i]);
	}
}

/* A child that writes text to fd a byte at a time, every interval_ms. */
static pid_t trickle(int fd, const char *text, unsigned interval_ms)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		for (const char *c = text; *c; c++) {
			if (write(fd, c, 1) != 1)
				_exit(1);
			usleep(interval_ms * 1000);
		}
		pause();
		_exit(0);
	}
	return pid;
}

/* A slowloris: each byte well within any one poll's wait, the head never
 * done. The deadline is the whole head's. */
Test(egress_http, the_head_has_one_deadline_for_the_whole, .timeout = 20)
{
	char buf[4096];
	size_t len = 0;
	static const char head[] = "GET http://a.example/ HTTP/1.1\r\nHost: a\r\n\r\n";
	int pair[2];
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
	pid_t pid = trickle(pair[1], head, 5);
	ssize_t n = egress_http_read_head(pair[0], buf, sizeof(buf), 2000, &len);
	cr_assert_eq(n, (ssize_t)strlen(head),
	             "positive control: a head sent a byte at a "
	             "time within the deadline is read");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(pair[0]);
	close(pair[1]);

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
	static char endless[4000];
	memset(endless, 'a', sizeof(endless) - 1);
	pid = trickle(pair[1], endless, 50);
	uint64_t t0 = monotonic_ms();
	n = egress_http_read_head(pair[0], buf, sizeof(buf), 400, &len);
	uint64_t took = monotonic_ms() - t0;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	cr_assert_eq(n, -ETIMEDOUT);
	cr_assert(took >= 390 && took < 1500, "ended after %llu ms, the deadline 400",
	          (unsigned long long)took);
	close(pair[0]);
	close(pair[1]);
}
