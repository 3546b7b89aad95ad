/* SPDX-License-Identifier: MIT */
/*
 * Running the plugins where a crash is observable (OpenSSH's monitor): one
 * child per request opens, checks and closes every plugin and reports typed
 * messages; the parent reads them against a deadline and the table of legal
 * orders, and turns any misbehaviour into a deny naming the plugin that was
 * running. Nothing here ever allows by default. This file is the chain and
 * the parent's side of a check: it forks the child (policy-child.c) or takes
 * the one forked ahead (policy-proc.c), and has its messages read
 * (policy-reader.c). A lazy chain (one request per process) loads no
 * third-party plugin code into the parent: its child loads each plugin;
 * when every plugin is a built-in, they are checked here instead
 * (policy-inproc.c), and their messages read as a child's.
 * Not for: loading (plugin-loader.c), the accessors (policy-host.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "monotonic.h"
#include "policy/policy-chain-state.h"
#include "policy/policy-child.h"
#include "policy/policy-inproc.h"
#include "policy/policy-proc.h"
#include "policy/policy-reader.h"

static int validate(struct policy_chain *c, struct sluice_error *reterr);

static int chain_load(const struct broker_config *cfg, bool validating, struct policy_chain **ret,
                      struct sluice_error *reterr)
{
	_cleanup_(policy_chain_freep) struct policy_chain *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cfg = cfg;
	c->exiting_pidfd = -1;
	policy_proc_init(&c->ahead);
	c->timeout_ms = cfg->broker_plugin_timeout;
	void *page = mmap(NULL, sizeof(*c->progress), PROT_READ | PROT_WRITE,
	                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	c->progress = page == MAP_FAILED ? NULL : page; /* best effort: see the state */
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

void policy_chain_allow_in_process(struct policy_chain *chain)
{
	chain->in_process_allowed = true;
}

const char *policy_chain_start_error(const struct policy_chain *c)
{
	return c->start_error;
}

void policy_chain_reap(struct policy_chain *c)
{
	if (!c || c->exiting_pidfd < 0)
		return;
	/* A process a plugin started stays in the child's group (one that left
	 * it with setsid is beyond reach): none outlives the check. The child
	 * is not reaped yet, so its pid, the group's id, is not reused. */
	policy_child_end_group(c->exiting_pid);
	siginfo_t si;
	/* ECHILD: someone's waitpid(-1) reaped it already */
	while (waitid(P_PIDFD, (id_t)c->exiting_pidfd, &si, WEXITED) < 0 && errno == EINTR)
		;
	c->exiting_pidfd = safe_close(c->exiting_pidfd);
}

struct policy_chain *policy_chain_free(struct policy_chain *c)
{
	if (!c)
		return NULL;
	policy_proc_done(&c->ahead);
	policy_chain_reap(c);
	for (size_t i = 0; i < c->n; i++)
		plugin_unload(&c->plugins[i]);
	free(c->plugins);
	free(c->dir);
	if (c->progress)
		(void)munmap(c->progress, sizeof(*c->progress));
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

/* ----------------------------------------------------------- the parent */

/* A reading of one model's messages, into v. */
static struct reading reading_start(const struct policy_chain *c, struct verdict *v)
{
	return (struct reading){ .plugins = c->plugins, .n = c->n, .lazy = c->dir != NULL, .v = v };
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

static ssize_t run_chain(struct policy_chain *c, struct policy_check *items,
                         const struct command_model *const *models, size_t from, size_t n);

/* Check the model of item again in a strict child, to name the plugin that
 * sent garbage: its refusal is added to item's verdict. Returns how many
 * plugins failed (0: the garbage did not come again), or -errno. */
static int recheck_strictly(struct policy_chain *c, struct policy_check *item,
                            const struct command_model *model)
{
	struct verdict scratch;
	verdict_init(&scratch);
	struct policy_check again = { .model = model, .v = &scratch };
	c->strict = true;
	ssize_t r = run_chain(c, &again, &model, 0, 1);
	c->strict = false;
	free(again.rewrite);
	int failed = r < 0 ? (int)r : again.failed;
	/* what the failure said is added last (reading_fail_closed()) */
	const struct verdict_reason *why =
	        scratch.n_reasons ? &scratch.reasons[scratch.n_reasons - 1] : NULL;
	if (failed > 0 && why &&
	    verdict_add(item->v, why->kind, why->plugin, why->message, why->suggestion) < 0)
		failed = -ENOMEM;
	verdict_done(&scratch);
	return failed;
}

/* The child that checks the models [from..n): the one forked ahead, for
 * one model in a check that is not strict; else a new one (the one forked
 * ahead, unused, is withdrawn). Its pid and the read end of its messages'
 * pipe (*ret_fd), *ret_ahead saying whether it was forked ahead; or
 * -errno (pipe, fork). */
static pid_t start_child(struct policy_chain *c, const struct command_model *const *models,
                         size_t from, size_t n, int *ret_fd, bool *ret_ahead)
{
	bool may_take = n - from == 1 && !c->strict;
	int fds[2] = { -1, -1 };
	pid_t pid = may_take ? policy_proc_take(&c->ahead, models[from], &fds[0]) : -1;
	*ret_ahead = pid > 0;
	if (!may_take)
		policy_proc_withdraw(&c->ahead);
	if (pid > 0) {
		*ret_fd = fds[0];
		return pid;
	}
	policy_progress_store(c, 0);
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
		policy_child_run(c, models + from, n - from, fds[1]);
	}
	(void)setpgid(pid, pid); /* as the child does: whichever runs first */
	safe_close(fds[1]);
	*ret_fd = fds[0];
	return pid;
}

/* Read the messages of the models [from..n) from fd, each model's against
 * the plugin timeout, finishing each item decided but the last. Returns
 * 0 or the reading's -errno, with *ret_k the model it stopped at (n when
 * every one was read) and *st the reading of that model. */
static int read_messages(struct policy_chain *c, struct policy_check *items, int fd, size_t from,
                         size_t n, struct reading *st, size_t *ret_k)
{
	struct stream in = { .fd = fd, .cap = 64 * 1024 };
	in.buf = malloc(in.cap);
	uint64_t timeout = c->timeout_ms ? c->timeout_ms : 1;
	size_t k = from;
	int r = in.buf ? 0 : -ENOMEM;
	int fl = fcntl(fd, F_GETFL);
	if (r == 0 && (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0))
		r = -errno;
	*st = reading_start(c, items[from].v);
	for (; r == 0 && k < n; k++) {
		*st = reading_start(c, items[k].v);
		r = reading_read(&in, st, monotonic_ms() + timeout);
		if (r < 0 || !st->done)
			break;
		if (k + 1 < n)
			finish_item(c, &items[k], st, (int)st->failed);
	}
	if (r == 0 && k == n && in.len) {
		k = n - 1; /* the last model's plugin sent it: that model fails */
		r = reading_fault(st, "message after the end");
	}
	free(in.buf);
	*ret_k = k;
	return r;
}

/* Where a check that failed (r, at model k of those from from) stopped.
 * A crash or a hang stops the child where its progress word says: st is
 * told so. Garbage does not (the plugin wrote it, and the child went on),
 * nor does a failure of the host's own write of the model's messages past
 * the last plugin (a plugin closed or replaced the pipe, and the child
 * went on): those are unexplained (true), and checked again strictly. */
static bool locate_failure(struct policy_chain *c, struct reading *st, int r, size_t k, size_t from)
{
	uint64_t at = policy_progress_load(c);
	size_t at_plugin;
	enum policy_phase at_phase;
	bool unexplained =
	        r == -EBADMSG ||
	        (policy_progress_in(at, k - from, &at_plugin, &at_phase) && at_plugin >= c->n);
	if (!unexplained)
		(void)reading_progress(st, at, k - from);
	return unexplained;
}

/* The deny of model k, whose check failed (r: the reading's; w, status:
 * how the process that checked it ended; unexplained: see
 * locate_failure()), or its check again strictly to name the plugin.
 * Returns as run_chain(). */
static ssize_t fail_model(struct policy_chain *c, struct policy_check *items,
                          const struct command_model *const *models, struct reading *st, int r,
                          int w, int status, size_t k, bool unexplained)
{
	free(st->rewrite); /* a failed model's rewrite is not applied */
	st->rewrite = NULL;
	if (unexplained && !c->strict) {
		/* Garbage, or a pipe a plugin broke: the child went on, so
		 * neither where the garbage sits among the batched messages
		 * nor the progress word says which plugin did it. The model is
		 * checked again alone, its messages written before each
		 * plugin's code, so that the plugin is named; when it does not
		 * happen again, the refusal stands, naming none. */
		int named = recheck_strictly(c, &items[k], models[k]);
		if (named != 0) {
			if (named > 0)
				finish_item(c, &items[k], st, named);
			return named < 0 ? named : (ssize_t)k + 1;
		}
		st->current = st->n;
	}
	int failed = reading_fail_closed(st, r, w, status, c->timeout_ms);
	if (failed < 0)
		return failed;
	finish_item(c, &items[k], st, failed);
	return (ssize_t)k + 1;
}

/* The end of a check's child, once its messages were read (r, up to model
 * k; unexplained: see locate_failure()): waited for, or left to
 * policy_chain_reap() when every model was read; a failed model checked
 * again strictly to name the plugin, or failed closed. Returns as
 * run_chain(). */
static ssize_t end_child(struct policy_chain *c, struct policy_check *items,
                         const struct command_model *const *models, pid_t pid, struct reading *st,
                         int r, size_t k, size_t n, bool unexplained)
{
	int status = 0;
	bool all_read = r == 0 && k == n; /* every model's DONE, nothing after */
	if (all_read) {
		/* The child's last act was DONE; its exit is not waited for here
		 * (policy_chain_reap), unless it cannot be waited for later. */
		int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (pidfd >= 0) {
			c->exiting_pidfd = pidfd;
			c->exiting_pid = pid;
			finish_item(c, &items[n - 1], st, (int)st->failed);
			return (ssize_t)n;
		}
	} else {
		policy_child_end_group(pid); /* a child we no longer believe gets no more time */
	}
	int w = policy_child_wait(pid, &status);
	if (r == -ENOMEM) {
		free(st->rewrite);
		return r;
	}
	if (all_read) {
		k = n - 1; /* the last model still waits on the exit status */
		if (w == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			finish_item(c, &items[k], st, (int)st->failed);
			return (ssize_t)n;
		}
	}
	return fail_model(c, items, models, st, r, w, status, k, unexplained);
}

/* The models [from..n) checked in this process (policy-inproc.c), each in
 * turn, its messages read as a child's are. A crash or a hang of plugin
 * code is a deny naming the plugin and its phase, as a child's death is;
 * the models after it, or one whose pass could not run here, go to a
 * child. Returns as run_chain(). */
static ssize_t run_here(struct policy_chain *c, struct policy_check *items,
                        const struct command_model *const *models, size_t from, size_t n)
{
	_cleanup_close_ int fd = memfd_create("sluice-policy", MFD_CLOEXEC);
	for (size_t k = from; k < n; k++) {
		policy_progress_store(c, 0);
		if (fd < 0 || ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
			c->inproc = POLICY_INPROC_NO; /* no memory file: a child checks */
			return (ssize_t)k;
		}
		int end = policy_inproc_pass(c, models[k], fd);
		if (end < 0 && end != -ETIMEDOUT) { /* nothing read: a child checks it */
			c->inproc = POLICY_INPROC_NO;
			return (ssize_t)k;
		}
		if (end != 0) /* what follows runs in a fresh process */
			c->inproc = POLICY_INPROC_NO;
		if (lseek(fd, 0, SEEK_SET) < 0)
			return -errno;
		struct reading st;
		size_t stop = k;
		int r = read_messages(c, items, fd, k, k + 1, &st, &stop);
		if (r == 0 && stop == k + 1) {
			finish_item(c, &items[k], &st, (int)st.failed);
			continue;
		}
		if (r == -ENOMEM) {
			free(st.rewrite);
			return r;
		}
		c->inproc = POLICY_INPROC_NO;
		if (end == -ETIMEDOUT)
			r = -ETIMEDOUT;
		bool unexplained = locate_failure(c, &st, r, k, k);
		/* a crash reads as a child's wait status: ended by that signal */
		return fail_model(c, items, models, &st, r, 0, end > 0 ? end : 0, k, unexplained);
	}
	return (ssize_t)n;
}

/* Fork one child for the models items[from..n) (or take the one forked
 * ahead), read each model's messages in turn, and fail closed on anything
 * else. Returns the index of the first model not yet decided (n when all
 * were: a failing model is decided, as a deny), or -errno (pipe, fork,
 * -ENOMEM). */
static ssize_t run_chain(struct policy_chain *c, struct policy_check *items,
                         const struct command_model *const *models, size_t from, size_t n)
{
	policy_chain_reap(c);
	if (policy_inproc_usable(c))
		return run_here(c, items, models, from, n);
	int fd = -1;
	bool ahead = false;
	pid_t pid = start_child(c, models, from, n, &fd, &ahead);
	if (pid < 0)
		return pid;
	struct reading st;
	size_t k = from;
	int r = read_messages(c, items, fd, from, n, &st, &k);
	safe_close(fd);
	bool failed_here = !(r == 0 && k == n);
	bool unexplained = failed_here && locate_failure(c, &st, r, k, from);
	if (ahead && k == from && !reading_begun(&st) && r != -ENOMEM) {
		/* The child forked ahead failed before it began a plugin. Stuck
		 * or crashed in a plugin's open ahead: that plugin failed while
		 * starting (not opened a second time, for a second timeout).
		 * Elsewhere (loading the plugins, parsing its command): a child of
		 * its own checks the model again and names the plugin. */
		uint32_t opening = policy_proc_opening(&c->ahead);
		if (opening == 0 || opening > c->n) {
			int status = 0;
			policy_child_end_group(pid);
			(void)policy_child_wait(pid, &status);
			return (ssize_t)from;
		}
		st.current = opening - 1;
		st.state = READING_OPEN;
	}
	return end_child(c, items, models, pid, &st, r, k, n, unexplained);
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
			         "plugin '%s' proposed a rewrite that cannot be parsed: %.900s",
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
