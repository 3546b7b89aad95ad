/* SPDX-License-Identifier: MIT */
/*
 * The proxy's process: fork, lock-down, the listening socket received, then
 * one child process per connection (at most EGRESS_MAX_CONNECTIONS at
 * once), so that a slow name lookup or a long download holds up no other
 * connection. Every child inherits the lock-down. No diagnostic is printed:
 * the proxy's standard streams are /dev/null (the run's output pipes must
 * end with the run), and what a client is refused it is told in the
 * answer. Each connection's record goes to the audit channel (descriptor 4
 * here, --egress-audit-fd in the launcher), numbered in the order accepted;
 * a host not on the list is asked about on the ask channel (descriptor 5
 * here, --egress-ask-fd), when there is one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-passing.h"
#include "fd-util.h"
#include "egress-address.h"
#include "egress-connect.h"
#include "egress-proxy.h"
#include "egress-question.h"
#include "egress-record.h"
#include "landlock.h"
#include "launch-spec.h"
#include "options.h"
#include "privileges.h"
#include "protections.h"
#include "seccomp-filter.h"
#include "seccomp-rules.h"

/* Connections served at once; more wait in the listening socket's queue. */
#define EGRESS_MAX_CONNECTIONS 256

/* What a name lookup reads (musl's and glibc's files and dns services);
 * nothing else is readable. A service that needs a library or a socket of
 * its own (nss-resolve, sssd) fails, and the next line of nsswitch.conf is
 * tried. */
static const char *const resolver_files[] = { "/etc/hosts", "/etc/resolv.conf",
	                                      "/etc/nsswitch.conf", "/etc/host.conf",
	                                      "/etc/gai.conf" };

uint32_t egress_proxy_seccomp_parts(uint32_t planned)
{
	if ((planned & PROT_SECCOMP_ANY) == 0)
		return 0;
	return seccomp_parts_for_plan(planned &
	                              ~(PROT_SECCOMP_SOCKETS | PROT_SECCOMP_UNIX_CONNECT)) |
	       SECCOMP_PART_LOOPBACK | SECCOMP_PART_CONNECT;
}

/* The proxy's lock-down: not dumpable (no core file, no ptrace by the
 * user's other processes), the launcher's privileges step (capabilities
 * dropped, --user as root, no_new_privs), Landlock with the resolver's
 * files only, the seccomp filter of egress_proxy_seccomp_parts(). */
static int lock_down(const struct launch_spec *spec, uint32_t planned, struct sluice_error *err)
{
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return sluice_error_set(err, neg_errno(), "PR_SET_DUMPABLE");
	struct launch_state scratch = {
		.planned = planned, .monitor_fd = -1, .status_fd = -1, .read_rules_fd = -1
	};
	int r = apply_privileges(spec, &scratch, err);
	if (r < 0)
		return r;
	/* again: a change of user (--user as root) sets the flag to
	 * fs.suid_dumpable, which an administrator may have set to 1 */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return sluice_error_set(err, neg_errno(), "PR_SET_DUMPABLE");
	r = landlock_restrict_to_files(planned, resolver_files, ELEMENTSOF(resolver_files), err);
	if (r < 0) {
		sluice_error_prefix(err, "Landlock");
		return r;
	}
	uint32_t parts = egress_proxy_seccomp_parts(planned);
	if (parts != 0) {
		r = seccomp_load_parts(parts, err);
		if (r < 0)
			sluice_error_prefix(err, "seccomp");
	}
	return r;
}

/* The listening socket from the launcher; -errno. */
static int receive_listener(int channel)
{
	char byte;
	int fd;
	int r = fds_receive(channel, &byte, &fd, 1);
	return r < 0 ? r : fd;
}

/* Set by SIGTERM, which the monitor sends once the run has ended
 * (monitor.c end_proxy()). */
static volatile sig_atomic_t ending;

static void on_ending(int sig)
{
	(void)sig;
	ending = 1;
}

/* The run has ended: no connection comes any more, and those left let
 * their relays end (their clients are gone) and write their last records.
 * The monitor kills the group after a while, for one that does not end
 * (a question to the approver pending, an upstream that holds on). */
static _Noreturn void drain(int listener, unsigned running)
{
	(void)close(listener);
	while (running > 0 && waitpid(-1, NULL, 0) > 0)
		running--;
	_exit(0);
}

/* Accept and serve until the monitor ends the run's proxy (drain()), or
 * the launcher's process ends and takes this one with it. SIGTERM is
 * blocked but in ppoll(): *ending is seen before the proxy sleeps again. */
static _Noreturn void serve(int listener, const struct egress_lists *lists,
                            const struct egress_local_addresses *local, int audit_fd,
                            const struct egress_asker *asker, const char *token)
{
	unsigned running = 0;
	uint64_t accepted = 0;
	pid_t self = getpid();
	sigset_t term, waiting;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	(void)sigprocmask(SIG_BLOCK, &term, &waiting);
	sigdelset(&waiting, SIGTERM);
	struct sigaction on_term = { .sa_handler = on_ending }; /* no SA_RESTART */
	(void)sigaction(SIGTERM, &on_term, NULL);
	/* accept4() after ppoll() must not sleep on a connection gone since */
	(void)fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK);
	for (;;) {
		while (running > 0 &&
		       waitpid(-1, NULL, running < EGRESS_MAX_CONNECTIONS ? WNOHANG : 0) > 0)
			running--;
		if (ending)
			drain(listener, running);
		struct pollfd p = { .fd = listener, .events = POLLIN };
		if (ppoll(&p, 1, NULL, &waiting) < 0)
			continue; /* EINTR: *ending, or a child */
		int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOMEM)
				(void)waitpid(-1, NULL, 0), running -= running > 0;
			continue;
		}
		/* counted before the fork: a connection past the last slot is
		 * still known to have been made */
		uint64_t index = accepted++;
		egress_recorder_count(audit_fd, accepted);
		pid_t pid = fork();
		if (pid == 0) {
			/* with the proxy: one that died before the prctl never
			 * sends the signal, so the parent is checked after it */
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != self)
				_exit(0);
			(void)close(listener);
			(void)sigprocmask(SIG_UNBLOCK, &term, NULL);
			(void)signal(SIGTERM, SIG_DFL);
			struct egress_recorder rec;
			egress_recorder_init(&rec, audit_fd, index);
			egress_connect_serve(fd, lists, local, asker, token, &rec);
			_exit(0);
		}
		(void)close(fd);
		if (pid > 0)
			running++;
	}
}

/* The proxy's process, from the fork on. */
static _Noreturn void proxy_main(const struct launch_spec *spec, uint32_t planned, pid_t parent,
                                 int channel, const char *token)
{
	/* with the launcher's process: the monitor, or the program it
	 * became; one already gone would never send it */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(LAUNCH_EXIT_FAILURE);
	/* a process group of its own and its connections', which the
	 * monitor kills whole when the run ends (monitor.c) */
	(void)setpgid(0, 0);
	sigset_t none;
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	(void)signal(SIGPIPE, SIG_IGN);
	int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd >= 0) {
		for (int i = 0; i < 3; i++)
			(void)dup2(null_fd, i);
		(void)close(null_fd);
	}
	/* nothing of the launcher's but the channel, the audit channel and
	 * the ask channel: its report and command pipes must end when the
	 * launcher is done with them, not with the proxy (a background job's
	 * start waits for the report's end) */
	/* all copied above 5 first: any may be numbered 3, 4 or 5 */
	int audit_fd = spec->egress_audit_fd;
	struct egress_asker asker = { .fd = spec->egress_ask_fd,
		                      .wait_ms = spec->egress_ask_wait_ms,
		                      .internal = spec->egress_ask_internal };
	if (audit_fd >= 0 && (audit_fd = fcntl(audit_fd, F_DUPFD_CLOEXEC, 6)) < 0)
		_exit(LAUNCH_EXIT_FAILURE);
	if (asker.fd >= 0 && (asker.fd = fcntl(asker.fd, F_DUPFD_CLOEXEC, 6)) < 0)
		_exit(LAUNCH_EXIT_FAILURE);
	if ((channel = fcntl(channel, F_DUPFD_CLOEXEC, 6)) < 0 || dup3(channel, 3, O_CLOEXEC) < 0)
		_exit(LAUNCH_EXIT_FAILURE);
	channel = 3;
	if (audit_fd >= 0) {
		if (dup3(audit_fd, 4, O_CLOEXEC) < 0)
			_exit(LAUNCH_EXIT_FAILURE);
		audit_fd = 4;
	}
	if (asker.fd >= 0) {
		if (dup3(asker.fd, 5, O_CLOEXEC) < 0)
			_exit(LAUNCH_EXIT_FAILURE);
		asker.fd = 5;
	}
	if (fd_close_range(asker.fd >= 0 ? 6 : audit_fd >= 0 ? 5 : 4, ~0U) < 0)
		_exit(LAUNCH_EXIT_FAILURE);
	struct sluice_error err = { 0 };
	/* the machine's addresses, while a netlink socket can be had */
	static struct egress_local_addresses local;
	int r = egress_local_addresses_collect(&local, &err);
	if (r >= 0)
		r = lock_down(spec, planned, &err);
	int listener = receive_listener(channel);
	if (r >= 0 && listener < 0)
		r = sluice_error_set(&err, listener, "receiving the listening socket");
	/* the answer: 0 and serving, or the error whole */
	if (r >= 0)
		err.code = 0;
	(void)send(channel, &err, sizeof(err), MSG_NOSIGNAL);
	(void)close(channel);
	if (r < 0)
		_exit(LAUNCH_EXIT_FAILURE);
	const struct egress_lists lists = { .allow = spec->egress_allow,
		                            .n_allow = spec->n_egress_allow,
		                            .internal = spec->egress_allow_internal,
		                            .n_internal = spec->n_egress_allow_internal };
	serve(listener, &lists, &local, audit_fd, &asker, token);
}

int egress_proxy_start(const struct launch_spec *spec, const struct launch_state *state,
                       struct egress_proxy *p, struct sluice_error *err)
{
	/* the run's token, before the fork: the proxy's copy and the
	 * command's environment's (apply_egress_env()) are the same */
	unsigned char random[EGRESS_TOKEN_HEX / 2];
	if (getrandom(random, sizeof(random), 0) != (ssize_t)sizeof(random))
		return sluice_error_set(err, -EIO, "random bytes for the egress proxy's token");
	for (size_t i = 0; i < sizeof(random); i++)
		snprintf(p->token + 2 * i, 3, "%02x", random[i]);
	int pair[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0)
		return sluice_error_set(err, neg_errno(), "a socket pair for the egress proxy");
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		(void)close(pair[0]);
		proxy_main(spec, state->planned, parent, pair[1], p->token);
	}
	int r = pid < 0 ? neg_errno() : 0;
	(void)close(pair[1]);
	if (r < 0) {
		(void)close(pair[0]);
		return sluice_error_set(err, r, "forking the egress proxy");
	}
	p->pid = pid;
	p->channel = pair[0];
	return 0;
}

int egress_proxy_hand_over(struct egress_proxy *p, struct sluice_error *err)
{
	_cleanup_close_ int channel = TAKE_FD(p->channel);
	p->channel = -1;
	_cleanup_close_ int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sluice_error_set(err, neg_errno(), "a socket for the egress proxy");
	struct sockaddr_in addr = { .sin_family = AF_INET,
		                    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(addr);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 128) < 0 ||
	    getsockname(fd, (struct sockaddr *)&addr, &len) < 0)
		return sluice_error_set(err, neg_errno(),
		                        "listening on 127.0.0.1 for the egress proxy");
	int r = fds_send(channel, 'L', &fd, 1);
	if (r < 0)
		return sluice_error_set(err, r, "handing the socket to the egress proxy");
	struct sluice_error said = { 0 };
	ssize_t n;
	do
		n = recv(channel, &said, sizeof(said), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(said))
		return sluice_error_set(err, n < 0 ? neg_errno() : -ECHILD,
		                        "the egress proxy ended before it was ready");
	if (said.code < 0) {
		said.detail[sizeof(said.detail) - 1] = '\0';
		return sluice_error_set(err, said.code, "the egress proxy: %s", said.detail);
	}
	p->port = ntohs(addr.sin_port);
	return 0;
}

int apply_egress_audit(const struct launch_spec *spec, struct launch_state *state,
                       struct sluice_error *err)
{
	(void)state;
	if (spec->egress_audit_fd >= 0 && close(spec->egress_audit_fd) < 0 && errno != EINTR)
		return sluice_error_set(err, neg_errno(), "closing descriptor %d",
		                        spec->egress_audit_fd);
	if (spec->egress_ask_fd >= 0 && close(spec->egress_ask_fd) < 0 && errno != EINTR)
		return sluice_error_set(err, neg_errno(), "closing descriptor %d",
		                        spec->egress_ask_fd);
	return 0;
}

int apply_egress_env(const struct launch_spec *spec, struct launch_state *state,
                     struct sluice_error *err)
{
	(void)spec;
	if (state->egress_proxy.port == 0)
		return 0;
	/* with the run's credentials: curl, git, pip, npm, Go and Node's
	 * agents send them to the proxy from the URL */
	char url[64 + sizeof(EGRESS_PROXY_USER) + EGRESS_TOKEN_HEX];
	snprintf(url, sizeof(url), "http://" EGRESS_PROXY_USER ":%s@127.0.0.1:%u",
	         state->egress_proxy.token, (unsigned)state->egress_proxy.port);
	static const char *const names[] = { "HTTPS_PROXY", "https_proxy", "HTTP_PROXY",
		                             "http_proxy",  "ALL_PROXY",   "all_proxy" };
	for (size_t i = 0; i < ELEMENTSOF(names); i++)
		if (setenv(names[i], url, 1) < 0)
			return sluice_error_set(err, neg_errno(), "setting %s", names[i]);
	/* the run's own loopback is reached directly (a dev server) */
	if (setenv("NO_PROXY", "localhost,127.0.0.1,::1", 1) < 0 ||
	    setenv("no_proxy", "localhost,127.0.0.1,::1", 1) < 0)
		return sluice_error_set(err, neg_errno(), "setting NO_PROXY");
	return 0;
}
