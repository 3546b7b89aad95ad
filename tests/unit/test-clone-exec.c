/* SPDX-License-Identifier: MIT */
/*
 * broker/run/clone-exec.c: the child execs with its descriptors in place,
 * no signal ignored or blocked whatever this process set (a handler is
 * reset by the exec itself), and
 * this process's environment; a failed exec is sent as its errno; and this
 * process goes on, its errno and memory untouched by the child.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/clone-exec.h"

static void ignore_signal(int sig)
{
	(void)sig;
}

/* Run sh -c SCRIPT through clone_exec() (placement: NULL or prepared) with
 * its stdout on a pipe (via a source descriptor numbered above 1, as
 * spawner.c passes them), and return what it printed (static) and its exit
 * status in *status. */
static const char *run_script(const char *script, const struct cpu_placement *placement,
                              int *status)
{
	static char out[4096];
	int p[2], exec_pipe[2];
	cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
	cr_assert_eq(pipe2(exec_pipe, O_CLOEXEC), 0);
	int src[] = { p[1] }, dst[] = { 1 };
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	pid_t pid = -1;
	cr_assert_eq(clone_exec("/bin/sh", argv, src, dst, 1, exec_pipe[1], placement, &pid), 0);
	close(p[1]);
	close(exec_pipe[1]);
	int e = 0;
	cr_assert_eq(read(exec_pipe[0], &e, sizeof(e)), 0, "the exec failed: %s", strerror(e));
	close(exec_pipe[0]);
	size_t len = 0;
	ssize_t n;
	while ((n = read(p[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(p[0]);
	cr_assert_eq(waitpid(pid, status, 0), pid);
	return out;
}

/* Start path through clone_exec() with the descriptors src onto dst, for a
 * failure: the errno the child sent, its exit status in *status, and in
 * *errno_after this process's errno as clone_exec() left it. */
static int failure_sent(const char *path, const int src[], const int dst[], size_t n,
                        int *errno_after, int *status)
{
	int exec_pipe[2];
	cr_assert_eq(pipe2(exec_pipe, O_CLOEXEC), 0);
	char *argv[] = { "nothing", NULL };
	pid_t pid = -1;
	cr_assert_eq(clone_exec(path, argv, src, dst, n, exec_pipe[1], NULL, &pid), 0);
	*errno_after = errno;
	close(exec_pipe[1]);
	int e = 0;
	cr_assert_eq(read(exec_pipe[0], &e, sizeof(e)), (ssize_t)sizeof(e));
	close(exec_pipe[0]);
	cr_assert_eq(waitpid(pid, status, 0), pid);
	return e;
}

Test(clone_exec, descriptors_signals_and_environment)
{
	/* what this process set, which the program must not inherit */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, ignore_signal);
	sigset_t blocked;
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGUSR1);
	sigprocmask(SIG_BLOCK, &blocked, NULL);
	setenv("SLUICE_TEST_CLONE_EXEC", "inherited", 1);
	int status;
	const char *out = run_script("echo $SLUICE_TEST_CLONE_EXEC; "
	                             "grep -E '^Sig(Blk|Ign):' /proc/self/status",
	                             NULL, &status);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
	cr_assert_str_eq(out, "inherited\n"
	                      "SigBlk:\t0000000000000000\n"
	                      "SigIgn:\t0000000000000000\n");
	/* and this process keeps its own */
	sigset_t now;
	sigprocmask(SIG_SETMASK, NULL, &now);
	cr_assert(sigismember(&now, SIGINT) && sigismember(&now, SIGUSR1));
	struct sigaction sa;
	sigaction(SIGPIPE, NULL, &sa);
	cr_assert_eq(sa.sa_handler, SIG_IGN);
	sigaction(SIGTERM, NULL, &sa);
	cr_assert_eq(sa.sa_handler, ignore_signal);
}

Test(clone_exec, a_failed_exec_is_sent_and_errno_left_alone)
{
	int seen, status;
	errno = 0;
	int e = failure_sent("/nonexistent/sluice-launch", NULL, NULL, 0, &seen, &status);
	cr_assert_eq(e, ENOENT, "sent %d (%s)", e, strerror(e));
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 125, "status %d", status);
	/* the child's failures went through no errno of this process */
	cr_assert_eq(errno, seen, "errno changed to %d (%s)", errno, strerror(errno));
}

Test(clone_exec, a_failed_dup_is_sent)
{
	int src[] = { 1000 }, dst[] = { 1 }; /* not open */
	int seen, status;
	int e = failure_sent("/bin/true", src, dst, 1, &seen, &status);
	cr_assert_eq(e, EBADF, "sent %d (%s)", e, strerror(e));
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 125);
}

Test(clone_exec, too_many_descriptors_are_refused)
{
	int fds[9] = { 0 };
	char *argv[] = { "true", NULL };
	pid_t pid = -1;
	cr_assert_eq(clone_exec("/bin/true", argv, fds, fds, 9, -1, NULL, &pid), -EINVAL);
}

Test(clone_exec, a_child_moved_apart_gives_itself_every_cpu_back)
{
	struct cpu_placement placement;
	cpu_placement_prepare(&placement);
	if (!placement.apart)
		cr_skip_test("one CPU here: nothing to move the child to");
	char want[512];
	FILE *f = fopen("/proc/self/status", "r");
	cr_assert(f);
	char line[512];
	want[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
			snprintf(want, sizeof(want), "%s", line);
	fclose(f);
	cr_assert(want[0]);
	int status;
	const char *out =
	        run_script("grep ^Cpus_allowed_list: /proc/self/status", &placement, &status);
	cr_assert_str_eq(out, want);
}
