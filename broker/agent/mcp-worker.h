/* SPDX-License-Identifier: MIT */
/*
 * One tools/call running in a process of its own, so that the server keeps
 * reading its input (a cancellation, another call) while a command runs,
 * and so that each command's tree has its own subreaper. The worker sends
 * progress lines, a question when it must ask the client's user (an ask
 * verdict, put as an elicitation), and then the result line on a pipe; the
 * answer to a question comes back on a pipe of its own; closing the cancel
 * pipe (or the server dying) makes it end its command's whole tree.
 * Not for: the protocol (mcp-server.c) or the tools (mcp-tools.c).
 */
#ifndef SLUICE_MCP_WORKER_H
#define SLUICE_MCP_WORKER_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "agent/mcp-rpc.h"
#include "run/pump.h"

struct mcp_worker {
	pid_t pid;
	int call_fd;            /* a slot's call pipe (write end) until assigned; else -1 */
	int result_fd;          /* the read end of the worker's lines; -1 once at EOF */
	int cancel_fd;          /* the write end of the cancel pipe; -1 once cancelled */
	int answer_fd;          /* the write end of the answer pipe; -1 once at EOF */
	json_t *id;             /* owned: the request's id */
	json_t *progress_token; /* owned, or NULL */
	bool cancelled;         /* no answer is sent */
	bool answered;          /* the answer (or its suppression) is done */
	struct rpc_lines lines; /* no max: a response is bounded by the output cap */
	char *response; /* owned: the worker's JSON-RPC response and its newline, once read */
	size_t response_len;
	/* A question the worker asked and the server has not answered: what it
	 * sent (owned), the id of the request put to the client for it (owned;
	 * NULL until sent), and when it stops waiting (monotonic ms). */
	json_t *question;
	json_t *question_id;
	uint64_t question_deadline;
};

/* A worker with nothing open. */
#define MCP_WORKER_INIT                                                          \
	(struct mcp_worker)                                                      \
	{                                                                        \
		.result_fd = -1, .cancel_fd = -1, .call_fd = -1, .answer_fd = -1 \
	}

/* What a worker runs. enter runs first. call runs in the worker on a call (a JSON object
 * whose "id" is the request's; call releases it) and returns its result (a
 * new reference, or NULL); prepared is what prepare returned, or NULL in a
 * worker started for its call. A worker forked ahead of its call (a slot)
 * runs prepare at once (the runner starts its launcher there), so that the
 * call need not wait for that; the call arrives with mcp_worker_assign(),
 * and a slot released without one calls discard and exits. */
struct mcp_slot_ops {
	/* First thing in every worker, its descriptors set: whatever the
	 * server's other descriptors held (closed here) is opened again. */
	void (*enter)(void *userdata);
	void *(*prepare)(void *userdata);
	json_t *(*call)(void *userdata, void *prepared, json_t *call, int cancel_fd,
	                pump_progress_fn progress, void *progress_userdata);
	void (*discard)(void *prepared);
};

/*
 * Fork a worker that runs ops->call(userdata, NULL, call, ...) (call stays
 * the caller's) and sends the JSON-RPC response with its result for the
 * call's "id", ready to be written as it is (the server does not parse it
 * again). The worker's standard input is /dev/null and its standard output
 * goes to standard error; it keeps no other descriptor of the server. Sets
 * pid, result_fd, cancel_fd and lines; -errno on failure.
 */
int mcp_worker_start(struct mcp_worker *w, const struct mcp_slot_ops *ops, void *userdata,
                     json_t *call);

/* Fork a slot: as mcp_worker_start() without the call, and call_fd is set. */
int mcp_worker_start_slot(struct mcp_worker *w, const struct mcp_slot_ops *ops, void *userdata);

/* Give a slot its call (a JSON object whose "id" is the request's, sent as
 * one line; the pipe then closes). -EPIPE when the slot is gone (release
 * it, start another); -E2BIG when the call is longer than a slot reads
 * (nothing was sent: the slot stays ready, the call needs a worker of its
 * own). */
int mcp_worker_assign(struct mcp_worker *w, json_t *call);

/* A line the worker sent: a progress line ({"progress": ms, "bytes": n}),
 * a question (stored in w->question, to be answered with
 * mcp_worker_answer()) or its response (stored in w->response). Returns
 * the progress object (a new reference) or NULL. */
json_t *mcp_worker_line(struct mcp_worker *w, const char *text, size_t len);

/* Answer the worker's question (answer, an object, is the caller's); the
 * question is forgotten. -errno when the worker is gone (it then has its
 * answer: none). */
int mcp_worker_answer(struct mcp_worker *w, const json_t *answer);

/*
 * In a worker: put question (a JSON object) to the server and wait up to
 * wait_ms for its answer (*ret, a new reference). -ECANCELED when the call
 * is cancelled meanwhile, -ETIMEDOUT, or another -errno (the server is
 * gone).
 */
int mcp_worker_ask(const json_t *question, uint64_t wait_ms, json_t **ret);

/* Cancel: the worker ends its command's tree and exits; no answer is sent. */
void mcp_worker_cancel(struct mcp_worker *w);

/* Wait for the worker to exit and release everything it holds (an
 * unassigned slot is told to discard its preparation first). */
void mcp_worker_done(struct mcp_worker *w);

#endif
