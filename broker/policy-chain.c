/* SPDX-License-Identifier: MIT */
/*
 * Running the plugins where a crash is observable (OpenSSH's monitor): one
 * child per request opens, checks and closes every plugin and reports typed
 * messages; the parent reads them against a deadline, checks each against
 * the table and the expected order, and turns any misbehaviour into a deny
 * naming the plugin that was running. Nothing here ever allows by default.
 * Not for: loading (plugin-loader.c), the accessors (policy-host.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "policy-chain.h"
#include "policy-host.h"
#include "policy-msg.h"

/* Everything one child may send, in bytes. */
#define CHAIN_MAX_BYTES (4 * 1024 * 1024)

struct policy_chain {
	const struct broker_config *cfg;
	struct loaded_plugin *plugins;
	size_t n;
	uint64_t timeout_ms;
};

static int validate(struct policy_chain *c, struct sluice_error *reterr);

int policy_chain_new(const struct broker_config *cfg, struct policy_chain **ret,
                     struct sluice_error *reterr)
{
	_cleanup_(policy_chain_freep) struct policy_chain *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cfg = cfg;
	c->timeout_ms = cfg->broker_plugin_timeout;
	c->plugins = calloc(cfg->n_plugins ? cfg->n_plugins : 1, sizeof(*c->plugins));
	_cleanup_free_ char *dir = plugin_loader_dir();
	if (!c->plugins || !dir)
		return -ENOMEM;
	for (size_t i = 0; i < cfg->n_plugins; i++) {
		if (!cfg->plugins[i].enabled)
			continue;
		int r = plugin_load(&cfg->plugins[i], dir, &c->plugins[c->n], reterr);
		if (r < 0)
			return r;
		c->n++;
	}
	int r = validate(c, reterr);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(c);
	return 0;
}

struct policy_chain *policy_chain_free(struct policy_chain *c)
{
	if (!c)
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		plugin_unload(&c->plugins[i]);
	free(c->plugins);
	free(c);
	return NULL;
}

size_t policy_chain_count(const struct policy_chain *c)
{
	return c->n;
}

const struct loaded_plugin *policy_chain_get(const struct policy_chain *c, size_t i)
{
	return i < c->n ? &c->plugins[i] : NULL;
}

/* ------------------------------------------------------------ the child */

static const char *conf_where(const struct loaded_plugin *p)
{
	return p->where;
}

/* The child: every plugin in order (m NULL: open and close only, to
 * validate the settings); never returns. */
static _Noreturn void run_child(struct policy_chain *c, const struct command_model *m, int fd)
{
	/* A plugin must not write into the broker's output, nor reach any of
	 * its descriptors: the pipe becomes fd 3 and everything above closes. */
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		(void)dup2(null, STDIN_FILENO);
		(void)dup2(null, STDOUT_FILENO);
	}
	if (fd != 3) {
		if (dup2(fd, 3) < 0)
			_exit(1);
		fd = 3;
	}
	(void)close_range(4, ~0U, 0);
	/* A crash must end the child with its signal, so that the parent can
	 * say so (a sanitizer's handler would turn it into an exit status). */
	static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	for (size_t i = 0; i < ELEMENTSOF(crash_signals); i++)
		(void)signal(crash_signals[i], SIG_DFL);
	const struct sluice_host *host = policy_host();
	for (size_t i = 0; i < c->n; i++) {
		const struct loaded_plugin *p = &c->plugins[i];
		uint32_t idx = (uint32_t)i;
		if (policy_msg_send(fd, POLICY_MSG_BEGIN, idx, POLICY_PHASE_OPEN, NULL, 0) < 0)
			_exit(1);
		struct sluice_settings settings = { .conf = p->conf, .where = conf_where(p) };
		void *state = NULL;
		int r = p->desc.open(host, &settings, &state);
		if (r < 0) {
			const char *text[] = { settings.error[0] ? settings.error : strerror(-r) };
			int32_t err = r < -4095 ? -EINVAL : r;
			if (policy_msg_send(fd, POLICY_MSG_OPEN_FAILED, idx, err, text, 1) < 0)
				_exit(1);
			continue;
		}
		if (!m) { /* validating: open and close only */
			if (p->desc.close)
				p->desc.close(state);
			continue;
		}
		if (policy_msg_send(fd, POLICY_MSG_BEGIN, idx, POLICY_PHASE_CHECK, NULL, 0) < 0)
			_exit(1);
		struct sluice_verdict v = { .fd = fd, .plugin = idx };
		r = p->desc.check(state, policy_host_command(m), &v);
		/* the reasons' verdicts count even past the cap on reasons sent */
		if (r >= SLUICE_ALLOW && r <= SLUICE_DENY && v.max > r)
			r = v.max;
		if (v.send_error < 0)
			_exit(1);
		if (policy_msg_send(fd, POLICY_MSG_RESULT, idx, r, NULL, 0) < 0)
			_exit(1);
		if (p->desc.close)
			p->desc.close(state);
	}
	if (policy_msg_send(fd, POLICY_MSG_DONE, 0, 0, NULL, 0) < 0)
		_exit(1);
	_exit(0);
}

/* ------------------------------------------------------------ the parent */

struct reading {
	struct policy_chain *chain;
	struct verdict *v;
	char *rewrite;       /* the first proposal (owned) */
	size_t rewrite_from; /* the plugin that made it */
	size_t failed;       /* plugins that failed */
	int current_max;     /* highest verdict among the current plugin's reasons */
	size_t current;      /* plugin the child last began */
	int phase;           /* POLICY_PHASE_* of that plugin, -1 before any */
	bool result_seen;    /* RESULT of the current plugin arrived */
	bool done;
	char fault[512]; /* why the child's output was refused */
};

static const char *plugin_name(const struct reading *st)
{
	return st->current < st->chain->n ? st->chain->plugins[st->current].conf->name : "(chain)";
}

static int fault(struct reading *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fault(struct reading *st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	(void)vsnprintf(st->fault, sizeof(st->fault), fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/* One message, checked against the table and the order of the protocol. */
static int handle(struct reading *st, const struct policy_msg_header *h, const char *payload)
{
	const char *s[2] = { NULL, NULL };
	if (policy_msg_check(h, payload, s, 2) < 0)
		return fault(st, "malformed message (type %u)", h->type);
	if (st->done)
		return fault(st, "message after the end");
	size_t n = st->chain->n;
	if (h->type == POLICY_MSG_DONE) {
		if (n &&
		    (st->current != n - 1 || (st->phase == POLICY_PHASE_CHECK && !st->result_seen)))
			return fault(st, "ended early");
		st->done = true;
		return 0;
	}
	if (h->type == POLICY_MSG_BEGIN) {
		bool next = st->phase < 0 ? h->plugin == 0
		                          : (h->plugin == st->current + 1 &&
		                             (st->phase == POLICY_PHASE_OPEN || st->result_seen));
		bool same = st->phase == POLICY_PHASE_OPEN && h->plugin == st->current &&
		            h->value == POLICY_PHASE_CHECK;
		if (h->plugin >= n || (!(next && h->value == POLICY_PHASE_OPEN) && !same))
			return fault(st, "out of order");
		if (h->plugin != st->current || st->phase < 0)
			st->current_max = SLUICE_ALLOW;
		st->current = h->plugin;
		st->phase = h->value;
		st->result_seen = false;
		return 0;
	}
	if (h->plugin != st->current || st->phase < 0)
		return fault(st, "message for the wrong plugin");
	const char *name = plugin_name(st);
	char msg[1400];
	switch (h->type) {
	case POLICY_MSG_OPEN_FAILED:
		if (st->phase != POLICY_PHASE_OPEN)
			return fault(st, "out of order");
		snprintf(msg, sizeof(msg), "plugin '%s' could not start: %s", name, s[0]);
		st->failed++;
		return verdict_add(st->v, VERDICT_DENY, name, msg,
		                   "the administrator must fix the plugin's configuration");
	case POLICY_MSG_REASON:
		if (st->phase != POLICY_PHASE_CHECK || st->result_seen)
			return fault(st, "out of order");
		if (h->value > st->current_max)
			st->current_max = h->value;
		return verdict_add(st->v, (enum verdict_kind)h->value, name, s[0],
		                   s[1][0] ? s[1] : NULL);
	case POLICY_MSG_REWRITE:
		if (st->phase != POLICY_PHASE_CHECK || st->result_seen)
			return fault(st, "out of order");
		if (st->rewrite)
			return 0; /* the first proposal is applied; the rest see it next round */
		st->rewrite = strdup(s[0]);
		st->rewrite_from = st->current;
		return st->rewrite ? 0 : -ENOMEM;
	case POLICY_MSG_RESULT:
		if (st->phase != POLICY_PHASE_CHECK || st->result_seen)
			return fault(st, "out of order");
		st->result_seen = true;
		if (h->value < 0) {
			snprintf(msg, sizeof(msg), "plugin '%s' failed while checking: %s", name,
			         h->value >= -4095 ? strerror(-h->value) : "unknown error");
			st->failed++;
			return verdict_add(st->v, VERDICT_DENY, name, msg, NULL);
		}
		if (h->value > SLUICE_DENY)
			return fault(st, "invalid verdict %d", h->value);
		if (h->value > st->current_max) {
			/* a verdict above what its reasons said still gets a reason */
			snprintf(msg, sizeof(msg), "%s by plugin '%s'",
			         h->value == SLUICE_DENY ? "denied" : "approval required", name);
			return verdict_add(st->v, (enum verdict_kind)h->value, name, msg, NULL);
		}
		return 0;
	}
	return fault(st, "unknown message");
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Read and handle messages until end of file, the deadline or a fault.
 * Returns 0 at end of file, -ETIMEDOUT, -EBADMSG (st->fault says why),
 * -ENOMEM or -errno. */
static int read_messages(struct reading *st, int fd, uint64_t deadline)
{
	size_t cap = 64 * 1024, len = 0, total = 0;
	_cleanup_free_ char *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		uint64_t now = now_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t wait = deadline - now;
		int k = poll(&pfd, 1, wait > INT32_MAX ? INT32_MAX : (int)wait);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			return -ETIMEDOUT;
		if (len == cap) {
			char *p = realloc(buf, cap * 2);
			if (!p)
				return -ENOMEM;
			buf = p;
			cap *= 2;
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return len ? fault(st, "truncated message") : 0;
		len += (size_t)n;
		total += (size_t)n;
		if (total > CHAIN_MAX_BYTES)
			return fault(st, "more than %d bytes of messages", CHAIN_MAX_BYTES);
		size_t off = 0;
		while (len - off >= sizeof(struct policy_msg_header)) {
			struct policy_msg_header h;
			memcpy(&h, buf + off, sizeof(h));
			if (h.len > POLICY_MSG_MAX_PAYLOAD)
				return fault(st, "oversized message");
			if (len - off - sizeof(h) < h.len)
				break;
			int r = handle(st, &h, buf + off + sizeof(h));
			if (r < 0)
				return r;
			off += sizeof(h) + h.len;
		}
		memmove(buf, buf + off, len - off);
		len -= off;
	}
}

static int wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* Fork the child, read its messages, and fail closed on anything else.
 * Returns the count of failed plugins, or -errno. */
static int run_chain(struct policy_chain *c, const struct command_model *m, struct reading *st)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	fflush(NULL); /* the child must not flush our buffers a second time */
	pid_t pid = fork();
	if (pid < 0) {
		int r = -errno;
		safe_close(fds[0]);
		safe_close(fds[1]);
		return r;
	}
	if (pid == 0) {
		safe_close(fds[0]);
		run_child(c, m, fds[1]);
	}
	safe_close(fds[1]);
	uint64_t timeout = c->timeout_ms ? c->timeout_ms : 1;
	int r = read_messages(st, fds[0], now_ms() + timeout);
	safe_close(fds[0]);
	if (r < 0 || !st->done)
		(void)kill(pid, SIGKILL); /* a child we no longer believe gets no more time */
	int status = 0;
	int w = wait_child(pid, &status);
	if (r == -ENOMEM)
		return r;
	if (r == 0 && st->done && w == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return (int)st->failed;

	/* Fail closed, naming the plugin that was running. */
	const char *name = plugin_name(st);
	const char *phase = st->phase == POLICY_PHASE_OPEN ? "starting" : "checking";
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

/* Open and close every plugin once in a child, so that a setting only the
 * plugin can judge (a regular expression, a choice) is a configuration
 * error before any request, not a refusal of every request after. */
static int validate(struct policy_chain *c, struct sluice_error *reterr)
{
	if (c->n == 0)
		return 0;
	struct verdict v;
	verdict_init(&v);
	struct reading st = { .chain = c, .v = &v, .phase = -1 };
	int r = run_chain(c, NULL, &st);
	if (r > 0)
		r = sluice_error_set(reterr, -EINVAL, "%s",
		                     v.n_reasons ? v.reasons[0].message
		                                 : "a plugin failed to start");
	else if (r < 0)
		r = sluice_error_set(reterr, r, "starting the policy plugins");
	free(st.rewrite);
	verdict_done(&v);
	return r;
}

int policy_chain_check(struct policy_chain *c, const struct command_model *m, struct verdict *v,
                       char **ret_rewrite, char **ret_rewrite_plugin)
{
	if (ret_rewrite)
		*ret_rewrite = NULL;
	if (ret_rewrite_plugin)
		*ret_rewrite_plugin = NULL;
	if (c->n == 0)
		return 0;
	struct reading st = { .chain = c, .v = v, .phase = -1 };
	int r = run_chain(c, m, &st);
	if (r >= 0 && st.rewrite && ret_rewrite_plugin) {
		*ret_rewrite_plugin = strdup(c->plugins[st.rewrite_from].conf->name);
		if (!*ret_rewrite_plugin)
			r = -ENOMEM;
	}
	if (r >= 0 && ret_rewrite)
		*ret_rewrite = TAKE_PTR(st.rewrite);
	free(st.rewrite);
	return r;
}

int policy_chain_decide(struct policy_chain *c, struct command_model_parser *parser,
                        const struct command_model *m, struct verdict *v, char **ret_command)
{
	*ret_command = NULL;
	int r = verdict_from_model(v, m);
	if (r < 0)
		return r;
	_cleanup_free_ char *rewrite = NULL, *by = NULL;
	r = policy_chain_check(c, m, v, &rewrite, &by);
	if (r < 0 || !rewrite)
		return r;
	/* Decide the rewrite from scratch: it is what would run. */
	struct sluice_error err = { 0 };
	_cleanup_(command_model_freep) struct command_model *m2 = NULL;
	verdict_done(v);
	verdict_init(v);
	r = command_model_parse(parser, rewrite, strlen(rewrite), NULL, &m2, &err);
	if (r < 0) {
		char msg[VERDICT_MAX_TEXT];
		snprintf(msg, sizeof(msg),
		         "plugin '%s' proposed a rewrite that cannot be parsed: %s", by,
		         err.detail);
		return verdict_add(v, VERDICT_DENY, by, msg, NULL) < 0 ? -ENOMEM : 1;
	}
	r = verdict_from_model(v, m2);
	if (r < 0)
		return r;
	_cleanup_free_ char *again = NULL;
	r = policy_chain_check(c, m2, v, &again, NULL);
	if (r < 0)
		return r;
	if (again && strcmp(again, rewrite) != 0) {
		char msg[VERDICT_MAX_TEXT];
		snprintf(msg, sizeof(msg), "the command was rewritten twice (by '%s', then again)",
		         by);
		if (verdict_add(v, VERDICT_DENY, by, msg, NULL) < 0)
			return -ENOMEM;
		return r + 1;
	}
	*ret_command = TAKE_PTR(rewrite);
	return r;
}
