/* SPDX-License-Identifier: MIT */
/*
 * Worker processes for tools/call. The worker's descriptors are exactly:
 * 0 /dev/null, 1 and 2 the server's standard error, 3 its line pipe, 4 its
 * cancel pipe; another worker's cancel pipe is never held by this one, so
 * closing it reaches exactly one worker.
 */
#include "config.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "mcp-worker.h"

#define WORKER_LINE_FD 3
#define WORKER_CANCEL_FD 4

/* Send obj (stolen) as one line on fd, in one write; in the worker. */
static void send_line(int fd, json_t *obj)
{
	char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
	json_decref(obj);
	if (!text)
		return;
	size_t len = strlen(text);
	_cleanup_free_ char *line = realloc(text, len + 1);
	if (!line) {
		free(text);
		return;
	}
	line[len] = '\n';
	(void)write_full(fd, line, len + 1);
}

static void send_progress(void *userdata, uint64_t elapsed_ms, uint64_t output_bytes)
{
	(void)userdata;
	send_line(WORKER_LINE_FD, json_pack("{s:I, s:I}", "progress", (json_int_t)elapsed_ms,
	                                    "bytes", (json_int_t)output_bytes));
}

/* In the child: the descriptors as above, then the call. Never returns. */
static void worker_main(int line_fd, int cancel_fd, mcp_worker_fn fn, void *userdata)
{
	int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int line_hi = fcntl(line_fd, F_DUPFD_CLOEXEC, 10);
	int cancel_hi = fcntl(cancel_fd, F_DUPFD_CLOEXEC, 10);
	if (null_fd < 0 || line_hi < 0 || cancel_hi < 0 || dup2(null_fd, STDIN_FILENO) < 0 ||
	    dup2(STDERR_FILENO, STDOUT_FILENO) < 0 ||
	    dup3(line_hi, WORKER_LINE_FD, O_CLOEXEC) < 0 ||
	    dup3(cancel_hi, WORKER_CANCEL_FD, O_CLOEXEC) < 0)
		_exit(EXIT_FAILURE);
	(void)syscall(SYS_close_range, WORKER_CANCEL_FD + 1, ~0U, 0);
	json_t *res = fn(userdata, WORKER_CANCEL_FD, send_progress, NULL);
	bool ok = res != NULL;
	send_line(WORKER_LINE_FD, res ? json_pack("{s:o}", "result", res) : NULL);
	/* No exit handlers: they belong to the server. */
	_exit(ok ? EXIT_SUCCESS : EXIT_FAILURE);
}

int mcp_worker_start(struct mcp_worker *w, mcp_worker_fn fn, void *userdata)
{
	int lines[2], cancel[2];
	if (pipe2(lines, O_CLOEXEC) < 0)
		return neg_errno();
	if (pipe2(cancel, O_CLOEXEC) < 0) {
		int r = neg_errno();
		close(lines[0]);
		close(lines[1]);
		return r;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(lines[0]);
		close(cancel[1]);
		worker_main(lines[1], cancel[0], fn, userdata);
	}
	int r = pid < 0 ? neg_errno() : 0;
	close(lines[1]);
	close(cancel[0]);
	if (r < 0) {
		close(lines[0]);
		close(cancel[1]);
		return r;
	}
	w->pid = pid;
	w->result_fd = lines[0];
	w->cancel_fd = cancel[1];
	return 0;
}

json_t *mcp_worker_line(struct mcp_worker *w, const char *text, size_t len)
{
	json_t *obj = json_loadb(text, len, 0, NULL);
	if (!obj)
		return NULL;
	json_t *res = json_object_get(obj, "result");
	if (res) {
		json_decref(w->result);
		w->result = json_incref(res);
		json_decref(obj);
		return NULL;
	}
	return obj;
}

void mcp_worker_cancel(struct mcp_worker *w)
{
	w->cancelled = true;
	w->cancel_fd = safe_close(w->cancel_fd);
}

void mcp_worker_done(struct mcp_worker *w)
{
	w->cancel_fd = safe_close(w->cancel_fd);
	w->result_fd = safe_close(w->result_fd);
	if (w->pid > 0)
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
	json_decref(w->id);
	json_decref(w->progress_token);
	json_decref(w->result);
	rpc_lines_done(&w->lines);
	*w = (struct mcp_worker){ .result_fd = -1, .cancel_fd = -1 };
}
