/* SPDX-License-Identifier: MIT */
/*
 * The policy child: the process a request's plugins run in, where a crash
 * is observable. It opens, checks and closes every plugin in order and
 * reports each step as a typed message (policy-msg.h) before the plugin
 * code it names runs, so that the parent can name a plugin that crashed or
 * hung. A lazy chain's child loads the plugins itself.
 * Not for: reading the messages (policy-reader.c), or the child forked
 * before its request (policy-proc.c, which ends in this one's check).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "policy/policy-child.h"
#include "policy/policy-host.h"
#include "policy/policy-msg.h"

void policy_child_open(const struct sluice_host *host, const struct loaded_plugin *p,
                       struct opened *o)
{
	*o = (struct opened){ .settings = { .conf = p->conf, .where = p->where } };
	o->r = p->desc.open(host, &o->settings, &o->state);
}

/* Before plugin code runs (plugin idx's open or check, in the model-th
 * model): the progress word says where, so that a crash or a hang there
 * is named though the messages go out once the model is done. What the
 * plugins before it said (reasons, a rewrite) is written first, so that
 * it is kept when this one crashes; and everything is, without the word
 * or when the parent asks for it (strict). The write comes before the
 * word moves on: when it fails (a plugin closed or replaced the pipe),
 * the word still names the plugin that ran last. Returns 0, or -errno
 * when the pipe failed. */
static int before_plugin_code(struct policy_chain *c, struct policy_msg_batch *out, size_t model,
                              uint32_t idx, enum policy_phase phase)
{
	if ((!c->progress || c->strict || out->said) && policy_msg_flush(out) < 0)
		return -EPIPE;
	policy_progress_store(c, policy_progress_at(model, idx, phase));
	return 0;
}

/* One model's messages (the model-th of the child's list): every plugin in
 * order (m NULL: open and close only, to validate the settings), then
 * DONE; ahead: each loaded plugin already opened (open_ahead), else NULL.
 * The messages, the plugins' reasons among them, go out together when the
 * model is done (or when they fill the buffer): one write per command.
 * Returns 0, or -errno when the pipe failed. */
static int child_model(struct policy_chain *c, const struct sluice_host *host,
                       const struct command_model *m, size_t model, int fd,
                       char *const *load_errors, struct opened *ahead)
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
			if (before_plugin_code(c, &out, model, idx, POLICY_PHASE_OPEN) < 0)
				return -EPIPE;
			policy_child_open(host, p, o);
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
		/* the plugin's reasons follow this in the batch */
		if (policy_msg_add(&out, POLICY_MSG_BEGIN, idx, POLICY_PHASE_CHECK, NULL, 0) < 0 ||
		    before_plugin_code(c, &out, model, idx, POLICY_PHASE_CHECK) < 0)
			return -EPIPE;
		struct sluice_verdict v = { .out = &out, .plugin = idx };
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
	/* past the last plugin: a failure now is the host's write, which a
	 * plugin may have broken earlier (the parent checks the model again) */
	policy_progress_store(c, policy_progress_at(model, c->n, POLICY_PHASE_CHECK));
	if (policy_msg_add(&out, POLICY_MSG_DONE, 0, 0, NULL, 0) < 0 || policy_msg_flush(&out) < 0)
		return -EPIPE;
	return 0;
}

int policy_child_pass(struct policy_chain *c, const struct command_model *m, size_t model, int fd)
{
	return child_model(c, policy_host(), m, model, fd, c->child_load_errors, NULL);
}

/* In the child: a lazy chain's plugins are loaded here, never in the
 * parent, once; each failure is reported in its place in the messages. */
void policy_child_load(struct policy_chain *c)
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
void policy_child_crash_by_signal(void)
{
	static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	for (size_t i = 0; i < ELEMENTSOF(crash_signals); i++)
		(void)signal(crash_signals[i], SIG_DFL);
}

/* A child's models, each in turn, with the same messages as a child for
 * that model alone, on fd 3; ahead: as child_model(). Its descriptors are
 * isolated and its plugins loaded already (policy_child_crash_by_signal(), policy_child_load()):
 * nothing here closes what a plugin opened ahead. Never returns. */
_Noreturn void policy_child_check(struct policy_chain *c, const struct command_model *const *models,
                                  size_t n, struct opened *ahead)
{
	const struct sluice_host *host = policy_host();
	for (size_t k = 0; k < n; k++)
		if (child_model(c, host, models[k], k, 3, c->child_load_errors, ahead) < 0)
			_exit(1);
	_exit(0);
}

/* The child: each model in turn (policy_child_check()); never returns. */
_Noreturn void policy_child_run(struct policy_chain *c, const struct command_model *const *models,
                                size_t n, int fd)
{
	(void)setpgid(0, 0); /* its own group, which policy_child_end_group() ends */
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
	policy_child_crash_by_signal();
	policy_child_load(c);
	policy_child_check(c, models, n, NULL);
}

int policy_child_wait(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

void policy_child_end_group(pid_t pid)
{
	if (pid <= 0)
		return;
	(void)kill(-pid, SIGKILL);
	(void)kill(pid, SIGKILL); /* its setpgid may not have run yet */
}
