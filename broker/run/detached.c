/* SPDX-License-Identifier: MIT */
/*
 * One start of a background helper of the launcher's (detached.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fd-util.h"
#include "run/detached.h"

int detached_start(char *const argv[], const char *what, struct sluice_error *err)
{
	int errpipe[2];
	if (pipe2(errpipe, O_CLOEXEC) < 0)
		return sluice_error_set(err, neg_errno(), "a pipe");
	int was_subreaper = 0;
	(void)prctl(PR_GET_CHILD_SUBREAPER, &was_subreaper);
	if (was_subreaper)
		(void)prctl(PR_SET_CHILD_SUBREAPER, 0);
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		(void)sigprocmask(SIG_SETMASK, &none, NULL);
		int null_fd = open("/dev/null", O_RDWR);
		if (null_fd >= 0) {
			(void)dup2(null_fd, STDIN_FILENO);
			(void)dup2(null_fd, STDOUT_FILENO);
		}
		(void)dup2(errpipe[1], STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	int r = pid < 0 ? neg_errno() : 0;
	(void)close(errpipe[1]);
	int status = 0;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (was_subreaper)
		(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
	char said[512] = "";
	if (r >= 0 && status != 0) {
		/* its first process is gone: what it wrote is all there */
		(void)fcntl(errpipe[0], F_SETFL, O_NONBLOCK);
		ssize_t n = read(errpipe[0], said, sizeof(said) - 1);
		said[n > 0 ? n : 0] = '\0';
		said[strcspn(said, "\n")] = '\0';
	}
	(void)close(errpipe[0]);
	if (r < 0)
		return sluice_error_set(err, r, "starting %s", what);
	if (status != 0)
		return sluice_error_set(err, -ECHILD, "%s could not start: %s", what,
		                        said[0] ? said : "no reason given");
	return 0;
}
