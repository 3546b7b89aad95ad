/* SPDX-License-Identifier: MIT */
/*
 * One tools/call running in a process of its own, so that the server keeps
 * reading its input (a cancellation, another call) while a command runs,
 * and so that each command's tree has its own subreaper. The worker sends
 * progress lines and then the result line on a pipe; closing the cancel
 * pipe (or the server dying) makes it end its command's whole tree.
 * Not for: the protocol (cmd-mcp.c) or the tools (mcp-tools.c).
 */
#ifndef SLUICE_MCP_WORKER_H
#define SLUICE_MCP_WORKER_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "mcp-rpc.h"
#include "pump.h"

/* Runs in the worker: the call's result (a new reference, or NULL). */
typedef json_t *(*mcp_worker_fn)(void *userdata, int cancel_fd, pump_progress_fn progress,
                                 void *progress_userdata);

struct mcp_worker {
	pid_t pid;
	int result_fd;          /* the read end of the worker's lines; -1 once at EOF */
	int cancel_fd;          /* the write end of the cancel pipe; -1 once cancelled */
	json_t *id;             /* owned: the request's id */
	json_t *progress_token; /* owned, or NULL */
	bool cancelled;         /* no answer is sent */
	bool answered;          /* the answer (or its suppression) is done */
	struct rpc_lines lines;
	json_t *result; /* owned: the result line, once read */
};

/*
 * Fork a worker that calls fn(userdata, ...) and sends its result. The
 * worker's standard input is /dev/null and its standard output goes to
 * standard error; it keeps no other descriptor of the server. Sets pid,
 * result_fd and cancel_fd; -errno on failure.
 */
int mcp_worker_start(struct mcp_worker *w, mcp_worker_fn fn, void *userdata);

/* A line the worker sent: a progress line ({"progress": ms, "bytes": n})
 * or the result (stored in w->result). Returns the progress object (a new
 * reference) or NULL. */
json_t *mcp_worker_line(struct mcp_worker *w, const char *text, size_t len);

/* Cancel: the worker ends its command's tree and exits; no answer is sent. */
void mcp_worker_cancel(struct mcp_worker *w);

/* Wait for the worker to exit and release everything it holds. */
void mcp_worker_done(struct mcp_worker *w);

#endif
