/* SPDX-License-Identifier: MIT */
/*
 * Running the plugins where a crash is observable (OpenSSH's monitor): one
 * child per request opens, checks and closes every plugin and reports typed
 * messages; the parent reads them against a deadline, checks each against
 * the table and the expected order, and turns any misbehaviour into a deny
 * naming the plugin that was running. Nothing here ever allows by default.
 * A lazy chain (one request per process) never loads plugin code into the
 * parent: its child loads each plugin, and a load failure is a message too.
 * A child forked ahead of its request (a server's) also opens the plugins
 * before the command arrives.
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
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "monotonic.h"
#include "policy/policy-chain.h"
#include "policy/policy-host.h"
#include "policy/policy-msg.h"

/* Everything one child may send, in bytes. */
#define CHAIN_MAX_BYTES (4 * 1024 * 1024)

struct policy_chain {
	const struct broker_config *cfg;
	struct loaded_plugin *plugins;
	size_t n;
	uint64_t timeout_ms;
	bool validated;    /* every plugin opened once: a later failure is a deny */
	char *dir;         /* lazy chains only (the child loads the plugins; here
	                    * only conf is set): the plugin directory; else NULL */
	int exiting_pidfd; /* a child that sent its last DONE and is exiting, or -1 */
	void (*while_checking)(void *userdata); /* once, in the parent, after a fork */
	void *while_checking_userdata;
	/* A child forked ahead (policy_chain_prepare), waiting for its command
	 * on ready_text_fd, its messages to come on ready_msg_fd; pid 0: none. */
	pid_t ready_pid;
	int ready_text_fd, ready_msg_fd;
	char *ready_sent; /* the text sent ahead (policy_chain_send_ahead), or NULL */
	size_t ready_sent_len;
	/* Shared with the child forked ahead: 1 + the plugin whose open it is
	 * in, 0 when in none (NULL: not mapped, nothing is known). */
	uint32_t *ready_opening;
	/* In a child of a lazy chain, once it loaded the plugins: why each
	 * that failed did (NULL: it loaded); NULL before. */
	char **child_load_errors;
	char start_error[1400]; /* why a plugin could not start (-ENOEXEC) */
};

static int validate(struct policy_chain *c, struct sluice_error *reterr);
static int wait_child(pid_t pid, int *status);

static int chain_load(const struct broker_config *cfg, bool validating, struct policy_chain **ret,
                      struct sluice_error *reterr)
{
	_cleanup_(policy_chain_freep) struct policy_chain *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cfg = cfg;
	c->exiting_pidfd = -1;
	c->ready_text_fd = c->ready_msg_fd = -1;
	c->timeout_ms = cfg->broker_plugin_timeout;
	c->plugins = calloc(cfg->n_plugins ? cfg->n_plugins : 1, sizeof(*c->plugins));
	_cleanup_free_ char *dir = plugin_loader_dir();
	if (!c->plugins || !dir)
		return -ENOMEM;
	for (size_t i = 0; i < cfg->n_plugins; i++) {
		if (!cfg->plugins[i].enabled)
			continue;
		if (!validating) {
			c->plugins[c->n++].conf = &cfg->plugins[i];
			continue;
		}
		int r = plugin_load(&cfg->plugins[i], dir, &c->plugins[c->n], reterr);
		if (r < 0)
			return r;
		c->n++;
	}
	if (validating) {
		int r = validate(c, reterr);
		if (r < 0)
			return r;
	} else {
		c->dir = TAKE_PTR(dir);
	}
	*ret = TAKE_PTR(c);
	return 0;
}

int policy_chain_new(const struct broker_config *cfg, struct policy_chain **ret,
                     struct sluice_error *reterr)
{
	return chain_load(cfg, true, ret, reterr);
}

int policy_chain_new_lazy(const struct broker_config *cfg, struct policy_chain **ret,
                          struct sluice_error *reterr)
{
	return chain_load(cfg, false, ret, reterr);
}

const char *policy_chain_start_error(const struct policy_chain *c)
{
	return c->start_error;
}

void policy_chain_while_checking(struct policy_chain *c, void (*fn)(void *userdata), void *userdata)
{
	c->while_checking = fn;
	c->while_checking_userdata = userdata;
}

void policy_chain_reap(struct policy_chain *c)
{
	if (!c || c->exiting_pidfd < 0)
		return;
	siginfo_t si;
	/* ECHILD: someone's waitpid(-1) reaped it already */
	while (waitid(P_PIDFD, (id_t)c->exiting_pidfd, &si, WEXITED) < 0 && errno == EINTR)
		;
	c->exiting_pidfd = safe_close(c->exiting_pidfd);
}

static void ready_withdraw(struct policy_chain *c);

struct policy_chain *policy_chain_free(struct policy_chain *c)
{
	if (!c)
		return NULL;
	ready_withdraw(c);
	policy_chain_reap(c);
	for (size_t i = 0; i < c->n; i++)
		plugin_unload(&c->plugins[i]);
	if (c->ready_opening)
		(void)munmap(c->ready_opening, sizeof(*c->ready_opening));
	free(c->plugins);
	free(c->dir);
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

/* A plugin's open: its settings (borrowed by the plugin until close), its
 * state and what open returned. */
struct opened {
	struct sluice_settings settings;
	void *state;
	int r;
};

static void open_plugin(const struct sluice_host *host, const struct loaded_plugin *p,
                        struct opened *o)
{
	*o = (struct opened){ .settings = { .conf = p->conf, .where = p->where } };
	o->r = p->desc.open(host, &o->settings, &o->state);
}

/* One model's messages: every plugin in order (m NULL: open and close only,
 * to validate the settings), then DONE; ahead: each loaded plugin already
 * opened (open_ahead), else NULL. The messages go out in batches, each
 * written before plugin code runs (its open or check), so that a crash
 * there is seen after that plugin's BEGIN. Returns 0, or -errno when the
 * pipe failed. */
static int child_model(struct policy_chain *c, const struct sluice_host *host,
                       const struct command_model *m, int fd, char *const *load_errors,
                       struct opened *ahead)
{
	struct policy_msg_batch out = { .fd = fd };
	for (size_t i = 0; i < c->n; i++) {
		const struct loaded_plugin *p = &c->plugins[i];
		uint32_t idx = (uint32_t)i;
		if (policy_msg_add(&out, POLICY_MSG_BEGIN, idx, POLICY_PHASE_OPEN, NULL, 0) < 0)
			return -EPIPE;
		if (!plugin_is_loaded(p)) { /* a lazy chain's plugin that did not load */
			const char *text[] = { load_errors && load_errors[i] ? load_errors[i]
				                                             : "not loaded" };
			if (policy_msg_add(&out, POLICY_MSG_LOAD_FAILED, idx, -ENOEXEC, text, 1) <
			    0)
				return -EPIPE;
			continue;
		}
		struct opened now;
		struct opened *o = ahead ? &ahead[i] : &now;
		if (!ahead) {
			if (policy_msg_flush(&out) < 0)
				return -EPIPE;
			open_plugin(host, p, o);
		}
		void *state = o->state;
		int r = o->r;
		if (r < 0) {
			const char *text[] = { o->settings.error[0] ? o->settings.error
				                                    : strerror(-r) };
			int32_t err = r < -4095 ? -EINVAL : r;
			if (policy_msg_add(&out, POLICY_MSG_OPEN_FAILED, idx, err, text, 1) < 0)
				return -EPIPE;
			continue;
		}
		if (!m) { /* validating: open and close only */
			if (p->desc.close)
				p->desc.close(state);
			continue;
		}
		/* the plugin's reasons are written as it gives them: after this */
		if (policy_msg_add(&out, POLICY_MSG_BEGIN, idx, POLICY_PHASE_CHECK, NULL, 0) < 0 ||
		    policy_msg_flush(&out) < 0)
			return -EPIPE;
		struct sluice_verdict v = { .fd = fd, .plugin = idx };
		r = p->desc.check(state, policy_host_command(m), &v);
		/* the reasons' verdicts count even past the cap on reasons sent */
		if (r >= SLUICE_ALLOW && r <= SLUICE_DENY && v.max > r)
			r = v.max;
		if (v.send_error < 0)
			return -EPIPE;
		/* A crash in close, before RESULT is written, still reads as a
		 * crash of this plugin while checking, as it would after it. */
		if (policy_msg_add(&out, POLICY_MSG_RESULT, idx, r, NULL, 0) < 0)
			return -EPIPE;
		if (p->desc.close)
			p->desc.close(state);
	}
	if (policy_msg_add(&out, POLICY_MSG_DONE, 0, 0, NULL, 0) < 0 || policy_msg_flush(&out) < 0)
		return -EPIPE;
	return 0;
}

/* In the child: a lazy chain's plugins are loaded here, never in the
 * parent, once; each failure is reported in its place in the messages. */
static void child_load(struct policy_chain *c)
{
	if (!c->dir || c->child_load_errors)
		return;
	c->child_load_errors = calloc(c->n ? c->n : 1, sizeof(*c->child_load_errors));
	if (!c->child_load_errors)
		_exit(1);
	for (size_t i = 0; i < c->n; i++) {
		struct sluice_error err = { 0 };
		const struct config_plugin *conf = c->plugins[i].conf;
		if (plugin_load(conf, c->dir, &c->plugins[i], &err) < 0) {
			c->plugins[i] = (struct loaded_plugin){ .conf = conf };
			c->child_load_errors[i] =
			        strdup(err.detail[0] ? err.detail : "cannot be loaded");
		}
	}
}

/* In a child, before any plugin code runs: a crash must end the child with
 * its signal, so that the parent can say so (a sanitizer's handler would
 * turn it into an exit status). */
static void crash_by_signal(void)
{
	static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	for (size_t i = 0; i < ELEMENTSOF(crash_signals); i++)
		(void)signal(crash_signals[i], SIG_DFL);
}

/* A child's models, each in turn, with the same messages as a child for
 * that model alone, on fd 3; ahead: as child_model(). Its descriptors are
 * isolated and its plugins loaded already (crash_by_signal(), child_load()):
 * nothing here closes what a plugin opened ahead. Never returns. */
static _Noreturn void child_check(struct policy_chain *c, const struct command_model *const *models,
                                  size_t n, struct opened *ahead)
{
	const struct sluice_host *host = policy_host();
	for (size_t k = 0; k < n; k++)
		if (child_model(c, host, models[k], 3, c->child_load_errors, ahead) < 0)
			_exit(1);
	_exit(0);
}

/* The child: each model in turn (child_check()); never returns. */
static _Noreturn void run_child(struct policy_chain *c, const struct command_model *const *models,
                                size_t n, int fd)
{
	/* A plugin must not write into the broker's output, nor reach any of
	 * its descriptors: the pipe becomes fd 3 and everything above closes. */
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		(void)dup2(null, STDIN_FILENO);
		(void)dup2(null, STDOUT_FILENO);
	}
	if (fd != 3 && dup2(fd, 3) < 0)
		_exit(1);
	(void)close_range(4, ~0U, 0);
	crash_by_signal();
	child_load(c);
	child_check(c, models, n, NULL);
}

/* Idle time before a request: pay now for the copy-on-write faults and
 * first-use costs a parse takes in a fresh fork, not while a request waits. */
static void warm_parser(struct command_model_parser *parser)
{
	struct command_model *m = NULL;
	struct sluice_error err = { 0 };
	if (command_model_parse(parser, "true", 4, NULL, &m, &err) == 0)
		command_model_free(m);
}

static void set_ready_opening(struct policy_chain *c, uint32_t value)
{
	if (c->ready_opening)
		__atomic_store_n(c->ready_opening, value, __ATOMIC_RELAXED);
}

/* In a ready child, before its command arrives: every loaded plugin opened
 * (open depends on the settings only, never on the command), each marked
 * in ready_opening while it opens: the child sends nothing until its
 * command arrives, so that is how the parent can name a plugin stuck or
 * crashed here. NULL when out of memory: then child_model() opens each as
 * usual. */
static struct opened *open_ahead(struct policy_chain *c, const struct sluice_host *host)
{
	struct opened *ahead = calloc(c->n ? c->n : 1, sizeof(*ahead));
	for (size_t i = 0; ahead && i < c->n; i++) {
		if (!plugin_is_loaded(&c->plugins[i]))
			continue;
		set_ready_opening(c, (uint32_t)i + 1);
		open_plugin(host, &c->plugins[i], &ahead[i]);
	}
	set_ready_opening(c, 0);
	return ahead;
}

/* A ready child that gets no command (its parent went without withdrawing
 * it): what open_ahead() opened is closed. */
static void close_ahead(struct policy_chain *c, struct opened *ahead)
{
	for (size_t i = 0; ahead && i < c->n; i++)
		if (plugin_is_loaded(&c->plugins[i]) && ahead[i].r >= 0 && c->plugins[i].desc.close)
			c->plugins[i].desc.close(ahead[i].state);
	free(ahead);
}

/* A child forked ahead of its request: its plugins open, then the command
 * text arrives on text_fd (to end of file; nothing: the parent is gone), is parsed
 * here as the parent parsed it, and checked as run_child() checks a model
 * (child_check(): the descriptors the plugins opened ahead stay open);
 * never returns. */
static _Noreturn void run_ready_child(struct policy_chain *c, struct command_model_parser *parser,
                                      int text_fd, int msg_fd)
{
	/* Only its two pipes: nothing of the parent's (a launcher's pipe) may
	 * be held open by a child that waits; and no plugin code, not even a
	 * constructor, may reach the broker's output. */
	int msg_hi = fcntl(msg_fd, F_DUPFD_CLOEXEC, 10);
	int text_hi = fcntl(text_fd, F_DUPFD_CLOEXEC, 10);
	if (msg_hi < 0 || text_hi < 0 || dup3(msg_hi, 3, O_CLOEXEC) < 0 ||
	    dup3(text_hi, 4, O_CLOEXEC) < 0)
		_exit(1);
	(void)close_range(5, ~0U, 0);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0)
		_exit(1);
	(void)close(null);
	/* what the request would wait for, done while nothing waits */
	crash_by_signal();
	child_load(c);
	struct opened *ahead = open_ahead(c, policy_host());
	warm_parser(parser);
	size_t cap =
	        c->cfg->broker_max_command_size ? c->cfg->broker_max_command_size : CHAIN_MAX_BYTES;
	char *text = malloc(cap + 1);
	ssize_t n = text ? read_full(4, text, cap + 1) : -ENOMEM;
	(void)close(4);
	if (n == 0) {
		close_ahead(c, ahead);
		_exit(0);
	}
	struct command_model *m = NULL;
	struct sluice_error err = { 0 };
	if (n < 0 || (size_t)n > cap ||
	    command_model_parse(parser, text, (size_t)n, NULL, &m, &err) < 0)
		_exit(1); /* the parent reads "stopped answering" and refuses */
	const struct command_model *models[] = { m };
	child_check(c, models, 1, ahead);
}

int policy_chain_prepare(struct policy_chain *c, struct command_model_parser *parser)
{
	if (c->n == 0 || c->ready_pid > 0)
		return 0;
	int text[2], msg[2];
	if (pipe2(text, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(msg, O_CLOEXEC) < 0) {
		int r = -errno;
		safe_close(text[0]);
		safe_close(text[1]);
		return r;
	}
	if (!c->ready_opening) { /* best effort: without it, a retry names the plugin */
		void *page = mmap(NULL, sizeof(*c->ready_opening), PROT_READ | PROT_WRITE,
		                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		c->ready_opening = page == MAP_FAILED ? NULL : page;
	}
	set_ready_opening(c, 0);
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		/* It may wait in a plugin's open for ever: it must not outlive
		 * the process that would read it. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(1);
		run_ready_child(c, parser, text[0], msg[1]);
	}
	int r = pid < 0 ? -errno : 0;
	safe_close(text[0]);
	safe_close(msg[1]);
	if (r < 0) {
		safe_close(text[1]);
		safe_close(msg[0]);
		return r;
	}
	c->ready_pid = pid;
	c->ready_text_fd = text[1];
	c->ready_msg_fd = msg[0];
	/* The child reads its command only once its plugins opened: a command
	 * the pipe cannot hold must not make this process wait for them with
	 * no deadline (ready_send() fails instead). Only this end: the child
	 * reads its own as usual. */
	int fl = fcntl(text[1], F_GETFL);
	if (fl < 0 || fcntl(text[1], F_SETFL, fl | O_NONBLOCK) < 0) {
		r = -errno;
		ready_withdraw(c);
		return r;
	}
	warm_parser(parser); /* this process parses the same command too */
	return 0;
}

/* A ready child no request used, or that could not take its command: it is
 * killed before it is waited for (it may still be in a plugin's open, for
 * as long as that takes; one sent a text must not check what nobody reads). */
static void ready_withdraw(struct policy_chain *c)
{
	free(c->ready_sent);
	c->ready_sent = NULL;
	if (c->ready_pid <= 0)
		return;
	(void)kill(c->ready_pid, SIGKILL);
	c->ready_text_fd = safe_close(c->ready_text_fd);
	c->ready_msg_fd = safe_close(c->ready_msg_fd);
	int status;
	(void)wait_child(c->ready_pid, &status);
	c->ready_pid = 0;
}

/* Write text to the ready child and close its pipe; -errno: -EAGAIN when
 * the pipe is full (the child reads only once its plugins opened), then the
 * caller withdraws the child. */
static int ready_send(struct policy_chain *c, const char *text, size_t len)
{
	/* A child that is gone must not take this process with it (SIGPIPE). */
	int r = write_full_nosigpipe(c->ready_text_fd, text, len);
	c->ready_text_fd = safe_close(c->ready_text_fd);
	return r;
}

void policy_chain_send_ahead(struct policy_chain *c, const char *text, size_t len)
{
	if (!c || c->ready_pid <= 0 || c->ready_text_fd < 0)
		return;
	c->ready_sent = malloc(len ? len : 1);
	if (!c->ready_sent)
		return;
	memcpy(c->ready_sent, text, len);
	c->ready_sent_len = len;
	if (ready_send(c, text, len) < 0)
		ready_withdraw(c);
}

/* Hand the ready child its command (the source of model), unless it was
 * sent ahead: its pid and message pipe, or -1 (none, it is gone, or what
 * it was sent is not model's: the caller forks as usual). */
static pid_t ready_take(struct policy_chain *c, const struct command_model *model, int *ret_fd)
{
	if (c->ready_pid <= 0)
		return -1;
	const char *text = model ? command_model_source(model) : NULL;
	size_t len = model ? command_model_source_len(model) : 0;
	bool sent = c->ready_sent != NULL;
	if (!model ||
	    (sent && (len != c->ready_sent_len || memcmp(text, c->ready_sent, len) != 0))) {
		ready_withdraw(c);
		return -1;
	}
	if (!sent && ready_send(c, text, len) < 0) {
		ready_withdraw(c);
		return -1;
	}
	free(c->ready_sent);
	c->ready_sent = NULL;
	pid_t pid = c->ready_pid;
	*ret_fd = TAKE_FD(c->ready_msg_fd);
	c->ready_pid = 0;
	return pid;
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
	size_t bytes;           /* of this model's messages */
	char fault[512];        /* why the child's output was refused */
	char start_error[1400]; /* the first plugin that could not start, or "" */
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
		if (n && (st->phase < 0 || st->current != n - 1 ||
		          (st->phase == POLICY_PHASE_CHECK && !st->result_seen)))
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
		if (!st->start_error[0])
			snprintf(st->start_error, sizeof(st->start_error), "%s", msg);
		st->failed++;
		return verdict_add(st->v, VERDICT_DENY, name, msg,
		                   "the administrator must fix the plugin's configuration");
	case POLICY_MSG_LOAD_FAILED:
		if (st->phase != POLICY_PHASE_OPEN || !st->chain->dir)
			return fault(st, "out of order");
		/* the loader's text names the plugin and its section already */
		if (!st->start_error[0])
			snprintf(st->start_error, sizeof(st->start_error), "%s", s[0]);
		st->failed++;
		return verdict_add(st->v, VERDICT_DENY, name, s[0],
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

/* The child's pipe, and what was read from it but not yet handled: bytes
 * past one model's DONE belong to the next model. */
struct stream {
	int fd;
	char *buf;
	size_t len, cap;
	bool eof;
};

/* Handle the complete messages in the buffer, up to and including DONE. */
static int handle_buffered(struct stream *in, struct reading *st)
{
	size_t off = 0;
	int r = 0;
	while (!st->done && in->len - off >= sizeof(struct policy_msg_header)) {
		struct policy_msg_header h;
		memcpy(&h, in->buf + off, sizeof(h));
		if (h.len > POLICY_MSG_MAX_PAYLOAD) {
			r = fault(st, "oversized message");
			break;
		}
		if (in->len - off - sizeof(h) < h.len)
			break;
		st->bytes += sizeof(h) + h.len;
		if (st->bytes > CHAIN_MAX_BYTES) {
			r = fault(st, "more than %d bytes of messages", CHAIN_MAX_BYTES);
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

/* Read and handle one model's messages until its DONE, the deadline or a
 * fault. Returns 0 (at DONE, or at end of file when st->done is still
 * false), -ETIMEDOUT, -EBADMSG (st->fault says why), -ENOMEM or -errno. */
static int read_messages(struct stream *in, struct reading *st, uint64_t deadline)
{
	for (;;) {
		int r = handle_buffered(in, st);
		if (r < 0)
			return r;
		if (st->done)
			return 0;
		if (in->eof)
			return in->len ? fault(st, "truncated message") : 0;
		uint64_t now = monotonic_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		if (in->len == in->cap) {
			if (in->cap >= CHAIN_MAX_BYTES)
				return fault(st, "more than %d bytes of messages", CHAIN_MAX_BYTES);
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

static int wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* The deny for a model whose child failed, naming the plugin that was
 * running. Returns st->failed, or -ENOMEM. */
static int fail_closed(struct policy_chain *c, struct reading *st, int r, int w, int status)
{
	const char *name = plugin_name(st);
	const char *phase = st->phase == POLICY_PHASE_OPEN ? "starting" : "checking";
	uint64_t timeout = c->timeout_ms ? c->timeout_ms : 1;
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

/* What one model's reading leaves in its item. */
static void finish_item(struct policy_chain *c, struct policy_check *it, struct reading *st,
                        int failed)
{
	it->failed = failed;
	it->rewrite = TAKE_PTR(st->rewrite);
	it->rewrite_plugin = it->rewrite ? c->plugins[st->rewrite_from].conf->name : NULL;
	if (st->start_error[0] && !c->start_error[0])
		snprintf(c->start_error, sizeof(c->start_error), "%s", st->start_error);
}

/* Fork one child for the models items[from..n), read each model's messages
 * in turn, and fail closed on anything else. Returns the index of the first
 * model not yet decided (n when all were: a failing model is decided, as a
 * deny), or -errno (pipe, fork, -ENOMEM). */
static ssize_t run_chain(struct policy_chain *c, struct policy_check *items,
                         const struct command_model *const *models, size_t from, size_t n)
{
	policy_chain_reap(c);
	int fds[2] = { -1, -1 };
	/* One model: the child forked ahead takes it, if there is one. */
	pid_t pid = n - from == 1 ? ready_take(c, models[from], &fds[0]) : -1;
	bool ready = pid > 0;
	if (n - from != 1)
		ready_withdraw(c);
	if (pid < 0) {
		if (pipe2(fds, O_CLOEXEC) < 0)
			return -errno;
		fflush(NULL); /* the child must not flush our buffers a second time */
		pid = fork();
		if (pid < 0) {
			int r = -errno;
			safe_close(fds[0]);
			safe_close(fds[1]);
			return r;
		}
		if (pid == 0) {
			safe_close(fds[0]);
			run_child(c, models + from, n - from, fds[1]);
		}
		safe_close(fds[1]);
	}
	if (c->while_checking) {
		void (*fn)(void *) = c->while_checking;
		c->while_checking = NULL;
		fn(c->while_checking_userdata);
	}
	struct stream in = { .fd = fds[0], .cap = 64 * 1024 };
	in.buf = malloc(in.cap);
	uint64_t timeout = c->timeout_ms ? c->timeout_ms : 1;
	size_t k = from;
	int r = in.buf ? 0 : -ENOMEM;
	int fl = fcntl(fds[0], F_GETFL);
	if (r == 0 && (fl < 0 || fcntl(fds[0], F_SETFL, fl | O_NONBLOCK) < 0))
		r = -errno;
	struct reading st = { .chain = c, .v = items[from].v, .phase = -1 };
	for (; r == 0 && k < n; k++) {
		st = (struct reading){ .chain = c, .v = items[k].v, .phase = -1 };
		r = read_messages(&in, &st, monotonic_ms() + timeout);
		if (r < 0 || !st.done)
			break;
		if (k + 1 < n)
			finish_item(c, &items[k], &st, (int)st.failed);
	}
	if (r == 0 && k == n && in.len) {
		k = n - 1; /* the last model's plugin sent it: that model fails */
		r = fault(&st, "message after the end");
	}
	safe_close(fds[0]);
	free(in.buf);
	int status = 0;
	if (ready && k == from && st.phase < 0 && r != -ENOMEM) {
		/* The child forked ahead failed before it began a plugin. Stuck
		 * or crashed in a plugin's open ahead: that plugin failed while
		 * starting (not opened a second time, for a second timeout).
		 * Elsewhere (loading the plugins, parsing its command): a child of
		 * its own checks the model again and names the plugin. */
		uint32_t opening =
		        c->ready_opening ? __atomic_load_n(c->ready_opening, __ATOMIC_RELAXED) : 0;
		if (opening == 0 || opening > c->n) {
			(void)kill(pid, SIGKILL);
			(void)wait_child(pid, &status);
			return (ssize_t)from;
		}
		st.current = opening - 1;
		st.phase = POLICY_PHASE_OPEN;
	}
	bool all_read = r == 0 && k == n; /* every model's DONE, nothing after */
	if (all_read) {
		/* The child's last act was DONE; its exit is not waited for here
		 * (policy_chain_reap), unless it cannot be waited for later. */
		int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (pidfd >= 0) {
			c->exiting_pidfd = pidfd;
			finish_item(c, &items[n - 1], &st, (int)st.failed);
			return (ssize_t)n;
		}
	} else {
		(void)kill(pid, SIGKILL); /* a child we no longer believe gets no more time */
	}
	int w = wait_child(pid, &status);
	if (r == -ENOMEM) {
		free(st.rewrite);
		return r;
	}
	if (all_read) {
		k = n - 1; /* the last model still waits on the exit status */
		if (w == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			finish_item(c, &items[k], &st, (int)st.failed);
			return (ssize_t)n;
		}
	}
	int failed = fail_closed(c, &st, r, w, status);
	free(st.rewrite); /* a failed model's rewrite is not applied */
	st.rewrite = NULL;
	if (failed < 0)
		return failed;
	finish_item(c, &items[k], &st, failed);
	return (ssize_t)k + 1;
}

int policy_chain_check_many(struct policy_chain *c, struct policy_check *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		items[i].rewrite = NULL;
		items[i].rewrite_plugin = NULL;
		items[i].failed = 0;
	}
	if (c->n == 0 || n == 0)
		return 0;
	_cleanup_free_ const struct command_model **models = calloc(n, sizeof(*models));
	if (!models)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		models[i] = items[i].model;
	c->start_error[0] = '\0';
	int r = 0;
	for (size_t from = 0; from < n;) {
		ssize_t next = run_chain(c, items, models, from, n);
		if (next < 0) {
			r = (int)next;
			break;
		}
		from = (size_t)next;
	}
	if (r == 0 && !c->validated && c->start_error[0])
		r = -ENOEXEC; /* the first use of a chain that was never validated */
	if (r < 0) {
		for (size_t i = 0; i < n; i++) {
			free(items[i].rewrite);
			items[i].rewrite = NULL;
			items[i].rewrite_plugin = NULL;
		}
		return r;
	}
	c->validated = true;
	return 0;
}

/* Open and close every plugin once in a child, so that a setting only the
 * plugin can judge (a regular expression, a choice) is a configuration
 * error before any request, not a refusal of every request after. */
static int validate(struct policy_chain *c, struct sluice_error *reterr)
{
	if (c->n == 0) {
		c->validated = true;
		return 0;
	}
	struct verdict v;
	verdict_init(&v);
	struct policy_check it = { .model = NULL, .v = &v };
	const struct command_model *none = NULL;
	ssize_t k = run_chain(c, &it, &none, 0, 1);
	policy_chain_reap(c);
	int r = k < 0 ? (int)k : it.failed;
	if (r > 0)
		r = sluice_error_set(reterr, -EINVAL, "%s",
		                     v.n_reasons ? v.reasons[0].message
		                                 : "a plugin failed to start");
	else if (r < 0)
		r = sluice_error_set(reterr, r, "starting the policy plugins");
	else
		c->validated = true;
	free(it.rewrite);
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
	struct policy_check it = { .model = m, .v = v };
	int r = policy_chain_check_many(c, &it, 1);
	if (r < 0)
		return r;
	_cleanup_free_ char *rewrite = TAKE_PTR(it.rewrite);
	if (rewrite && ret_rewrite_plugin) {
		*ret_rewrite_plugin = strdup(it.rewrite_plugin);
		if (!*ret_rewrite_plugin)
			return -ENOMEM;
	}
	if (ret_rewrite)
		*ret_rewrite = TAKE_PTR(rewrite);
	return it.failed;
}

/* The second round for the items a plugin rewrote: each rewrite is parsed
 * and decided from scratch (it is what would run). models2 holds the
 * parsed rewrites (the caller frees them). */
static int decide_rewrites(struct policy_chain *c, struct command_model_parser *parser,
                           struct policy_check *items, size_t n, struct policy_check *again,
                           struct command_model **models2, size_t *idx)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		struct policy_check *it = &items[i];
		if (!it->rewrite)
			continue;
		struct sluice_error err = { 0 };
		verdict_done(it->v);
		verdict_init(it->v);
		int r = command_model_parse(parser, it->rewrite, strlen(it->rewrite), NULL,
		                            &models2[m], &err);
		if (r < 0) {
			char msg[VERDICT_MAX_TEXT];
			snprintf(msg, sizeof(msg),
			         "plugin '%s' proposed a rewrite that cannot be parsed: %s",
			         it->rewrite_plugin, err.detail);
			free(it->rewrite);
			it->rewrite = NULL;
			it->failed = 1;
			if (verdict_add(it->v, VERDICT_DENY, it->rewrite_plugin, msg, NULL) < 0)
				return -ENOMEM;
			continue;
		}
		r = verdict_from_model(it->v, models2[m]);
		if (r < 0)
			return r;
		again[m] = (struct policy_check){ .model = models2[m], .v = it->v };
		idx[m++] = i;
	}
	int r = policy_chain_check_many(c, again, m);
	if (r < 0)
		return r;
	for (size_t j = 0; j < m; j++) {
		struct policy_check *it = &items[idx[j]];
		it->failed = again[j].failed;
		_cleanup_free_ char *second = TAKE_PTR(again[j].rewrite);
		if (!second || strcmp(second, it->rewrite) == 0)
			continue;
		char msg[VERDICT_MAX_TEXT];
		snprintf(msg, sizeof(msg), "the command was rewritten twice (by '%s', then again)",
		         it->rewrite_plugin);
		free(it->rewrite);
		it->rewrite = NULL;
		it->failed++;
		if (verdict_add(it->v, VERDICT_DENY, it->rewrite_plugin, msg, NULL) < 0)
			return -ENOMEM;
	}
	return 0;
}

int policy_chain_decide_many(struct policy_chain *c, struct command_model_parser *parser,
                             struct policy_check *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int r = verdict_from_model(items[i].v, items[i].model);
		if (r < 0)
			return r;
	}
	int r = policy_chain_check_many(c, items, n);
	if (r < 0)
		return r;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += items[i].rewrite != NULL;
	if (m == 0)
		return 0;
	_cleanup_free_ struct policy_check *again = calloc(m, sizeof(*again));
	_cleanup_free_ struct command_model **models2 = calloc(m, sizeof(*models2));
	_cleanup_free_ size_t *idx = calloc(m, sizeof(*idx));
	if (!again || !models2 || !idx)
		r = -ENOMEM;
	else
		r = decide_rewrites(c, parser, items, n, again, models2, idx);
	for (size_t j = 0; models2 && j < m; j++)
		command_model_free(models2[j]);
	if (r < 0)
		for (size_t i = 0; i < n; i++) {
			free(items[i].rewrite);
			items[i].rewrite = NULL;
		}
	return r;
}

int policy_chain_decide(struct policy_chain *c, struct command_model_parser *parser,
                        const struct command_model *m, struct verdict *v, char **ret_command)
{
	struct policy_check it = { .model = m, .v = v };
	int r = policy_chain_decide_many(c, parser, &it, 1);
	*ret_command = r < 0 ? NULL : it.rewrite;
	return r < 0 ? r : it.failed;
}
