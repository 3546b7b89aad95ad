/* SPDX-License-Identifier: MIT */
/*
 * One asker at a time: a person asked on the terminal answers one question
 * after another, and a program's answers come in the order asked. The
 * asker is a child process (the approver program's parent, so that its
 * wait and its exit status are its own: the pump reaps any child of this
 * process), which writes one line back: the answer's word, who answered,
 * what they said. Every descriptor here is non-blocking: a question, an
 * answer or a result that is not whole is dropped, and the connection
 * behind it refused.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-passing.h"
#include "fd-util.h"
#include "monotonic.h"
#include "policy/approval.h"
#include "policy/verdict.h"
#include "run/egress-asks.h"

/* The bytes of the run's command a question shows. */
#define EGRESS_ASK_COMMAND_SHOWN 512

int egress_asks_channel_open(int *ret_ours, int *ret_theirs)
{
	int pair[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0)
		return neg_errno();
	if (fcntl(pair[0], F_SETFL, O_NONBLOCK) < 0) {
		int r = neg_errno();
		safe_close(pair[0]);
		safe_close(pair[1]);
		return r;
	}
	*ret_ours = pair[0];
	*ret_theirs = pair[1];
	return 0;
}

void egress_asks_init(struct egress_asks *a, int channel, const struct broker_config *cfg,
                      const struct approval_asker *first, const char *command, const char *cwd,
                      uint64_t deadline_ms)
{
	memset(a, 0, sizeof(*a));
	/* without a configuration there is no approver: the proxy reads the
	 * closed channel as a refusal */
	a->channel = cfg ? channel : safe_close(channel);
	a->cfg = cfg;
	a->first = first;
	a->command = command;
	a->cwd = cwd;
	a->deadline_ms = deadline_ms;
	a->asker_fd = -1;
}

size_t egress_asks_fds(const struct egress_asks *a, int fds[2])
{
	size_t n = 0;
	if (a->channel >= 0)
		fds[n++] = a->channel;
	if (a->asker_fd >= 0)
		fds[n++] = a->asker_fd;
	return n;
}

/* Answer one connection and let it go. */
static void reply(int fd, enum egress_audit_reason reason)
{
	char line[EGRESS_ASK_ANSWER_MAX];
	int n = snprintf(line, sizeof(line), "%s\n", egress_ask_answer_word(reason));
	(void)write_full_nosigpipe(fd, line, (size_t)n);
	safe_close(fd);
}

/* Answer every connection waiting for hosts[host]. */
static void reply_waiting(struct egress_asks *a, size_t host)
{
	size_t kept = 0;
	for (size_t i = 0; i < a->n_waiting; i++) {
		if (a->waiting[i].host == host)
			reply(a->waiting[i].answer_fd, a->hosts[host].answer);
		else
			a->waiting[kept++] = a->waiting[i];
	}
	a->n_waiting = kept;
}

/* The asker's process: put hosts[asking] to the first asker and the
 * approver, write the answer on out, exit. The first asker (an MCP
 * worker's) talks to its server on descriptors this process inherited:
 * the pump's process does not read them while the command runs. It waits
 * as long as it was told; this process is killed at the run's end. */
static _Noreturn void asker_main(struct egress_asks *a, int out)
{
	sigset_t none;
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	/* the connections' pipes stay the broker's: one this process held
	 * would not see its end when the broker answers it */
	for (size_t i = 0; i < a->n_waiting; i++)
		(void)close(a->waiting[i].answer_fd);
	safe_close(a->channel);
	const struct egress_asked_host *h = &a->hosts[a->asking];
	/* no answer outlives the run's time left */
	struct broker_config cfg = *a->cfg;
	uint64_t start = monotonic_ms();
	uint64_t left = a->deadline_ms > start ? a->deadline_ms - start : 0;
	if (a->deadline_ms && left < cfg.approval_timeout)
		cfg.approval_timeout = left;
	char message[EGRESS_HOST_MAX + 160];
	snprintf(message, sizeof(message),
	         "the command asks to reach %s port %u, which is not in [network] allow: allow it "
	         "for the rest of this run?",
	         h->host, (unsigned)h->port);
	struct verdict v;
	verdict_init(&v);
	(void)verdict_add(&v, VERDICT_ASK, "sluice", message, NULL);
	/* The command only as far as it says which run asks: an MCP worker's
	 * question is one line on a pipe the pump's progress lines share,
	 * whole only within PIPE_BUF. */
	char command[EGRESS_ASK_COMMAND_SHOWN + 4];
	if (snprintf(command, EGRESS_ASK_COMMAND_SHOWN + 1, "%s", a->command ? a->command : "") >
	    EGRESS_ASK_COMMAND_SHOWN)
		strcat(command, "...");
	struct approval_request req = { .command = command,
		                        .cwd = a->cwd,
		                        .verdict = &v,
		                        .network_host = h->host,
		                        .network_port = h->port };
	char *why = NULL;
	const char *by = NULL;
	int r = approval_ask(&cfg, &req, a->first, &why, &by);
	enum egress_audit_reason reason = r > 0 ? EGRESS_REASON_ASKED_YES
	                                  : monotonic_ms() - start >= cfg.approval_timeout
	                                          ? EGRESS_REASON_ASK_TIMEOUT
	                                          : EGRESS_REASON_ASKED_NO;
	char line[sizeof(a->result)];
	int n = snprintf(line, sizeof(line), "%s %s %s\n", egress_ask_answer_word(reason),
	                 by ? by : "-", why ? why : "");
	if (n > 0 && (size_t)n >= sizeof(line))
		line[sizeof(line) - 2] = '\n', n = sizeof(line) - 1;
	(void)write_full_nosigpipe(out, line, (size_t)n);
	_exit(0);
}

/* Start asking about the first host that waits for an answer. */
static void ask_next(struct egress_asks *a)
{
	if (a->asker != 0)
		return;
	for (size_t i = 0; i < a->n_hosts; i++) {
		if (a->hosts[i].answer != EGRESS_REASON_NONE)
			continue;
		int fds[2];
		if (pipe2(fds, O_CLOEXEC) < 0) {
			a->hosts[i].answer = EGRESS_REASON_ASKED_NO;
			snprintf(a->hosts[i].why, sizeof(a->hosts[i].why), "%s", strerror(errno));
			reply_waiting(a, i);
			continue;
		}
		a->asking = i;
		pid_t pid = fork();
		if (pid == 0) {
			(void)close(fds[0]);
			asker_main(a, fds[1]);
		}
		(void)close(fds[1]);
		if (pid < 0) {
			(void)close(fds[0]);
			a->hosts[i].answer = EGRESS_REASON_ASKED_NO;
			snprintf(a->hosts[i].why, sizeof(a->hosts[i].why), "forking: %s",
			         strerror(errno));
			reply_waiting(a, i);
			continue;
		}
		(void)fcntl(fds[0], F_SETFL, O_NONBLOCK);
		a->asker = pid;
		a->asker_fd = fds[0];
		a->result_len = 0;
		return;
	}
}

/* The asker's line: "WORD BY WHY\n", BY "-" for nobody. */
static void take_result(struct egress_asks *a)
{
	struct egress_asked_host *h = &a->hosts[a->asking];
	h->answer = EGRESS_REASON_ASK_FAILED;
	char *nl = memchr(a->result, '\n', a->result_len);
	char *sp = nl ? memchr(a->result, ' ', (size_t)(nl - a->result)) : NULL;
	if (sp) {
		*nl = '\0';
		*sp = '\n'; /* the word as an answer line */
		h->answer = egress_ask_parse_answer(a->result, (size_t)(sp - a->result) + 1);
		char *by = sp + 1, *why = strchr(by, ' ');
		if (why)
			*why++ = '\0';
		snprintf(h->by, sizeof(h->by), "%s", strcmp(by, "-") == 0 ? "" : by);
		snprintf(h->why, sizeof(h->why), "%s", why ? why : "");
	} else {
		snprintf(h->why, sizeof(h->why), "the asking process ended without an answer");
	}
	reply_waiting(a, a->asking);
	while (waitpid(a->asker, NULL, WNOHANG) < 0 && errno == EINTR)
		;
	a->asker = 0;
	a->asker_fd = safe_close(a->asker_fd);
	ask_next(a);
}

/* The host of a question, found or added; -1 when it cannot be. */
static ssize_t host_index(struct egress_asks *a, const struct egress_ask_question *q)
{
	char text[EGRESS_HOST_MAX + 2];
	egress_ask_host_text(&q->host, text, sizeof(text));
	for (size_t i = 0; i < a->n_hosts; i++)
		if (a->hosts[i].port == q->port && strcmp(a->hosts[i].host, text) == 0)
			return (ssize_t)i;
	if (a->n_hosts == EGRESS_ASKS_MAX)
		return -1;
	struct egress_asked_host *h = &a->hosts[a->n_hosts];
	memset(h, 0, sizeof(*h));
	snprintf(h->host, sizeof(h->host), "%s", text);
	h->port = q->port;
	return (ssize_t)a->n_hosts++;
}

static void take_question(struct egress_asks *a)
{
	char buf[EGRESS_ASK_QUESTION_MAX];
	size_t len = 0;
	int fd = -1;
	int r = fds_receive_message(a->channel, buf, sizeof(buf), &len, &fd, 1);
	if (r == -EAGAIN || r == -EINTR)
		return;
	if (r == -ECONNRESET || (r < 0 && r != -EPROTO)) {
		/* the proxy is gone */
		a->channel = safe_close(a->channel);
		return;
	}
	struct egress_ask_question q;
	if (r < 0 || egress_ask_parse_question(buf, len, &q) < 0) {
		/* not a question: its pipe's end is the proxy's refusal */
		safe_close(fd);
		return;
	}
	if (a->deadline_ms && monotonic_ms() >= a->deadline_ms) {
		reply(fd, EGRESS_REASON_ASK_TIMEOUT);
		return;
	}
	ssize_t host = host_index(a, &q);
	if (host < 0) {
		a->refused_over_limit++;
		reply(fd, EGRESS_REASON_ASK_LIMIT);
		return;
	}
	if (a->hosts[host].answer != EGRESS_REASON_NONE) {
		/* decided for the session: not asked again */
		reply(fd, a->hosts[host].answer);
		return;
	}
	if (a->n_waiting == EGRESS_ASKS_WAITING_MAX) {
		reply(fd, EGRESS_REASON_ASK_LIMIT);
		return;
	}
	a->waiting[a->n_waiting++] =
	        (struct egress_ask_waiting){ .answer_fd = fd, .host = (size_t)host };
	ask_next(a);
}

void egress_asks_ready(struct egress_asks *a, int fd)
{
	if (fd == a->channel) {
		take_question(a);
		return;
	}
	if (fd != a->asker_fd || a->asker_fd < 0)
		return;
	size_t room = sizeof(a->result) - a->result_len;
	ssize_t n = room > 0 ? read(fd, a->result + a->result_len, room) : 0;
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		a->result_len += (size_t)n;
		return;
	}
	take_result(a);
}

void egress_asks_stop(struct egress_asks *a)
{
	if (a->asker != 0) {
		(void)kill(a->asker, SIGKILL);
		while (waitpid(a->asker, NULL, 0) < 0 && errno == EINTR)
			;
		a->asker = 0;
	}
	a->asker_fd = safe_close(a->asker_fd);
	for (size_t i = 0; i < a->n_hosts; i++) {
		if (a->hosts[i].answer != EGRESS_REASON_NONE)
			continue;
		a->hosts[i].answer = EGRESS_REASON_ASK_TIMEOUT;
		snprintf(a->hosts[i].why, sizeof(a->hosts[i].why), "the run ended first");
		reply_waiting(a, i);
	}
	a->channel = safe_close(a->channel);
}

json_t *egress_asks_to_json(const struct egress_asks *a)
{
	if (a->n_hosts == 0 && a->refused_over_limit == 0)
		return NULL;
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < a->n_hosts; i++) {
		const struct egress_asked_host *h = &a->hosts[i];
		json_array_append_new(arr, json_pack("{s:s, s:i, s:s, s:o, s:s}", "host", h->host,
		                                     "port", (int)h->port, "answer",
		                                     egress_ask_answer_word(h->answer), "by",
		                                     h->by[0] ? json_string(h->by) : json_null(),
		                                     "why", h->why));
	}
	return arr;
}

void egress_asks_done(struct egress_asks *a)
{
	egress_asks_stop(a);
}
