/* SPDX-License-Identifier: MIT */
/*
 * The Model Context Protocol server on standard input and output. One loop
 * polls the input and the workers: requests are answered at once, except
 * tools/call, which runs in a worker (mcp-worker.c) so that a cancellation
 * can reach a running command. Before each tools/call a configuration file
 * that changed is read again. A worker's question (an ask verdict) becomes
 * an elicitation/create request to the client, whose answer the loop reads
 * like any other message and hands back. End of input cancels every
 * running call, waits for the workers, and returns.
 * Not for: the command line (cli/cmd-mcp.c), the tools themselves
 * (mcp-tools.c), the questions (mcp-elicit.c) or the framing (mcp-rpc.c).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "log.h"
#include "monotonic.h"
#include "agent/mcp-elicit.h"
#include "agent/mcp-rpc.h"
#include "agent/mcp-server.h"
#include "agent/mcp-tools.h"
#include "agent/mcp-worker.h"
#include "core/request.h"
#include "run/workdir.h"

/* The most tools/call running at once; more are refused with isError. */
#define MCP_WORKERS_MAX 16
/* One read of the input takes at most this much. */
#define MCP_READ_CHUNK 65536

/* The protocol versions spoken, newest first. */
static const char *const protocol_versions[] = { "2025-11-25", "2025-06-18", "2025-03-26",
	                                         "2024-11-05" };
/* From this version on, tools declare a title and outputSchema (and results
 * may carry structuredContent), and servers may ask the client's user
 * (elicitation). */
#define MCP_STRUCTURED_SINCE "2025-06-18"

struct mcp_server {
	struct mcp_context ctx;
	uint64_t progress_interval_ms;
	struct mcp_worker workers[MCP_WORKERS_MAX];
	size_t n_workers;
	/* The next bash call's worker, forked ahead with its launcher waiting
	 * (a slot); has_slot false when there is none. */
	struct mcp_worker slot;
	bool has_slot;
	struct rpc_lines input;
	bool eof;               /* the input ended (or the output broke): no more answers */
	char error[512];        /* the message of a handler's error code */
	bool client_can_elicit; /* it declared form elicitation */
	struct mcp_session_approvals approved; /* commands its user allowed for the session */
	uint64_t questions;                    /* elicitation requests sent so far */
	uint64_t question_wait_ms;             /* how long one waits ([approval] timeout) */
	struct mcp_server_options opt;         /* root NULL: ctx.root is the workspace */
	char *root;                            /* owned: ctx.root */
};

/* Send msg (stolen) unless the server is closing; a broken output ends it. */
static void send(struct mcp_server *srv, json_t *msg)
{
	if (srv->eof) {
		json_decref(msg);
		return;
	}
	int r = rpc_send(STDOUT_FILENO, msg);
	if (r == -ENOMEM)
		log_error("mcp: out of memory writing a message");
	else if (r < 0)
		srv->eof = true;
}

/* A whole message a worker made (ending in its newline), written as it is. */
static void send_line(struct mcp_server *srv, const char *line, size_t len)
{
	if (!srv->eof && write_full(STDOUT_FILENO, line, len) < 0)
		srv->eof = true;
}

__attribute__((format(printf, 3, 4))) static int rpc_fail(struct mcp_server *srv, int code,
                                                          const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(srv->error, sizeof(srv->error), fmt, ap);
	va_end(ap);
	return code;
}

/* A handler returns 0 with *ret the result, 1 when the answer comes later,
 * or a JSON-RPC error code (message in srv->error). */
typedef int (*method_fn)(struct mcp_server *srv, const struct rpc_message *msg, json_t **ret);

static int on_ping(struct mcp_server *srv, const struct rpc_message *msg, json_t **ret)
{
	(void)srv;
	(void)msg;
	*ret = json_object();
	return 0;
}

static int on_tools_list(struct mcp_server *srv, const struct rpc_message *msg, json_t **ret)
{
	(void)msg;
	*ret = mcp_tools_list(&srv->ctx);
	return 0;
}

/* In a worker: its start (the audit log, whose descriptor it closed), the
 * preparation (a slot's), the call (in a slot, or in a worker started for
 * it, prepared NULL), a preparation no call used. */
static void slot_enter(void *userdata)
{
	const struct mcp_server *srv = userdata;
	broker_context_reopen_audit(srv->ctx.policies);
}

static void *slot_prepare(void *userdata)
{
	const struct mcp_server *srv = userdata;
	return mcp_tools_prepare_bash(&srv->ctx);
}

static json_t *slot_call(void *userdata, void *prepared, json_t *call, int cancel_fd,
                         pump_progress_fn progress, void *progress_userdata)
{
	const struct mcp_server *srv = userdata;
	struct mcp_context ctx = srv->ctx;
	ctx.structured = json_is_true(json_object_get(call, "structured"));
	ctx.elicit = json_is_true(json_object_get(call, "elicit"));
	struct mcp_call_io io = {
		.cancel_fd = cancel_fd,
		.progress = json_is_true(json_object_get(call, "progress")) ? progress : NULL,
		.progress_interval_ms = srv->opt.progress_interval_ms,
		.progress_userdata = progress_userdata,
		.prepared = prepared,
	};
	json_t *res = mcp_tools_call(&ctx, json_string_value(json_object_get(call, "name")),
	                             json_object_get(call, "arguments"), &io);
	free(prepared); /* released by the call */
	json_decref(call);
	return res;
}

static void slot_discard(void *prepared)
{
	mcp_tools_discard_prepared(prepared);
}

static const struct mcp_slot_ops slot_ops = {
	.enter = slot_enter,
	.prepare = slot_prepare,
	.call = slot_call,
	.discard = slot_discard,
};

/* Fork the next bash call's worker while nothing waits for it (best effort:
 * without a slot a call forks its worker itself). */
static void prepare_slot(struct mcp_server *srv)
{
	if (srv->has_slot || srv->eof)
		return;
	/* An answer just written woke its reader on this CPU: let it run
	 * before the fork takes the CPU for a few ms. */
	sched_yield();
	srv->slot = MCP_WORKER_INIT;
	srv->has_slot = mcp_worker_start_slot(&srv->slot, &slot_ops, srv) == 0;
}

static void release_slot(struct mcp_server *srv)
{
	if (srv->has_slot)
		mcp_worker_done(&srv->slot);
	srv->has_slot = false;
}

/* The slot takes the bash call w is for (not a background one: its job
 * starts a launcher of its own, so the slot's waiting one would be thrown
 * away): true when it did (w is the slot). */
static bool use_slot(struct mcp_server *srv, struct mcp_worker *w, const char *name, json_t *call)
{
	if (strcmp(name, "bash") != 0 || !srv->has_slot ||
	    request_json_asks_background(json_object_get(call, "arguments")))
		return false;
	int r = mcp_worker_assign(&srv->slot, call);
	if (r == -E2BIG) /* too long for a slot: it forks its own worker */
		return false;
	if (r < 0) { /* the slot is gone: this call forks its own worker */
		release_slot(srv);
		return false;
	}
	*w = srv->slot;
	srv->has_slot = false;
	return true;
}

/* A client whose person can be asked is asked about a host not on [network]
 * allow, before the configured approver, even where there is none
 * ([approval] method = deny): unless [network] ask = no. */
static void ask_client_about_hosts(const struct mcp_server *srv, const struct broker_config *cfg,
                                   struct run_settings *settings)
{
	if (srv->client_can_elicit && cfg->network_ask)
		settings->egress_ask = true;
}

/* The configuration and the plugins, armed, --sandbox applied, and the
 * client asked about hosts where it can be: what the server decides with.
 * 0, or -errno with reterr. */
static int open_policies(const struct mcp_server *srv, struct run_settings *settings,
                         struct broker_context **ret, struct sluice_error *reterr)
{
	_cleanup_(broker_context_freep) struct broker_context *policies = NULL;
	int r = broker_context_open(srv->opt.config_file, settings, &policies, reterr);
	if (r >= 0)
		r = broker_context_arm(policies, reterr);
	if (r >= 0 && srv->opt.has_sandbox)
		r = run_settings_choose_sandbox(settings, srv->opt.sandbox, reterr);
	if (r < 0)
		return r;
	ask_client_about_hosts(srv, broker_context_config(policies), settings);
	*ret = TAKE_PTR(policies);
	return 0;
}

static int on_initialize(struct mcp_server *srv, const struct rpc_message *msg, json_t **ret)
{
	const char *asked = json_string_value(json_object_get(msg->params, "protocolVersion"));
	if (!asked) /* params is an object or missing (on_request) */
		return rpc_fail(srv, RPC_INVALID_PARAMS, "'params.protocolVersion' is missing");
	const char *version = protocol_versions[0];
	for (size_t i = 0; i < ELEMENTSOF(protocol_versions); i++)
		if (strcmp(asked, protocol_versions[i]) == 0)
			version = protocol_versions[i];
	srv->ctx.structured = strcmp(version, MCP_STRUCTURED_SINCE) >= 0;
	srv->client_can_elicit =
	        srv->ctx.structured &&
	        mcp_elicit_client_can(json_object_get(msg->params, "capabilities"));
	/* the slot forked before this was known has a launcher told not to ask */
	bool asked_before = srv->ctx.settings.egress_ask;
	if (srv->ctx.policies)
		ask_client_about_hosts(srv, broker_context_config(srv->ctx.policies),
		                       &srv->ctx.settings);
	if (srv->ctx.settings.egress_ask != asked_before) {
		release_slot(srv);
		prepare_slot(srv);
	}
	*ret = json_pack("{s:s, s:{s:{s:b}}, s:{s:s, s:s}, s:s}", "protocolVersion", version,
	                 "capabilities", "tools", "listChanged", 0, "serverInfo", "name",
	                 PACKAGE_NAME, "version", PACKAGE_VERSION, "instructions",
	                 "Run shell commands with the bash tool; every command is checked by "
	                 "the policies first and runs with a timeout and bounded output. "
	                 "Background jobs are managed with the jobs, job_output and job_kill "
	                 "tools.");
	return 0;
}

/*
 * Before a call: when a configuration file changed since it was read, read
 * it again, so that an administrator's new rule holds for the next call of
 * a server that runs for days. The slot forked ahead under the old one is
 * dropped. A configuration that now has errors refuses the call (as `sluice
 * run` would) and every call until it is fixed; the old one is not used
 * any more. 0, or -errno with reterr.
 */
static int reload_if_changed(struct mcp_server *srv, struct sluice_error *reterr)
{
	if (!broker_context_files_changed(srv->ctx.policies))
		return 0;
	struct run_settings settings;
	struct broker_context *policies;
	int r = open_policies(srv, &settings, &policies, reterr);
	if (r < 0)
		return r;
	release_slot(srv);
	broker_context_free(srv->ctx.policies);
	srv->ctx.policies = policies;
	srv->ctx.settings = settings;
	srv->question_wait_ms = broker_context_config(policies)->approval_timeout;
	return 0;
}

static int on_tools_call(struct mcp_server *srv, const struct rpc_message *msg, json_t **ret)
{
	/* params is an object or missing (on_request) */
	const char *name = json_string_value(json_object_get(msg->params, "name"));
	json_t *arguments = json_object_get(msg->params, "arguments");
	if (!name)
		return rpc_fail(srv, RPC_INVALID_PARAMS, "'params.name' (a string) is missing");
	if (!mcp_tools_known(name))
		return rpc_fail(srv, RPC_INVALID_PARAMS, "Unknown tool: %s", name);
	if (arguments && !json_is_object(arguments))
		return rpc_fail(srv, RPC_INVALID_PARAMS, "'params.arguments' must be an object");
	json_t *token = json_object_get(json_object_get(msg->params, "_meta"), "progressToken");
	if (token && !json_is_string(token) && !json_is_integer(token))
		token = NULL;
	for (size_t i = 0; i < srv->n_workers; i++)
		if (!srv->workers[i].answered && json_equal(srv->workers[i].id, msg->id))
			return rpc_fail(srv, RPC_INVALID_REQUEST,
			                "the id of a call that is still running: an id names one "
			                "call (a cancellation finds it by its id)");
	struct sluice_error err = { 0 };
	if (reload_if_changed(srv, &err) < 0) {
		log_sluice_error(&err, "mcp: the configuration changed: config_error");
		*ret = json_pack(
		        "{s:[{s:s, s:s++}], s:b}", "content", "type", "text", "text",
		        "[config_error: the configuration changed and cannot be used: ", err.detail,
		        " (in sluice mcp's standard error); nothing runs until it is fixed]",
		        "isError", 1);
		return *ret ? 0 : rpc_fail(srv, RPC_INTERNAL_ERROR, "out of memory");
	}
	if (srv->n_workers == MCP_WORKERS_MAX) {
		*ret = json_pack("{s:[{s:s, s:s}], s:b}", "content", "type", "text", "text",
		                 "[too many commands running at once; wait for one to finish]",
		                 "isError", 1);
		return 0;
	}
	/* One call, the same on the slot and in a worker of its own; arguments
	 * left out stay left out. */
	_cleanup_(json_decrefp) json_t *call =
	        json_pack("{s:O, s:s, s:O*, s:b, s:b, s:b}", "id", msg->id, "name", name,
	                  "arguments", arguments, "progress", token != NULL, "structured",
	                  srv->ctx.structured, "elicit", srv->client_can_elicit);
	if (!call)
		return rpc_fail(srv, RPC_INTERNAL_ERROR, "out of memory");
	struct mcp_worker *w = &srv->workers[srv->n_workers];
	*w = MCP_WORKER_INIT;
	if (!use_slot(srv, w, name, call)) {
		int r = mcp_worker_start(w, &slot_ops, srv, call);
		if (r < 0)
			return rpc_fail(srv, RPC_INTERNAL_ERROR, "starting the call: %s",
			                strerror(-r));
	}
	w->id = json_deep_copy(msg->id);
	w->progress_token = token ? json_deep_copy(token) : NULL;
	srv->n_workers++;
	return 1;
}

static const struct method {
	const char *name;
	method_fn fn;
} methods[] = {
	{ "initialize", on_initialize },
	{ "ping", on_ping },
	{ "tools/list", on_tools_list },
	{ "tools/call", on_tools_call },
};

/* The client is told to drop the question put for w (its call ended, or
 * the question timed out); w's question is forgotten. */
static void withdraw_question(struct mcp_server *srv, struct mcp_worker *w, const char *why)
{
	if (!w->question_id)
		return;
	send(srv,
	     rpc_notification("notifications/cancelled",
	                      json_pack("{s:O, s:s}", "requestId", w->question_id, "reason", why)));
	json_decref(w->question_id);
	json_decref(w->question);
	w->question_id = w->question = NULL;
}

static void on_cancelled(struct mcp_server *srv, const struct rpc_message *msg)
{
	json_t *id = json_object_get(msg->params, "requestId");
	for (size_t i = 0; id && i < srv->n_workers; i++)
		if (json_equal(srv->workers[i].id, id)) {
			withdraw_question(srv, &srv->workers[i], "the tool call was cancelled");
			mcp_worker_cancel(&srv->workers[i]);
		}
}

/* A worker asked: answered at once when no client need be asked, else
 * put to the client as an elicitation/create request. */
static void on_question(struct mcp_server *srv, struct mcp_worker *w)
{
	if (srv->eof) /* closing: the worker is cancelled, which withdraws it */
		return;
	json_t *now = mcp_elicit_answer_now(&srv->approved, w->question, srv->client_can_elicit);
	if (now) {
		(void)mcp_worker_answer(w, now); /* a worker that is gone needs none */
		json_decref(now);
		return;
	}
	json_t *id = json_sprintf("sluice-ask-%llu", (unsigned long long)++srv->questions);
	json_t *request =
	        id ? json_pack("{s:s, s:O, s:s, s:O}", "jsonrpc", "2.0", "id", id, "method",
	                       "elicitation/create", "params", mcp_elicit_params(w->question))
	           : NULL;
	if (!request) {
		json_decref(id);
		json_t *a = mcp_elicit_answer_response(&srv->approved, w->question, NULL, NULL);
		(void)mcp_worker_answer(w, a);
		json_decref(a);
		return;
	}
	w->question_id = id;
	w->question_deadline = monotonic_ms() + srv->question_wait_ms;
	send(srv, request);
}

/* The client answered one of the server's requests: a question's answer. */
static void on_response(struct mcp_server *srv, const struct rpc_message *msg)
{
	for (size_t i = 0; i < srv->n_workers; i++) {
		struct mcp_worker *w = &srv->workers[i];
		if (!w->question_id || !json_equal(w->question_id, msg->id))
			continue;
		json_t *a = mcp_elicit_answer_response(&srv->approved, w->question,
		                                       json_object_get(msg->doc, "result"),
		                                       json_object_get(msg->doc, "error"));
		if (a)
			(void)mcp_worker_answer(w, a);
		json_decref(a);
		return;
	}
	/* an answer to a question withdrawn meanwhile: nobody waits for it */
}

/* Questions nobody answered in time go unanswered; returns the time until
 * the next one runs out (-1: none waits). */
static int expire_questions(struct mcp_server *srv)
{
	uint64_t now = monotonic_ms(), next = UINT64_MAX;
	for (size_t i = 0; i < srv->n_workers; i++) {
		struct mcp_worker *w = &srv->workers[i];
		if (!w->question_id)
			continue;
		if (w->question_deadline > now) {
			next = w->question_deadline < next ? w->question_deadline : next;
			continue;
		}
		json_t *q = json_incref(w->question);
		withdraw_question(srv, w, "no answer in time");
		json_t *a = mcp_elicit_answer_timeout(srv->question_wait_ms);
		w->question = q; /* mcp_worker_answer() forgets it */
		if (a)
			(void)mcp_worker_answer(w, a);
		json_decref(a);
	}
	if (next == UINT64_MAX)
		return -1;
	return next - now > INT32_MAX ? INT32_MAX : (int)(next - now);
}

static void on_request(struct mcp_server *srv, const struct rpc_message *msg)
{
	const struct method *m = NULL;
	for (size_t i = 0; i < ELEMENTSOF(methods) && !m; i++)
		if (strcmp(methods[i].name, msg->method) == 0)
			m = &methods[i];
	if (!m) {
		send(srv, rpc_error(msg->id, RPC_METHOD_NOT_FOUND, "Method not found"));
		return;
	}
	if (msg->params && !json_is_object(msg->params)) {
		send(srv, rpc_error(msg->id, RPC_INVALID_PARAMS, "'params' must be an object"));
		return;
	}
	json_t *result = NULL;
	int r = m->fn(srv, msg, &result);
	if (r == 1)
		return;
	if (r < 0)
		send(srv, rpc_error(msg->id, r, srv->error));
	else if (!result)
		send(srv, rpc_error(msg->id, RPC_INTERNAL_ERROR, "out of memory"));
	else
		send(srv, rpc_result(msg->id, result));
}

static void on_line(void *userdata, const char *text, size_t len, bool overlong)
{
	struct mcp_server *srv = userdata;
	if (overlong) {
		send(srv, rpc_error(NULL, RPC_PARSE_ERROR, "message too long"));
		return;
	}
	struct rpc_message msg;
	rpc_parse(text, len, &msg);
	if (msg.kind == RPC_ERROR)
		send(srv, rpc_error(msg.id, msg.error_code, msg.error_message));
	else if (msg.kind == RPC_REQUEST)
		on_request(srv, &msg);
	else if (msg.kind == RPC_NOTIFICATION && strcmp(msg.method, "notifications/cancelled") == 0)
		on_cancelled(srv, &msg);
	else if (msg.kind == RPC_RESPONSE)
		on_response(srv, &msg);
	/* Other notifications (initialized, ...) and responses need nothing. */
	rpc_message_done(&msg);
}

/* The answer goes out as soon as the result line is in, before the worker
 * has finished exiting; a worker that ends without one failed. */
static void answer_worker(struct mcp_server *srv, struct mcp_worker *w)
{
	if (w->answered)
		return;
	w->answered = true;
	if (w->response && !w->cancelled)
		send_line(srv, w->response, w->response_len);
	else if (!w->cancelled)
		send(srv, rpc_error(w->id, RPC_INTERNAL_ERROR, "the call failed inside sluice"));
	prepare_slot(srv); /* the next call's, now that this one is over */
}

struct worker_ref {
	struct mcp_server *srv;
	struct mcp_worker *w;
};

static void on_worker_line(void *userdata, const char *text, size_t len, bool overlong)
{
	struct worker_ref *ref = userdata;
	struct mcp_worker *w = ref->w;
	if (overlong)
		return;
	json_t *progress = mcp_worker_line(w, text, len);
	if (w->question && !w->question_id && !w->cancelled)
		on_question(ref->srv, w);
	if (w->response)
		answer_worker(ref->srv, w);
	if (!progress)
		return;
	json_t *ms = json_object_get(progress, "progress");
	json_int_t bytes = json_integer_value(json_object_get(progress, "bytes"));
	char message[96];
	snprintf(message, sizeof(message), "running for %llds, %lld bytes of output",
	         (long long)json_integer_value(ms) / 1000, (long long)bytes);
	if (w->progress_token && !w->cancelled && json_is_integer(ms))
		send(ref->srv,
		     rpc_notification("notifications/progress",
		                      json_pack("{s:O, s:I, s:s}", "progressToken",
		                                w->progress_token, "progress",
		                                json_integer_value(ms), "message", message)));
	json_decref(progress);
}

/* The worker is gone: answer if not yet, and forget it. */
static void finish_worker(struct mcp_server *srv, size_t i)
{
	withdraw_question(srv, &srv->workers[i], "the tool call ended");
	answer_worker(srv, &srv->workers[i]);
	mcp_worker_done(&srv->workers[i]);
	srv->workers[i] = srv->workers[--srv->n_workers];
}

/* The worker's progress lines become notifications; its end, the answer. */
static void read_worker(struct mcp_server *srv, size_t i)
{
	struct mcp_worker *w = &srv->workers[i];
	char buf[MCP_READ_CHUNK];
	ssize_t n = read(w->result_fd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		finish_worker(srv, i);
		return;
	}
	struct worker_ref ref = { srv, w };
	if (rpc_lines_feed(&w->lines, buf, (size_t)n, on_worker_line, &ref) < 0)
		log_error("mcp: out of memory reading a result");
}

static void read_input(struct mcp_server *srv)
{
	char buf[MCP_READ_CHUNK];
	ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		srv->eof = true;
		return;
	}
	if (rpc_lines_feed(&srv->input, buf, (size_t)n, on_line, srv) < 0)
		send(srv, rpc_error(NULL, RPC_INTERNAL_ERROR, "out of memory"));
}

int mcp_server_serve(struct mcp_server *srv)
{
	prepare_slot(srv);
	while (!srv->eof || srv->n_workers > 0) {
		if (srv->eof)
			release_slot(srv);
		if (srv->eof)
			for (size_t i = 0; i < srv->n_workers; i++)
				if (srv->workers[i].cancel_fd >= 0)
					mcp_worker_cancel(&srv->workers[i]);
		struct pollfd fds[MCP_WORKERS_MAX + 1];
		nfds_t n = 0;
		for (size_t i = 0; i < srv->n_workers; i++)
			fds[n++] = (struct pollfd){ .fd = srv->workers[i].result_fd,
				                    .events = POLLIN };
		if (!srv->eof)
			fds[n++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		if (poll(fds, n, expire_questions(srv)) < 0) {
			if (errno == EINTR)
				continue;
			return neg_errno();
		}
		/* Workers first, from the end, since finishing one moves the last. */
		for (size_t i = srv->n_workers; i > 0; i--)
			if (fds[i - 1].revents)
				read_worker(srv, i - 1);
		if (!srv->eof && fds[n - 1].revents)
			read_input(srv);
	}
	release_slot(srv);
	return 0;
}

/* Feeding on_unstarted: the line buffer and why the server did not start. */
struct unstarted {
	struct rpc_lines lines;
	const char *why;
	bool eof;
};

static void on_unstarted_line(void *userdata, const char *text, size_t len, bool overlong)
{
	struct unstarted *u = userdata;
	struct rpc_message msg;
	if (overlong) {
		(void)rpc_send(STDOUT_FILENO, rpc_error(NULL, RPC_PARSE_ERROR, "message too long"));
		return;
	}
	rpc_parse(text, len, &msg);
	json_t *answer = msg.kind == RPC_ERROR
	                         ? rpc_error(msg.id, msg.error_code, msg.error_message)
	                 : msg.kind == RPC_REQUEST ? rpc_error(msg.id, RPC_INTERNAL_ERROR, u->why)
	                                           : NULL;
	if (answer && rpc_send(STDOUT_FILENO, answer) < 0)
		u->eof = true;
	rpc_message_done(&msg);
}

void mcp_server_refuse(const char *context, const struct sluice_error *err)
{
	char why[sizeof(err->detail) + 128];
	snprintf(why, sizeof(why), "sluice mcp could not start: %s: %s", context, err->detail);
	struct unstarted u = { .why = why };
	char buf[MCP_READ_CHUNK];
	while (!u.eof) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || rpc_lines_feed(&u.lines, buf, (size_t)n, on_unstarted_line, &u) < 0)
			break;
	}
	rpc_lines_done(&u.lines);
}

int mcp_server_new(const struct mcp_server_options *opt, struct mcp_server **ret,
                   const char **ret_what, struct sluice_error *reterr)
{
	_cleanup_(mcp_server_freep) struct mcp_server *srv = calloc(1, sizeof(*srv));
	if (!srv) {
		*ret_what = "out of memory";
		return sluice_error_set(reterr, -ENOMEM, "out of memory");
	}
	srv->opt = *opt;
	srv->opt.root = NULL;
	/* The plugins are loaded here, before any worker is forked (and again
	 * when a configuration file changes: reload_if_changed()). */
	int r = open_policies(srv, &srv->ctx.settings, &srv->ctx.policies, reterr);
	if (r < 0) {
		*ret_what = "config_error";
		return r;
	}
	_cleanup_free_ char *dir = NULL;
	r = workdir_resolve(opt->root, NULL, &srv->root, &dir, reterr);
	if (r < 0) {
		*ret_what = "the workspace";
		return r;
	}
	srv->ctx.root = srv->root;
	srv->ctx.structured = true;
	srv->question_wait_ms = broker_context_config(srv->ctx.policies)->approval_timeout;
	*ret = TAKE_PTR(srv);
	return 0;
}

struct mcp_server *mcp_server_free(struct mcp_server *srv)
{
	if (!srv)
		return NULL;
	release_slot(srv);
	broker_context_free(srv->ctx.policies);
	rpc_lines_done(&srv->input);
	mcp_session_approvals_done(&srv->approved);
	free(srv->root);
	free(srv);
	return NULL;
}
