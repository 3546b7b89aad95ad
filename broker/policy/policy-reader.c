/* SPDX-License-Identifier: MIT */
/*
 * Reading a policy child's messages (see policy-reader.h): the legal order
 * of the protocol is the table below, one row per message a state accepts;
 * each row's action turns the message into reasons of the verdict.
 * Not for: the child's side (policy-child.c) or forking it (policy-chain.c).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "monotonic.h"
#include "policy/policy-msg.h"
#include "policy/policy-reader.h"

const char *reading_plugin_name(const struct reading *st)
{
	return st->current < st->n ? st->plugins[st->current].conf->name : "(chain)";
}

int reading_fault(struct reading *st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	(void)vsnprintf(st->fault, sizeof(st->fault), fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

bool reading_progress(struct reading *st, uint64_t at, size_t model)
{
	size_t plugin;
	enum policy_phase phase;
	if (!policy_progress_in(at, model, &plugin, &phase) || plugin >= st->n)
		return false;
	st->current = plugin;
	st->state = phase == POLICY_PHASE_CHECK ? READING_CHECK : READING_OPEN;
	return true;
}

/* ------------------------------------------------------ what each says */

/* A message's strings (policy_msg_check() found them). */
typedef int (*message_action)(struct reading *st, const struct policy_msg_header *h,
                              const char *const *s);

static int on_begin_open(struct reading *st, const struct policy_msg_header *h,
                         const char *const *s)
{
	(void)s;
	st->current = h->plugin;
	st->current_max = SLUICE_ALLOW;
	return 0;
}

static int on_done(struct reading *st, const struct policy_msg_header *h, const char *const *s)
{
	(void)h;
	(void)s;
	st->done = true;
	return 0;
}

/* The first plugin that could not start is what a lazy chain reports. */
static void keep_start_error(struct reading *st, const char *text)
{
	if (!st->start_error[0])
		snprintf(st->start_error, sizeof(st->start_error), "%s", text);
}

static int on_open_failed(struct reading *st, const struct policy_msg_header *h,
                          const char *const *s)
{
	(void)h;
	const char *name = reading_plugin_name(st);
	char msg[1400];
	snprintf(msg, sizeof(msg), "plugin '%s' could not start: %s", name, s[0]);
	keep_start_error(st, msg);
	st->failed++;
	return verdict_add(st->v, VERDICT_DENY, name, msg,
	                   "the administrator must fix the plugin's configuration");
}

static int on_load_failed(struct reading *st, const struct policy_msg_header *h,
                          const char *const *s)
{
	(void)h;
	if (!st->lazy) /* only a child that loads the plugins may fail to */
		return reading_fault(st, "out of order");
	/* the loader's text names the plugin and its section already */
	keep_start_error(st, s[0]);
	st->failed++;
	return verdict_add(st->v, VERDICT_DENY, reading_plugin_name(st), s[0],
	                   "the administrator must fix the plugin's configuration");
}

static int on_reason(struct reading *st, const struct policy_msg_header *h, const char *const *s)
{
	if (h->value > st->current_max)
		st->current_max = h->value;
	return verdict_add(st->v, (enum verdict_kind)h->value, reading_plugin_name(st), s[0],
	                   s[1][0] ? s[1] : NULL);
}

static int on_rewrite(struct reading *st, const struct policy_msg_header *h, const char *const *s)
{
	(void)h;
	if (st->rewrite)
		return 0; /* the first proposal is applied; the rest see it next round */
	st->rewrite = strdup(s[0]);
	st->rewrite_from = st->current;
	return st->rewrite ? 0 : -ENOMEM;
}

static int on_result(struct reading *st, const struct policy_msg_header *h, const char *const *s)
{
	(void)s;
	const char *name = reading_plugin_name(st);
	char msg[1400];
	if (h->value < 0) {
		snprintf(msg, sizeof(msg), "plugin '%s' failed while checking: %s", name,
		         h->value >= -4095 ? strerror(-h->value) : "unknown error");
		st->failed++;
		return verdict_add(st->v, VERDICT_DENY, name, msg, NULL);
	}
	if (h->value > SLUICE_DENY)
		return reading_fault(st, "invalid verdict %d", h->value);
	if (h->value > st->current_max) {
		/* a verdict above what its reasons said still gets a reason */
		snprintf(msg, sizeof(msg), "%s by plugin '%s'",
		         h->value == SLUICE_DENY ? "denied" : "approval required", name);
		return verdict_add(st->v, (enum verdict_kind)h->value, name, msg, NULL);
	}
	return 0;
}

/* ------------------------------------------------- the legal order */

/* A message as the table sees it: BEGIN's phase is part of what it is. */
enum reading_event {
	EVENT_BEGIN_OPEN,
	EVENT_BEGIN_CHECK,
	EVENT_OPEN_FAILED,
	EVENT_LOAD_FAILED,
	EVENT_REASON,
	EVENT_REWRITE,
	EVENT_RESULT,
	EVENT_DONE,
	EVENT_UNKNOWN,
};

/* Which plugin the message must name. */
enum plugin_rule {
	PLUGIN_NEXT,    /* the one after the current (the first at the start) */
	PLUGIN_CURRENT, /* the current one */
	PLUGIN_PAST_END /* none: the current one is the last (no plugins: at the start) */
};

struct transition {
	enum reading_state from;
	enum reading_event event;
	enum plugin_rule plugin;
	enum reading_state to;
	message_action action; /* NULL: nothing more */
};

/* Every message each state accepts; anything else is refused. The child
 * sends, per plugin: BEGIN(open), then OPEN_FAILED or LOAD_FAILED, or
 * BEGIN(check), REASON and REWRITE any number of times, RESULT; and DONE
 * after the last (validating a chain, it opens and closes each plugin
 * only: BEGIN(open) follows BEGIN(open)). */
static const struct transition transitions[] = {
	{ READING_START, EVENT_BEGIN_OPEN, PLUGIN_NEXT, READING_OPEN, on_begin_open },
	{ READING_START, EVENT_DONE, PLUGIN_PAST_END, READING_START, on_done },
	{ READING_OPEN, EVENT_OPEN_FAILED, PLUGIN_CURRENT, READING_OPEN, on_open_failed },
	{ READING_OPEN, EVENT_LOAD_FAILED, PLUGIN_CURRENT, READING_OPEN, on_load_failed },
	{ READING_OPEN, EVENT_BEGIN_CHECK, PLUGIN_CURRENT, READING_CHECK, NULL },
	{ READING_OPEN, EVENT_BEGIN_OPEN, PLUGIN_NEXT, READING_OPEN, on_begin_open },
	{ READING_OPEN, EVENT_DONE, PLUGIN_PAST_END, READING_OPEN, on_done },
	{ READING_CHECK, EVENT_REASON, PLUGIN_CURRENT, READING_CHECK, on_reason },
	{ READING_CHECK, EVENT_REWRITE, PLUGIN_CURRENT, READING_CHECK, on_rewrite },
	{ READING_CHECK, EVENT_RESULT, PLUGIN_CURRENT, READING_CHECKED, on_result },
	{ READING_CHECKED, EVENT_BEGIN_OPEN, PLUGIN_NEXT, READING_OPEN, on_begin_open },
	{ READING_CHECKED, EVENT_DONE, PLUGIN_PAST_END, READING_CHECKED, on_done },
};

static enum reading_event event_of(const struct policy_msg_header *h)
{
	switch (h->type) {
	case POLICY_MSG_BEGIN:
		return h->value == POLICY_PHASE_OPEN    ? EVENT_BEGIN_OPEN
		       : h->value == POLICY_PHASE_CHECK ? EVENT_BEGIN_CHECK
		                                        : EVENT_UNKNOWN;
	case POLICY_MSG_OPEN_FAILED:
		return EVENT_OPEN_FAILED;
	case POLICY_MSG_LOAD_FAILED:
		return EVENT_LOAD_FAILED;
	case POLICY_MSG_REASON:
		return EVENT_REASON;
	case POLICY_MSG_REWRITE:
		return EVENT_REWRITE;
	case POLICY_MSG_RESULT:
		return EVENT_RESULT;
	case POLICY_MSG_DONE:
		return EVENT_DONE;
	}
	return EVENT_UNKNOWN;
}

static bool plugin_fits(const struct reading *st, enum plugin_rule rule, uint32_t plugin)
{
	bool started = st->state != READING_START;
	switch (rule) {
	case PLUGIN_NEXT:
		return plugin < st->n && plugin == (started ? st->current + 1 : 0);
	case PLUGIN_CURRENT:
		return started && plugin == st->current;
	case PLUGIN_PAST_END:
		return started ? st->current + 1 == st->n : st->n == 0;
	}
	return false;
}

static const struct transition *find_transition(enum reading_state from, enum reading_event event)
{
	for (size_t i = 0; i < ELEMENTSOF(transitions); i++)
		if (transitions[i].from == from && transitions[i].event == event)
			return &transitions[i];
	return NULL;
}

/* Why a message the table refuses is refused. */
static int refuse(struct reading *st, const struct policy_msg_header *h, enum reading_event event)
{
	if (event == EVENT_DONE)
		return reading_fault(st, "ended early");
	if (event == EVENT_BEGIN_OPEN || event == EVENT_BEGIN_CHECK || h->type == POLICY_MSG_BEGIN)
		return reading_fault(st, "out of order");
	if (!plugin_fits(st, PLUGIN_CURRENT, h->plugin))
		return reading_fault(st, "message for the wrong plugin");
	return reading_fault(st, "out of order");
}

/* One message, checked against the table and the order of the protocol. */
static int handle(struct reading *st, const struct policy_msg_header *h, const char *payload)
{
	const char *s[2] = { NULL, NULL };
	if (policy_msg_check(h, payload, s, 2) < 0)
		return reading_fault(st, "malformed message (type %u)", h->type);
	if (st->done)
		return reading_fault(st, "message after the end");
	enum reading_event event = event_of(h);
	const struct transition *t = find_transition(st->state, event);
	if (!t || !plugin_fits(st, t->plugin, h->plugin))
		return refuse(st, h, event);
	st->state = t->to;
	return t->action ? t->action(st, h, s) : 0;
}

/* ------------------------------------------------------- the reading */

/* Handle the complete messages in the buffer, up to and including DONE. */
static int handle_buffered(struct stream *in, struct reading *st)
{
	size_t off = 0;
	int r = 0;
	while (!st->done && in->len - off >= sizeof(struct policy_msg_header)) {
		struct policy_msg_header h;
		memcpy(&h, in->buf + off, sizeof(h));
		if (h.len > POLICY_MSG_MAX_PAYLOAD) {
			r = reading_fault(st, "oversized message");
			break;
		}
		if (in->len - off - sizeof(h) < h.len)
			break;
		st->bytes += sizeof(h) + h.len;
		if (st->bytes > CHAIN_MAX_BYTES) {
			r = reading_fault(st, "more than %d bytes of messages", CHAIN_MAX_BYTES);
			break;
		}
		r = handle(st, &h, in->buf + off + sizeof(h));
		if (r < 0)
			break;
		off += sizeof(h) + h.len;
	}
	memmove(in->buf, in->buf + off, in->len - off);
	in->len -= off;
	return r;
}

int reading_read(struct stream *in, struct reading *st, uint64_t deadline)
{
	for (;;) {
		int r = handle_buffered(in, st);
		if (r < 0)
			return r;
		if (st->done)
			return 0;
		if (in->eof)
			return in->len ? reading_fault(st, "truncated message") : 0;
		uint64_t now = monotonic_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		if (in->len == in->cap) {
			if (in->cap >= CHAIN_MAX_BYTES)
				return reading_fault(st, "more than %d bytes of messages",
				                     CHAIN_MAX_BYTES);
			char *p = realloc(in->buf, in->cap * 2);
			if (!p)
				return -ENOMEM;
			in->buf = p;
			in->cap *= 2;
		}
		/* the descriptor does not block: wait only when nothing is there */
		ssize_t n = read(in->fd, in->buf + in->len, in->cap - in->len);
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = in->fd, .events = POLLIN };
			uint64_t wait = deadline - now;
			int k = poll(&pfd, 1, wait > INT32_MAX ? INT32_MAX : (int)wait);
			if (k < 0 && errno != EINTR)
				return -errno;
			if (k == 0)
				return -ETIMEDOUT;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			in->eof = true;
		in->len += (size_t)n;
	}
}

int reading_fail_closed(struct reading *st, int r, int w, int status, uint64_t timeout_ms)
{
	const char *name = reading_plugin_name(st);
	const char *phase = st->state == READING_OPEN ? "starting" : "checking";
	uint64_t timeout = timeout_ms ? timeout_ms : 1;
	char msg[1024];
	if (r == -ETIMEDOUT)
		snprintf(msg, sizeof(msg), "plugin '%s' did not answer within %llums while %s",
		         name, (unsigned long long)timeout, phase);
	else if (r == -EBADMSG)
		snprintf(msg, sizeof(msg), "plugin '%s' sent an invalid reply while %s: %s", name,
		         phase, st->fault);
	else if (w == 0 && WIFSIGNALED(status))
		snprintf(msg, sizeof(msg), "plugin '%s' crashed (%s) while %s", name,
		         strsignal(WTERMSIG(status)), phase);
	else if (r < 0)
		snprintf(msg, sizeof(msg), "policy check failed while plugin '%s' was %s: %s", name,
		         phase, strerror(-r));
	else if (w == 0 && WIFEXITED(status))
		snprintf(msg, sizeof(msg), "plugin '%s' exited (status %d) while %s", name,
		         WEXITSTATUS(status), phase);
	else
		snprintf(msg, sizeof(msg), "plugin '%s' stopped answering while %s", name, phase);
	st->failed++;
	int a = verdict_add(st->v, VERDICT_DENY, name, msg,
	                    "the command was refused because a policy plugin failed; report this "
	                    "to the administrator");
	return a < 0 ? a : (int)st->failed;
}
