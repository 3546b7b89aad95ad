/* SPDX-License-Identifier: MIT */
/*
 * One question and its answer. The pipe for the answer is made here (the
 * proxy's seccomp filter lets it make no Unix socket), its write end sent
 * with the question and closed at once: the broker's copy is then the only
 * one, so that an asker that dies or a broker that gives up ends the wait
 * with end of file, not the timeout.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "cleanup.h"
#include "egress-ask.h"
#include "fd-passing.h"
#include "fd-util.h"
#include "monotonic.h"
#include "egress-question.h"

/* Read the answer from fd until its end, a full buffer or the deadline. */
static enum egress_audit_reason read_answer(int fd, uint64_t deadline)
{
	char buf[EGRESS_ASK_ANSWER_MAX];
	size_t len = 0;
	for (;;) {
		uint64_t now = monotonic_ms();
		if (now >= deadline)
			return EGRESS_REASON_ASK_TIMEOUT;
		uint64_t left = deadline - now;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = poll(&p, 1, left > 60000 ? 60000 : (int)left);
		if (n < 0 && errno != EINTR)
			return EGRESS_REASON_ASK_FAILED;
		if (n <= 0)
			continue;
		ssize_t k = read(fd, buf + len, sizeof(buf) - len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		len += (size_t)k;
		if (len == sizeof(buf))
			break;
	}
	return egress_ask_parse_answer(buf, len);
}

enum egress_audit_reason egress_asker_ask(const struct egress_asker *a,
                                          const struct egress_host *host, uint16_t port,
                                          enum egress_audit_kind kind)
{
	char question[EGRESS_ASK_QUESTION_MAX];
	ssize_t len = egress_ask_format_question(host, port, kind, question, sizeof(question));
	if (a->fd < 0 || len < 0)
		return EGRESS_REASON_ASK_FAILED;
	int pipe_fds[2];
	if (pipe2(pipe_fds, O_CLOEXEC) < 0)
		return EGRESS_REASON_ASK_FAILED;
	_cleanup_close_ int answer = pipe_fds[0];
	int r = fds_send_message(a->fd, question, (size_t)len, &pipe_fds[1], 1);
	(void)close(pipe_fds[1]);
	if (r < 0)
		return EGRESS_REASON_ASK_FAILED;
	return read_answer(answer, monotonic_ms() + a->wait_ms);
}
