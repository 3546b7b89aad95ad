/* SPDX-License-Identifier: MIT */
/*
 * The monitor outside, the PID namespace's init inside, and the fork
 * between them (monitor.h has the whole picture). Both wait for signals
 * with sigwaitinfo(2) on a blocked set, so that nothing runs in a handler:
 * for an init, only blocked signals are queued at all (the kernel drops a
 * signal to an init that has no handler for it).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "landlock.h"
#include "launch-spec.h"
#include "log.h"
#include "monitor.h"
#include "monotonic.h"
#include "namespaces.h"
#include "options.h"
#include "protections.h"

/* What the monitor is told when its parent ends (PR_SET_PDEATHSIG): a
 * signal it does not forward, so that it can tell the two apart. */
#define MONITOR_PARENT_GONE SIGUSR1
/* The subreaper's kill of the tree gives up after this (unkillable
 * processes); the tree is then the system's. */
#define MONITOR_KILL_MS 2000

/* The signals forwarded to the program, then those waited for. */
static const int forwarded[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT };

static void waited_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < ELEMENTSOF(forwarded); i++)
		sigaddset(set, forwarded[i]);
	sigaddset(set, SIGCHLD);
	sigaddset(set, MONITOR_PARENT_GONE);
}

static bool is_forwarded(int sig)
{
	for (size_t i = 0; i < ELEMENTSOF(forwarded); i++)
		if (forwarded[i] == sig)
			return true;
	return false;
}

static void close_pair(int fds[2])
{
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			(void)close(fds[i]);
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Reap every exited child; the wait status of child, when it is one of
 * them, into *status. The egress proxy (*proxy), when reaped, is
 * forgotten (*proxy = 0): its pid, and so its process group's id, may then
 * be another's. Returns whether child was reaped. */
static bool reap(pid_t child, int *status, pid_t *proxy)
{
	bool got = false;
	int st;
	pid_t w;
	while ((w = waitpid(-1, &st, WNOHANG)) > 0) {
		if (w == child) {
			*status = st;
			got = true;
		}
		if (w == *proxy)
			*proxy = 0;
	}
	return got;
}

/* SIGKILL every child of this process (found by their parent links), and
 * reap; returns how many were signalled. As a subreaper, the children of
 * a killed child become ours, for the next round. */
static int kill_children(void)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	pid_t self = getpid();
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		char path[300], buf[512];
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		const char *rp = strrchr(buf, ')');
		char state;
		int ppid;
		if (!rp || sscanf(rp + 1, " %c %d", &state, &ppid) != 2 || ppid != self)
			continue;
		if (kill((pid_t)atoi(de->d_name), SIGKILL) == 0)
			n++;
	}
	closedir(d);
	return n;
}

/* The subreaper's end: kill the tree in rounds until no child is left
 * (the egress proxy among them: *proxy is forgotten once reaped). */
static void kill_tree(pid_t *proxy)
{
	uint64_t deadline = now_ms() + MONITOR_KILL_MS;
	int status;
	while (now_ms() < deadline) {
		(void)reap(-1, &status, proxy);
		if (waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD)
			return;
		if (kill_children() == 0)
			(void)poll(NULL, 0, 1);
	}
}

/* End as the program ended: its exit code, or its signal (without a core
 * file, which the program's limits decided on already). */
static _Noreturn void mirror(int status)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		struct rlimit none = { 0, 0 };
		(void)setrlimit(RLIMIT_CORE, &none);
		(void)signal(sig, SIG_DFL);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		(void)sigprocmask(SIG_UNBLOCK, &one, NULL);
		(void)raise(sig);
		_exit(128 + sig);
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : LAUNCH_EXIT_FAILURE);
}

/* How long the egress proxy's connections have, once the run has ended,
 * to write their last records: their clients are gone, so their relays
 * end at once; one waiting for the approver, or for an upstream that
 * holds on, does not. */
#define PROXY_END_MS 250

/* Whether the proxy has exited, not reaped (its pid stays its group's). */
static bool proxy_exited(pid_t proxy)
{
	siginfo_t si = { .si_pid = 0 };
	return waitid(P_PID, (id_t)proxy, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid != 0;
}

/* The egress proxy's process group (egress-proxy.h), ended with the run:
 * when the run ended (graceful), told first (SIGTERM) and given
 * PROXY_END_MS to let its connections write their last records; then
 * killed and reaped before the monitor exits, so that the caller never
 * finds it left running after the program ended. The group is killed only
 * while the proxy is not reaped (*proxy not 0): until then its pid, the
 * group's id, cannot be reused, and the signal reaches no one else's
 * group. A proxy that ended before took its connections with it (their
 * PR_SET_PDEATHSIG). SIGCHLD is blocked here (waited_set()). */
static void end_proxy(pid_t *proxy, bool graceful)
{
	if (*proxy <= 0)
		return;
	if (graceful && kill(*proxy, SIGTERM) == 0) {
		sigset_t chld;
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		uint64_t deadline = monotonic_ms() + PROXY_END_MS;
		for (uint64_t now = monotonic_ms(); !proxy_exited(*proxy) && now < deadline;
		     now = monotonic_ms()) {
			struct timespec left = { 0, (long)(deadline - now) * 1000000L };
			(void)sigtimedwait(&chld, NULL, &left);
		}
	}
	(void)kill(-*proxy, SIGKILL);
	while (waitpid(*proxy, NULL, 0) < 0 && errno == EINTR)
		;
	*proxy = 0;
}

/* With a PID namespace, once its init is reaped (every process of the run
 * gone with it) and the egress proxy too: the program's status on
 * --end-fd, stdout and stderr closed first, so that the caller has the
 * end of the output and the status before this process's exit, whose
 * teardown of the namespaces it need not wait for. Best effort: a caller
 * that misses it waits for the exit, as without --end-fd. */
static void announce_end(const struct launch_spec *spec, int status)
{
	if (spec->end_fd < 0)
		return;
	(void)close(STDOUT_FILENO);
	(void)close(STDERR_FILENO);
	(void)signal(SIGPIPE, SIG_IGN);
	int32_t word = status;
	(void)write_full(spec->end_fd, &word, sizeof(word));
	(void)close(spec->end_fd);
}

/* The monitor, outside: child is the init (status_fd: the program's wait
 * status from it) or, as subreaper, the program; proxy: the egress
 * proxy's pid, or 0. Never returns. */
static _Noreturn void monitor_run(const struct launch_spec *spec, pid_t child, int status_fd,
                                  bool subreaper, pid_t proxy)
{
	sigset_t set;
	waited_set(&set);
	/* The child reports from now on; the monitor holds none of its pipes.
	 * A subreaper's program may leave processes behind that its caller
	 * must find: no end is announced, the caller waits for the exit. */
	if (spec->report_fd >= 0)
		(void)close(spec->report_fd);
	if (spec->command_fd >= 0)
		(void)close(spec->command_fd);
	if (subreaper && spec->end_fd >= 0)
		(void)close(spec->end_fd);
	int status = 0;
	for (;;) {
		siginfo_t si;
		int sig = sigwaitinfo(&set, &si);
		if (sig == SIGCHLD) {
			if (reap(child, &status, &proxy))
				break;
		} else if (sig == MONITOR_PARENT_GONE) {
			/* the init's death ends its namespace; a subreaper's tree
			 * must be found */
			(void)kill(child, SIGKILL);
			if (subreaper)
				kill_tree(&proxy);
			end_proxy(&proxy, false);
			_exit(LAUNCH_EXIT_FAILURE);
		} else if (sig > 0 && is_forwarded(sig)) {
			(void)kill(child, sig);
		}
	}
	int32_t program = 0;
	if (status_fd >= 0 && read(status_fd, &program, sizeof(program)) == sizeof(program))
		status = program;
	end_proxy(&proxy, true);
	if (!subreaper)
		announce_end(spec, status);
	mirror(status);
}

/* What the subreaper's child is started with. */
struct reaper_child {
	const struct launch_spec *spec;
	struct launch_state *state;
	int alive[2];
};

#if !defined(__SANITIZE_ADDRESS__)
/* The stack of a child that shares the launcher's memory until its exec
 * (the launcher's own stays the launcher's, held meanwhile): 1 MiB above
 * a guard page, never unmapped (the exec or the exit ends the sharing).
 * Its top, or NULL. Not in a build with AddressSanitizer, which forks. */
static char *child_stack_top(void)
{
	const size_t guard = 4096, size = 1024 * 1024;
	char *p = mmap(NULL, guard + size, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p, guard, PROT_NONE) < 0) {
		(void)munmap(p, guard + size);
		return NULL;
	}
	return p + guard + size;
}
#endif

/* The subreaper's child: it goes on with the steps and execs the program
 * (state->resume_steps(), which never returns), sharing the launcher's
 * memory until then while the launcher, the monitor-to-be, is held. */
static int reaper_child_main(void *arg)
{
	struct reaper_child *c = arg;
	(void)close(c->alive[1]);
	c->state->monitor_fd = c->alive[0];
	c->state->enforced |= PROT_REAPER;
	c->state->resume_steps(c->spec, c->state);
	_exit(LAUNCH_EXIT_FAILURE); /* not reached */
}

/* Without a PID namespace: start the child that becomes the program with
 * clone(CLONE_VM | CLONE_VFORK), as posix_spawn does, not fork: no page
 * table copied, no copy-on-write fault (docs/running.md, "The program
 * started without a fork"). The launcher, held until the child's exec (or
 * its end: a failed step), then becomes the monitor; the signals it
 * waits for stay pending meanwhile, as they are blocked. Returns only when
 * the clone fails (-errno), the child's pipe end closed. A build with
 * AddressSanitizer forks instead: its checks would take the steps on
 * this stack for a stack overflow. */
static int start_reaper_child(const struct launch_spec *spec, struct launch_state *state,
                              int alive[2], struct sluice_error *err)
{
	pid_t proxy = state->egress_proxy.pid; /* before the child can touch it */
#if defined(__SANITIZE_ADDRESS__)
	pid_t pid = fork();
	if (pid == 0) {
		struct reaper_child c = { spec, state, { alive[0], alive[1] } };
		reaper_child_main(&c);
	}
#else
	char *top = child_stack_top();
	if (!top)
		return sluice_error_set(err, neg_errno(), "a stack for the program's process");
	struct reaper_child c = { spec, state, { alive[0], alive[1] } };
	pid_t pid = clone(reaper_child_main, top, CLONE_VM | CLONE_VFORK | SIGCHLD, &c);
#endif
	if (pid < 0)
		return sluice_error_set(err, neg_errno(), "starting the program's process");
	(void)close(alive[0]);
	monitor_run(spec, pid, -1, true, proxy);
}

/* The monitor's Landlock read rules (landlock_send_read_rules()), built
 * on another CPU than the one it is on: its child, just forked, waits on
 * this CPU for it to block otherwise, and would make its mounts only
 * after. Then back on every CPU it had. */
static void build_apart(const struct launch_spec *spec, const struct launch_state *state, int sock)
{
	cpu_set_t all, others;
	int cpu = sched_getcpu();
	bool moved = false;
	if (cpu >= 0 && sched_getaffinity(0, sizeof(all), &all) == 0) {
		others = all;
		CPU_CLR(cpu, &others);
		moved = CPU_COUNT(&others) > 0 &&
		        sched_setaffinity(0, sizeof(others), &others) == 0;
	}
	landlock_send_read_rules(spec, state, sock);
	if (moved)
		(void)sched_setaffinity(0, sizeof(all), &all);
}

int apply_monitor(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err)
{
	bool pid_namespace = state->namespace != NAMESPACE_NONE;
	bool subreaper = !pid_namespace && spec->die_with_parent != 0;
	if (!pid_namespace && !subreaper)
		return 0;
	sigset_t set;
	waited_set(&set);
	if (sigprocmask(SIG_BLOCK, &set, &state->start_mask) < 0)
		return sluice_error_set(err, neg_errno(), "blocking signals");
	state->start_mask_saved = true;
	/* The monitor's own watch on the parent, armed before the fork (the
	 * signal then waits, blocked, for monitor_run()); a parent that ended
	 * already would never send it. */
	if (spec->die_with_parent != 0) {
		if (prctl(PR_SET_PDEATHSIG, MONITOR_PARENT_GONE) < 0)
			return sluice_error_set(err, neg_errno(), "PR_SET_PDEATHSIG");
		if (getppid() != spec->die_with_parent)
			return sluice_error_set(err, -ESRCH, "the parent %d is gone",
			                        (int)spec->die_with_parent);
	}
	int alive[2], status[2] = { -1, -1 };
	if (pipe2(alive, O_CLOEXEC) < 0)
		return sluice_error_set(err, neg_errno(), "pipe");
	if (pid_namespace && pipe2(status, O_CLOEXEC) < 0) {
		int r = neg_errno();
		close_pair(alive);
		return sluice_error_set(err, r, "pipe");
	}
	if (subreaper && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		int r = neg_errno();
		close_pair(alive);
		return sluice_error_set(err, r, "PR_SET_CHILD_SUBREAPER");
	}
	if (subreaper) {
		int r = start_reaper_child(spec, state, alive, err);
		close_pair(alive);
		return r;
	}
	/* Where the monitor sends the Landlock read rules it builds while its
	 * child makes the mounts (the two costliest steps, side by side) */
	int rules[2] = { -1, -1 };
	if (landlock_reads_ahead(spec, state) &&
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, rules) < 0)
		rules[0] = rules[1] = -1; /* the step "landlock" builds them */
	/* The PID namespace's init: a fork, as it goes on as the init and
	 * never execs (a clone's CLONE_VFORK would hold the monitor for
	 * ever). */
	pid_t pid = fork();
	if (pid < 0) {
		int r = neg_errno();
		close_pair(alive);
		close_pair(status);
		close_pair(rules);
		return sluice_error_set(err, r, "fork");
	}
	if (pid > 0) {
		(void)close(alive[0]);
		if (status[1] >= 0)
			(void)close(status[1]);
		if (rules[0] >= 0) {
			(void)close(rules[1]);
			build_apart(spec, state, rules[0]);
		}
		monitor_run(spec, pid, status[0], false, state->egress_proxy.pid);
	}
	(void)close(alive[1]);
	(void)close(status[0]);
	if (rules[0] >= 0)
		(void)close(rules[0]);
	if (spec->end_fd >= 0)
		(void)close(spec->end_fd);
	state->monitor_fd = alive[0];
	state->init = true;
	state->status_fd = status[1];
	state->read_rules_fd = rules[1];
	return 0;
}

int apply_proc(const struct launch_spec *spec, struct launch_state *state, struct sluice_error *err)
{
	(void)spec;
	if (!state->init)
		return 0;
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return sluice_error_set(err, neg_errno(), "mounting a new /proc");
	state->enforced |= PROT_PID_NAMESPACE;
	return 0;
}

/* The init: reap everything, forward signals to the program, and once it
 * has ended (with --wait-all: once nothing but the init is left, signals
 * then going to every process of the namespace), tell the monitor its
 * status and exit (which ends the rest of the namespace). Never returns. */
static _Noreturn void init_run(const struct launch_spec *spec, struct launch_state *state,
                               pid_t program)
{
	sigset_t set;
	waited_set(&set);
	/* The program's copy of the report descriptor is the one whose end
	 * of file says its exec succeeded. */
	if (spec->report_fd >= 0)
		(void)close(spec->report_fd);
	int status = 0;
	for (;;) {
		siginfo_t si;
		int sig = sigwaitinfo(&set, &si);
		if (sig == SIGCHLD) {
			pid_t no_proxy = 0; /* the proxy is the monitor's child */
			bool ended = reap(program, &status, &no_proxy);
			if (spec->wait_all)
				ended = waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
			if (ended)
				break;
		} else if (sig > 0 && is_forwarded(sig)) {
			/* -1: every process of the namespace but the init */
			(void)kill(spec->wait_all ? -1 : program, sig);
		}
	}
	int32_t word = status;
	if (state->status_fd >= 0)
		(void)write_full(state->status_fd, &word, sizeof(word));
	/* An init cannot end by a signal of its own: the monitor mirrors
	 * the status it was sent. */
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* The launcher's signal mask back, then exec program; returns only on
 * failure. */
static int exec_program(const struct launch_state *state, char **program, struct sluice_error *err)
{
	if (state->start_mask_saved && sigprocmask(SIG_SETMASK, &state->start_mask, NULL) < 0)
		return sluice_error_set(err, neg_errno(), "restoring the signal mask");
	execvp(program[0], program);
	return sluice_error_set(err, neg_errno(), "'%s'", program[0]);
}

/* What the program's process is started with by the init. */
struct program_start {
	const struct launch_spec *spec;
	const struct launch_state *state;
	char **program;
};

/* The stack of the program's process until its exec (the init's own
 * stays the init's, which waits meanwhile and goes on with it). */
static _Alignas(16) char program_stack[128 * 1024];

/* The program's process, sharing the init's memory until its exec: the
 * init is held until then (or until this process ends), so nothing here
 * runs beside the init's code. On failure it says so, as main() does, and
 * ends with the launcher's failure status, which the init passes on. Not
 * instrumented by the sanitizers, whose _exit hook would warn about a
 * stack that is not the thread's (as clone-exec.c's child in sluice). */
__attribute__((no_sanitize("address", "undefined"))) static int program_main(void *arg)
{
	const struct program_start *p = arg;
	struct sluice_error err = { 0 };
	(void)exec_program(p->state, p->program, &err);
	protections_report_error(p->spec, LAUNCH_STEP_EXEC, &err);
	log_sluice_error(&err, LAUNCH_STEP_EXEC);
	_exit(LAUNCH_EXIT_FAILURE);
}

int monitor_exec(const struct launch_spec *spec, struct launch_state *state, char **program,
                 struct sluice_error *err)
{
	if (state->init) {
		/* clone(CLONE_VM | CLONE_VFORK), as posix_spawn starts a
		 * program, not fork: the child copies no page table and takes
		 * no copy-on-write fault before its exec. A fork and its end
		 * cost 1.2 ms of CPU time here on a loaded machine against
		 * 32 us for this (docs/running.md, "The program started
		 * without a fork"). */
		struct program_start start = { .spec = spec, .state = state, .program = program };
		pid_t pid = clone(program_main, program_stack + sizeof(program_stack),
		                  CLONE_VM | CLONE_VFORK | SIGCHLD, &start);
		if (pid < 0)
			return sluice_error_set(err, neg_errno(), "starting '%s'", program[0]);
		init_run(spec, state, pid);
	}
	return exec_program(state, program, err);
}
