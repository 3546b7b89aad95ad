/* SPDX-License-Identifier: MIT */
/*
 * Worker processes for tools/call. The worker's descriptors are exactly:
 * 0 /dev/null, 1 and 2 the server's standard error, 3 its line pipe, 4 its
 * cancel pipe, 5 its answer pipe, and in a slot 6 its call pipe; another
 * worker's pipes are never held by this one, so closing one reaches
 * exactly one worker.
 */
#include "config.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "monotonic.h"
#include "agent/mcp-worker.h"
#include "core/request.h"

#define WORKER_LINE_FD 3
#define WORKER_CANCEL_FD 4
#define WORKER_ANSWER_FD 5
#define WORKER_CALL_FD 6
/* The first byte of the response line, and of a question; progress lines
 * start with '{'. */
#define RESPONSE_MARK '='
#define QUESTION_MARK '?'
/* The longest answer a worker reads. */
#define WORKER_ANSWER_MAX 4096

/* A call line a slot reads: the request document's cap, and room for the
 * rest. A longer call is not given to a slot (mcp_worker_assign()): the
 * server's line cap is larger, and a call re-encoded can be longer still. */
#define WORKER_CALL_MAX (REQUEST_DOCUMENT_MAX + 64 * 1024)

static void send_progress(void *userdata, uint64_t elapsed_ms, uint64_t output_bytes)
{
	(void)userdata;
	(void)rpc_send(WORKER_LINE_FD, json_pack("{s:I, s:I}", "progress", (json_int_t)elapsed_ms,
	                                         "bytes", (json_int_t)output_bytes));
}

/* In the child: the descriptors as above (call_fd < 0: no call pipe);
 * exits on failure. */
static void worker_fds(int line_fd, int cancel_fd, int answer_fd, int call_fd)
{
	int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int line_hi = fcntl(line_fd, F_DUPFD_CLOEXEC, 10);
	int cancel_hi = fcntl(cancel_fd, F_DUPFD_CLOEXEC, 10);
	int answer_hi = fcntl(answer_fd, F_DUPFD_CLOEXEC, 10);
	int call_hi = call_fd >= 0 ? fcntl(call_fd, F_DUPFD_CLOEXEC, 10) : -1;
	if (null_fd < 0 || line_hi < 0 || cancel_hi < 0 || answer_hi < 0 ||
	    (call_fd >= 0 && call_hi < 0) || dup2(null_fd, STDIN_FILENO) < 0 ||
	    dup2(STDERR_FILENO, STDOUT_FILENO) < 0 ||
	    dup3(line_hi, WORKER_LINE_FD, O_CLOEXEC) < 0 ||
	    dup3(cancel_hi, WORKER_CANCEL_FD, O_CLOEXEC) < 0 ||
	    dup3(answer_hi, WORKER_ANSWER_FD, O_CLOEXEC) < 0 ||
	    (call_fd >= 0 && dup3(call_hi, WORKER_CALL_FD, O_CLOEXEC) < 0))
		_exit(EXIT_FAILURE);
	(void)syscall(SYS_close_range, call_fd >= 0 ? WORKER_CALL_FD + 1 : WORKER_ANSWER_FD + 1,
	              ~0U, 0);
}

/* The response line (RESPONSE_MARK, then the JSON-RPC response to id with
 * res, stolen), then exit (no exit handlers: they belong to the server).
 * Without a result nothing is sent: the server answers with an error. */
static _Noreturn void worker_finish(const json_t *id, json_t *res)
{
	json_t *response = res ? rpc_result(id, res) : NULL;
	char *text = response ? json_dumps(response, JSON_COMPACT) : NULL;
	json_decref(response);
	size_t len = text ? strlen(text) : 0;
	char *line = text ? malloc(len + 2) : NULL;
	if (line) {
		line[0] = RESPONSE_MARK;
		memcpy(line + 1, text, len);
		line[len + 1] = '\n';
		if (write_full(WORKER_LINE_FD, line, len + 2) < 0)
			_exit(EXIT_FAILURE);
	}
	_exit(line ? EXIT_SUCCESS : EXIT_FAILURE);
}

/* In the child, its descriptors set: the call (released by ops->call),
 * then its response. Never returns. */
static _Noreturn void worker_call(const struct mcp_slot_ops *ops, void *userdata, void *prepared,
                                  json_t *call)
{
	json_t *id = json_incref(json_object_get(call, "id"));
	worker_finish(id,
	              ops->call(userdata, prepared, call, WORKER_CANCEL_FD, send_progress, NULL));
}

/* In a slot: prepare, then wait for the call line until end of file. */
static _Noreturn void slot_main(int line_fd, int cancel_fd, int answer_fd, int call_fd,
                                const struct mcp_slot_ops *ops, void *userdata)
{
	worker_fds(line_fd, cancel_fd, answer_fd, call_fd);
	ops->enter(userdata);
	void *prepared = ops->prepare(userdata);
	_cleanup_free_ char *text = malloc(WORKER_CALL_MAX + 1);
	ssize_t n = text ? read_full(WORKER_CALL_FD, text, WORKER_CALL_MAX + 1) : -ENOMEM;
	json_t *call = n > 0 && n <= WORKER_CALL_MAX ? json_loadb(text, (size_t)n, 0, NULL) : NULL;
	if (!call) { /* released unassigned, or a call that cannot be read */
		ops->discard(prepared);
		_exit(n == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
	}
	worker_call(ops, userdata, prepared, call);
}

static void close_pair(int p[2])
{
	p[0] = safe_close(p[0]);
	p[1] = safe_close(p[1]);
}

/* Fork with the pipes (a slot, call NULL: its call pipe too); the child
 * runs the call (a slot: prepares, then waits for it). */
static int worker_fork(struct mcp_worker *w, const struct mcp_slot_ops *ops, void *userdata,
                       json_t *call_doc)
{
	bool slot = !call_doc;
	int lines[2] = { -1, -1 }, cancel[2] = { -1, -1 }, answer[2] = { -1, -1 };
	int call[2] = { -1, -1 };
	int r = 0;
	if (pipe2(lines, O_CLOEXEC) < 0 || pipe2(cancel, O_CLOEXEC) < 0 ||
	    pipe2(answer, O_CLOEXEC) < 0 || (slot && pipe2(call, O_CLOEXEC) < 0))
		r = neg_errno();
	pid_t pid = r < 0 ? -1 : fork();
	if (pid == 0) {
		close(lines[0]);
		close(cancel[1]);
		close(answer[1]);
		if (slot) {
			close(call[1]);
			slot_main(lines[1], cancel[0], answer[0], call[0], ops, userdata);
		}
		worker_fds(lines[1], cancel[0], answer[0], -1);
		ops->enter(userdata);
		/* the child's copy of the call, which ops->call releases */
		worker_call(ops, userdata, NULL, json_incref(call_doc));
	}
	if (r == 0 && pid < 0)
		r = neg_errno();
	lines[1] = safe_close(lines[1]);
	cancel[0] = safe_close(cancel[0]);
	answer[0] = safe_close(answer[0]);
	call[0] = safe_close(call[0]);
	if (r < 0) {
		close_pair(lines);
		close_pair(cancel);
		close_pair(answer);
		close_pair(call);
		return r;
	}
	w->pid = pid;
	w->result_fd = lines[0];
	w->cancel_fd = cancel[1];
	w->answer_fd = answer[1];
	w->call_fd = call[1];
	w->lines = (struct rpc_lines){ .max = RPC_LINES_NO_MAX };
	return 0;
}

int mcp_worker_start(struct mcp_worker *w, const struct mcp_slot_ops *ops, void *userdata,
                     json_t *call)
{
	return call ? worker_fork(w, ops, userdata, call) : -EINVAL;
}

int mcp_worker_start_slot(struct mcp_worker *w, const struct mcp_slot_ops *ops, void *userdata)
{
	return worker_fork(w, ops, userdata, NULL);
}

int mcp_worker_assign(struct mcp_worker *w, json_t *call)
{
	_cleanup_free_ char *text = json_dumps(call, JSON_COMPACT);
	if (!text)
		return -ENOMEM;
	size_t len = strlen(text);
	if (len > WORKER_CALL_MAX)
		return -E2BIG; /* the slot is left as it was */
	int r = write_full(w->call_fd, text, len);
	w->call_fd = safe_close(w->call_fd);
	return r < 0 ? r : 0;
}

json_t *mcp_worker_line(struct mcp_worker *w, const char *text, size_t len)
{
	if (len > 0 && text[0] == QUESTION_MARK) {
		json_t *q = json_loadb(text + 1, len - 1, 0, NULL);
		if (json_is_object(q) && !w->question) {
			w->question = q;
			w->question_id = NULL;
		} else {
			json_decref(q);
		}
		return NULL;
	}
	if (len > 0 && text[0] == RESPONSE_MARK) {
		/* kept with its newline, to be written in one piece */
		free(w->response);
		w->response = malloc(len);
		w->response_len = w->response ? len : 0;
		if (w->response) {
			memcpy(w->response, text + 1, len - 1);
			w->response[len - 1] = '\n';
		}
		return NULL;
	}
	return json_loadb(text, len, 0, NULL);
}

int mcp_worker_answer(struct mcp_worker *w, const json_t *answer)
{
	json_decref(w->question);
	json_decref(w->question_id);
	w->question = w->question_id = NULL;
	_cleanup_free_ char *text = json_dumps(answer, JSON_COMPACT);
	if (!text)
		return -ENOMEM;
	size_t len = strlen(text);
	text[len] = '\n'; /* in place of the NUL: written as one line */
	int r = w->answer_fd >= 0 ? write_full(w->answer_fd, text, len + 1) : -EPIPE;
	text[len] = '\0';
	return r;
}

int mcp_worker_ask(const json_t *question, uint64_t wait_ms, json_t **ret)
{
	*ret = NULL;
	_cleanup_free_ char *text = json_dumps(question, JSON_COMPACT);
	size_t len = text ? strlen(text) : 0;
	_cleanup_free_ char *line = text ? malloc(len + 2) : NULL;
	if (!line)
		return -ENOMEM;
	line[0] = QUESTION_MARK;
	memcpy(line + 1, text, len);
	line[len + 1] = '\n';
	int r = write_full(WORKER_LINE_FD, line, len + 2);
	if (r < 0)
		return r;
	char answer[WORKER_ANSWER_MAX];
	size_t have = 0;
	uint64_t deadline = monotonic_ms() + wait_ms;
	for (;;) {
		char *nl = memchr(answer, '\n', have);
		if (nl) {
			*ret = json_loadb(answer, (size_t)(nl - answer), 0, NULL);
			return *ret ? 0 : -EBADMSG;
		}
		if (have == sizeof(answer))
			return -EMSGSIZE;
		uint64_t now = monotonic_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		uint64_t left = deadline - now;
		struct pollfd p[2] = {
			{ .fd = WORKER_ANSWER_FD, .events = POLLIN },
			{ .fd = WORKER_CANCEL_FD, .events = POLLIN },
		};
		if (poll(p, 2, left > INT32_MAX ? INT32_MAX : (int)left) < 0) {
			if (errno == EINTR)
				continue;
			return neg_errno();
		}
		if (p[1].revents) /* cancelled: the cancel pipe closed */
			return -ECANCELED;
		if (!p[0].revents)
			continue;
		ssize_t n = read(WORKER_ANSWER_FD, answer + have, sizeof(answer) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? neg_errno() : -EPIPE;
		have += (size_t)n;
	}
}

void mcp_worker_cancel(struct mcp_worker *w)
{
	w->cancelled = true;
	w->cancel_fd = safe_close(w->cancel_fd);
}

void mcp_worker_done(struct mcp_worker *w)
{
	w->call_fd = safe_close(w->call_fd);
	w->cancel_fd = safe_close(w->cancel_fd);
	w->answer_fd = safe_close(w->answer_fd);
	w->result_fd = safe_close(w->result_fd);
	if (w->pid > 0)
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
	json_decref(w->id);
	json_decref(w->progress_token);
	json_decref(w->question);
	json_decref(w->question_id);
	free(w->response);
	rpc_lines_done(&w->lines);
	*w = MCP_WORKER_INIT;
}
