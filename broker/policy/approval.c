/* SPDX-License-Identifier: MIT */
/*
 * The three ways to answer an ask: refuse (default), an approver program
 * (request JSON on stdin, exit 0 approves, killed at the timeout, which
 * also bounds the write of the request), or the terminal. The program gets
 * no terminal and an empty environment apart from PATH, so that it answers
 * only from what it was given.
 * Not for: deciding verdicts (policy-chain.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "policy/approval.h"
#include "cleanup.h"
#include "fd-util.h"
#include "monotonic.h"
#include "util/terminal-text.h"

char *approval_request_json(const struct approval_request *req)
{
	json_t *o = verdict_to_json(req->verdict);
	if (!o)
		return NULL;
	json_object_set_new(o, "command", json_string(req->command ? req->command : ""));
	json_object_set_new(o, "display", req->display ? json_string(req->display) : json_null());
	json_object_set_new(o, "description",
	                    req->description ? json_string(req->description) : json_null());
	json_object_set_new(o, "cwd", req->cwd ? json_string(req->cwd) : json_null());
	json_object_set_new(o, "kind", json_string(req->network_host ? "network" : "command"));
	if (req->network_host) {
		json_object_set_new(o, "host", json_string(req->network_host));
		json_object_set_new(o, "port", json_integer(req->network_port));
	}
	char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	return s;
}

static int answer(char **ret_why, int result, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static int answer(char **ret_why, int result, const char *fmt, ...)
{
	if (ret_why) {
		va_list ap;
		va_start(ap, fmt);
		if (vasprintf(ret_why, fmt, ap) < 0)
			*ret_why = NULL;
		va_end(ap);
	}
	return result;
}

/* Kill pid and reap it into *status. */
static void kill_reap(pid_t pid, int *status)
{
	/* the approver leads its own process group (setsid): all of it goes */
	(void)kill(-pid, SIGKILL);
	(void)kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/* Write all of buf to the non-blocking fd (a pipe, a terminal) until
 * deadline: 0, -ETIMEDOUT, or -errno (-EPIPE when the reader is gone;
 * SIGPIPE never fires). A short write goes on where it stopped; -EAGAIN
 * waits for room. */
static int write_deadline(int fd, const char *buf, size_t len, uint64_t deadline)
{
	while (len > 0) {
		ssize_t n = write_some_nosigpipe(fd, buf, len);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n != -EAGAIN)
			return n < 0 ? (int)n : -EIO;
		uint64_t now = monotonic_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		uint64_t left = deadline - now;
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		if (poll(&p, 1, left > 1000 ? 1000 : (int)left) < 0 && errno != EINTR)
			return -errno;
	}
	return 0;
}

/* Wait for pid until deadline through a pidfd; returns 0 with *status, or
 * -ETIMEDOUT (the child was killed and reaped), or -errno. */
static int wait_deadline(pid_t pid, uint64_t deadline, int *status)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			safe_close(pidfd);
			return -errno;
		}
		uint64_t now = monotonic_ms();
		if (now >= deadline) {
			kill_reap(pid, status);
			safe_close(pidfd);
			return -ETIMEDOUT;
		}
		uint64_t left = deadline - now;
		if (pidfd >= 0) {
			struct pollfd p = { .fd = pidfd, .events = POLLIN };
			(void)poll(&p, 1, left > 1000 ? 1000 : (int)left);
		} else {
			/* kernels before 5.3 have no pidfd: check every 10ms */
			struct timespec ts = { 0, 10 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	safe_close(pidfd);
	return 0;
}

static int ask_program(const struct broker_config *cfg, const struct approval_request *req,
                       char **ret_why)
{
	const char *prog = cfg->approval_program;
	if (!prog || !*prog)
		return answer(ret_why, 0, "[approval] method = program names no program");
	_cleanup_free_ char *json = approval_request_json(req);
	if (!json)
		return -ENOMEM;
	int in[2];
	if (pipe2(in, O_CLOEXEC) < 0)
		return -errno;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int r = -errno;
		safe_close(in[0]);
		safe_close(in[1]);
		return r;
	}
	if (pid == 0) {
		(void)setsid(); /* no controlling terminal */
		/* with the process that asks: one a run's end killed (a network
		 * ask, egress-asks.c) waits for no answer */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(127);
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (dup2(in[0], STDIN_FILENO) < 0 || (null >= 0 && dup2(null, STDOUT_FILENO) < 0))
			_exit(127);
		char *const argv[] = { (char *)prog, NULL };
		char *const envp[] = { (char *)"PATH=/usr/local/bin:/usr/bin:/bin", NULL };
		execve(prog, argv, envp);
		_exit(127);
	}
	safe_close(in[0]);
	/* the timeout counts from here and covers the request's write too: an
	 * approver that leaves a request larger than the pipe unread must not
	 * hold this process past it (and then approve by a late exit 0) */
	uint64_t deadline = monotonic_ms() + cfg->approval_timeout;
	int status = 0;
	int r = fcntl(in[1], F_SETFL, O_NONBLOCK) < 0 ? -errno : 0;
	/* the approver may not read it all; a short write (-EPIPE) is its
	 * answer, and one that is gone must not take this process with it */
	if (r == 0)
		r = write_deadline(in[1], json, strlen(json), deadline);
	if (r == 0)
		r = write_deadline(in[1], "\n", 1, deadline);
	safe_close(in[1]);
	if (r == -ETIMEDOUT || (r < 0 && r != -EPIPE))
		kill_reap(pid, &status);
	else
		r = wait_deadline(pid, deadline, &status);
	if (r == -ETIMEDOUT)
		return answer(ret_why, 0, "the approver %s did not answer in time", prog);
	if (r < 0)
		return r;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return answer(ret_why, 1, "approved by %s", prog);
	if (WIFEXITED(status))
		return answer(ret_why, 0, "the approver %s said no (exit %d)", prog,
		              WEXITSTATUS(status));
	return answer(ret_why, 0, "the approver %s died (signal %d)", prog, WTERMSIG(status));
}

/* The question, on the terminal: everything it shows of the request escaped
 * (the command and the reasons are the agent's and the plugins' text), and
 * one deadline for showing it and for the answer, since a terminal whose
 * output is stopped, or that nobody reads, would hold a blocking write. */
static int ask_terminal(const struct broker_config *cfg, const struct approval_request *req,
                        char **ret_why)
{
	uint64_t deadline = monotonic_ms() + cfg->approval_timeout;
	_cleanup_close_ int tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (tty < 0)
		return answer(ret_why, 0, "there is no terminal to ask on");
	_cleanup_free_ char *prompt = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&prompt, &len);
	if (!f)
		return -ENOMEM;
	if (req->network_host) {
		/* the host is the command's choice: escaped like the command */
		fputs("\nsluice: a command asks to reach ", f);
		terminal_safe_write(f, req->network_host);
		fprintf(f, " port %u, which is not in [network] allow:\n  ", req->network_port);
	} else
		fputs("\nsluice: approval required for:\n  ", f);
	terminal_safe_write(f, req->display ? req->display : req->command);
	fputc('\n', f);
	if (req->description) {
		fputs("  (", f);
		terminal_safe_write(f, req->description);
		fputs(")\n", f);
	}
	for (size_t i = 0; i < req->verdict->n_reasons; i++) {
		fputs("  ", f);
		terminal_safe_write(f, req->verdict->reasons[i].plugin);
		fputs(": ", f);
		terminal_safe_write(f, req->verdict->reasons[i].message);
		fputc('\n', f);
	}
	fputs(req->network_host ? "Allow it for this run? [y/N] " : "Run it? [y/N] ", f);
	if (fclose(f) != 0)
		return -ENOMEM;
	int r = write_deadline(tty, prompt, len, deadline);
	if (r == -ETIMEDOUT)
		return answer(ret_why, 0,
		              "the question could not be shown on the terminal in time (its output "
		              "is stopped, or nobody reads it)");
	if (r < 0)
		return answer(ret_why, 0, "the terminal could not be written: %s", strerror(-r));
	uint64_t now = monotonic_ms();
	uint64_t t = deadline > now ? deadline - now : 0;
	struct pollfd p = { .fd = tty, .events = POLLIN };
	if (poll(&p, 1, t > INT32_MAX ? INT32_MAX : (int)t) <= 0)
		return answer(ret_why, 0, "no answer on the terminal in time");
	char line[16] = "";
	ssize_t n = read(tty, line, sizeof(line) - 1);
	if (n > 0 && (line[0] == 'y' || line[0] == 'Y'))
		return answer(ret_why, 1, "approved on the terminal");
	return answer(ret_why, 0, "refused on the terminal");
}

/* The configured approver's answer (see approval_ask()). */
static int ask_configured(const struct broker_config *cfg, const struct approval_request *req,
                          char **ret_why, const char **ret_by)
{
	switch (cfg->approval_method) {
	case CONFIG_APPROVAL_PROGRAM:
		*ret_by = "program";
		return ask_program(cfg, req, ret_why);
	case CONFIG_APPROVAL_TERMINAL:
		*ret_by = "terminal";
		return ask_terminal(cfg, req, ret_why);
	default:
		*ret_by = NULL;
		return answer(ret_why, 0, "no approver is configured ([approval] method = deny)");
	}
}

int approval_ask(const struct broker_config *cfg, const struct approval_request *req,
                 const struct approval_asker *first, char **ret_why, const char **ret_by)
{
	const char *by_none = NULL;
	const char **by = ret_by ? ret_by : &by_none;
	char *first_why = NULL, *then_why = NULL;
	if (ret_why)
		*ret_why = NULL;
	*by = NULL;
	enum approval_reply reply =
	        first ? first->ask(first->userdata, req, &first_why) : APPROVAL_UNANSWERED;
	if (reply != APPROVAL_UNANSWERED) {
		*by = reply == APPROVAL_WITHDRAWN ? NULL : first->by;
		if (ret_why)
			*ret_why = first_why;
		else
			free(first_why);
		return reply == APPROVAL_YES;
	}
	int r = ask_configured(cfg, req, &then_why, by);
	if (ret_why) {
		/* what the first asker met, then what the approver said */
		if (!first_why || !then_why || asprintf(ret_why, "%s; %s", first_why, then_why) < 0)
			*ret_why = then_why ? TAKE_PTR(then_why) : TAKE_PTR(first_why);
	}
	free(first_why);
	free(then_why);
	return r;
}
