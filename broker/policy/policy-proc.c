/* SPDX-License-Identifier: MIT */
/*
 * The policy child forked ahead of its request (a server between requests),
 * and the one owner of its process (see policy-proc.h for its states): it
 * loads and opens the plugins and warms the parser while nothing waits,
 * then gets the command's text, parses it as the parent did and checks it
 * as any policy child does (policy-child.c). Still one fresh child per
 * request; one that no request uses is withdrawn (killed and reaped).
 * Not for: reading its messages (policy-reader.c via policy-chain.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "policy/policy-child.h"
#include "policy/policy-proc.h"
#include "policy/policy-reader.h"

/* Idle time before a request: pay now for the copy-on-write faults and
 * first-use costs a parse takes in a fresh fork, not while a request waits. */
static void warm_parser(struct command_model_parser *parser)
{
	struct command_model *m = NULL;
	struct sluice_error err = { 0 };
	if (command_model_parse(parser, "true", 4, NULL, &m, &err) == 0)
		command_model_free(m);
}

static void set_opening(struct policy_proc *p, uint32_t value)
{
	if (p->opening)
		__atomic_store_n(p->opening, value, __ATOMIC_RELAXED);
}

/* In a ready child, before its command arrives: every loaded plugin opened
 * (open depends on the settings only, never on the command), each marked
 * in the shared opening word while it opens: the child sends nothing until its
 * command arrives, so that is how the parent can name a plugin stuck or
 * crashed here. NULL when out of memory: then child_model() opens each as
 * usual. */
static struct opened *open_ahead(struct policy_chain *c, const struct sluice_host *host)
{
	struct opened *ahead = calloc(c->n ? c->n : 1, sizeof(*ahead));
	for (size_t i = 0; ahead && i < c->n; i++) {
		if (!plugin_is_loaded(&c->plugins[i]))
			continue;
		set_opening(&c->ahead, (uint32_t)i + 1);
		policy_child_open(host, &c->plugins[i], &ahead[i]);
	}
	set_opening(&c->ahead, 0);
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
 * here as the parent parsed it, and checked as the child of a request checks a model
 * (policy_child_check(): the descriptors the plugins opened ahead stay open);
 * never returns. */
static _Noreturn void run_ready_child(struct policy_chain *c, struct command_model_parser *parser,
                                      int text_fd, int msg_fd)
{
	(void)setpgid(0, 0); /* its group: what its plugins start (policy-child.h) */
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
	policy_child_crash_by_signal();
	policy_child_load(c);
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
	policy_child_check(c, models, 1, ahead);
}

int policy_chain_prepare(struct policy_chain *c, struct command_model_parser *parser)
{
	struct policy_proc *p = &c->ahead;
	if (c->n == 0 || p->state != POLICY_PROC_NONE)
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
	if (!p->opening) { /* best effort: without it, a retry names the plugin */
		void *page = mmap(NULL, sizeof(*p->opening), PROT_READ | PROT_WRITE,
		                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		p->opening = page == MAP_FAILED ? NULL : page;
	}
	set_opening(&c->ahead, 0);
	policy_progress_store(c, 0);
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
	if (pid > 0)
		(void)setpgid(pid, pid); /* as the child does: whichever runs first */
	int r = pid < 0 ? -errno : 0;
	safe_close(text[0]);
	safe_close(msg[1]);
	if (r < 0) {
		safe_close(text[1]);
		safe_close(msg[0]);
		return r;
	}
	p->state = POLICY_PROC_READY;
	p->pid = pid;
	p->text_fd = text[1];
	p->msg_fd = msg[0];
	/* The child reads its command only once its plugins opened: a command
	 * the pipe cannot hold must not make this process wait for them with
	 * no deadline (ready_send() fails instead). Only this end: the child
	 * reads its own as usual. */
	int fl = fcntl(text[1], F_GETFL);
	if (fl < 0 || fcntl(text[1], F_SETFL, fl | O_NONBLOCK) < 0) {
		r = -errno;
		policy_proc_withdraw(p);
		return r;
	}
	warm_parser(parser); /* this process parses the same command too */
	return 0;
}

void policy_proc_init(struct policy_proc *p)
{
	*p = (struct policy_proc){ .state = POLICY_PROC_NONE, .text_fd = -1, .msg_fd = -1 };
}

enum policy_proc_state policy_proc_state(const struct policy_proc *p)
{
	return p->state;
}

/* It is killed before it is waited for: it may still be in a plugin's
 * open, for as long as that takes; one sent a text must not check what
 * nobody reads. */
void policy_proc_withdraw(struct policy_proc *p)
{
	free(p->sent);
	p->sent = NULL;
	p->state = POLICY_PROC_NONE;
	if (p->pid <= 0)
		return;
	policy_child_end_group(p->pid);
	p->text_fd = safe_close(p->text_fd);
	p->msg_fd = safe_close(p->msg_fd);
	int status;
	(void)policy_child_wait(p->pid, &status);
	p->pid = 0;
}

/* Write text to the ready child and close its pipe; -errno: -EAGAIN when
 * the pipe is full (the child reads only once its plugins opened), then the
 * caller withdraws the child. */
static int ready_send(struct policy_proc *p, const char *text, size_t len)
{
	/* A child that is gone must not take this process with it (SIGPIPE). */
	int r = write_full_nosigpipe(p->text_fd, text, len);
	p->text_fd = safe_close(p->text_fd);
	return r;
}

void policy_chain_send_ahead(struct policy_chain *c, const char *text, size_t len)
{
	struct policy_proc *p = c ? &c->ahead : NULL;
	if (!p || p->state != POLICY_PROC_READY)
		return;
	p->sent = malloc(len ? len : 1);
	if (!p->sent)
		return;
	memcpy(p->sent, text, len);
	p->sent_len = len;
	p->state = POLICY_PROC_SENT;
	if (ready_send(p, text, len) < 0)
		policy_proc_withdraw(p);
}

pid_t policy_proc_take(struct policy_proc *p, const struct command_model *model, int *ret_fd)
{
	if (p->state == POLICY_PROC_NONE)
		return -1;
	const char *text = model ? command_model_source(model) : NULL;
	size_t len = model ? command_model_source_len(model) : 0;
	bool sent = p->state == POLICY_PROC_SENT;
	if (!model || (sent && (len != p->sent_len || memcmp(text, p->sent, len) != 0))) {
		policy_proc_withdraw(p);
		return -1;
	}
	if (!sent && ready_send(p, text, len) < 0) {
		policy_proc_withdraw(p);
		return -1;
	}
	free(p->sent);
	p->sent = NULL;
	pid_t pid = p->pid;
	*ret_fd = TAKE_FD(p->msg_fd);
	p->pid = 0;
	p->state = POLICY_PROC_NONE;
	return pid;
}

uint32_t policy_proc_opening(const struct policy_proc *p)
{
	return p->opening ? __atomic_load_n(p->opening, __ATOMIC_RELAXED) : 0;
}

void policy_proc_done(struct policy_proc *p)
{
	policy_proc_withdraw(p);
	if (p->opening)
		(void)munmap(p->opening, sizeof(*p->opening));
	p->opening = NULL;
}
