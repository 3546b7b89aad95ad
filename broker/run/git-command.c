/* SPDX-License-Identifier: MIT */
/*
 * git run in a hardened way (git-command.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "monotonic.h"
#include "run/git-command.h"

static const char *git_program(void)
{
	/* never from the PATH: a folder of the workspace on it is what a
	 * planted git uses */
	static const char *const candidates[] = { "/usr/bin/git", "/bin/git",
		                                  "/usr/local/bin/git" };
	for (size_t i = 0; i < ELEMENTSOF(candidates); i++)
		if (access(candidates[i], X_OK) == 0)
			return candidates[i];
	return NULL;
}

void git_output_done(struct git_output *o)
{
	free(o->data);
	*o = (struct git_output){ .data = NULL };
}

int git_command_memfd(const char *name, const void *data, size_t len)
{
	_cleanup_close_ int fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	int r = write_full(fd, data, len);
	if (r < 0)
		return r;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return neg_errno();
	return TAKE_FD(fd);
}

/* Read from fd until its end, the deadline or the cap. */
static int read_bounded(int fd, uint64_t deadline_us, struct git_output *o)
{
	size_t cap = 0;
	for (;;) {
		uint64_t now = monotonic_us();
		if (now >= deadline_us)
			return -ETIMEDOUT;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = poll(&p, 1, (int)((deadline_us - now) / 1000) + 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return neg_errno();
		if (n == 0)
			continue;
		if (o->len + 65536 + 1 > cap) {
			if (cap >= GIT_COMMAND_OUTPUT_MAX)
				return -E2BIG;
			size_t want = cap ? cap * 2 : 65536 + 1;
			char *d = realloc(o->data, want);
			if (!d)
				return -ENOMEM;
			o->data = d;
			cap = want;
		}
		ssize_t got = read(fd, o->data + o->len, cap - o->len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return neg_errno();
		if (got == 0)
			return 0;
		o->len += (size_t)got;
	}
}

/* git's argv: the overrides of the repository's programs, then args
 * (NULL-ended); NULL when out of memory. */
static const char **git_argv(const char *const args[])
{
	static const char *const pre[] = { "git", "--no-pager",
		                           "-c",  "core.fsmonitor=false",
		                           "-c",  "core.hooksPath=/dev/null",
		                           "-c",  "gc.auto=0",
		                           "-c",  "maintenance.auto=false",
		                           "-c",  "core.useReplaceRefs=false" };
	size_t n_args = 0;
	while (args[n_args])
		n_args++;
	const char **argv = calloc(ELEMENTSOF(pre) + n_args + 1, sizeof(*argv));
	if (!argv)
		return NULL;
	size_t n = 0;
	for (size_t i = 0; i < ELEMENTSOF(pre); i++)
		argv[n++] = pre[i];
	for (size_t i = 0; i < n_args; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return argv;
}

/* Start git with stdin, stdout and stderr on in, out and err, in
 * workspace, in a process group of its own, every signal as by default;
 * its pid in *ret_pid, or -errno. */
static int spawn_git(const char *git, const char **argv, const char **envp, const char *workspace,
                     int in, int out, int err, pid_t *ret_pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -ENOMEM;
	if (posix_spawnattr_init(&attr) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -ENOMEM;
	}
	sigset_t none, all;
	sigemptyset(&none);
	sigfillset(&all);
	int e = posix_spawn_file_actions_adddup2(&fa, in, 0);
	if (e == 0)
		e = posix_spawn_file_actions_adddup2(&fa, out, 1);
	if (e == 0)
		e = posix_spawn_file_actions_adddup2(&fa, err, 2);
	if (e == 0)
		e = posix_spawn_file_actions_addchdir_np(&fa, workspace);
	if (e == 0)
		e = posix_spawnattr_setpgroup(&attr, 0);
	if (e == 0)
		e = posix_spawnattr_setsigmask(&attr, &none);
	if (e == 0)
		e = posix_spawnattr_setsigdefault(&attr, &all);
	if (e == 0)
		e = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
		                                            POSIX_SPAWN_SETSIGDEF);
	if (e == 0)
		e = posix_spawn(ret_pid, git, &fa, &attr, (char *const *)argv, (char *const *)envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return -e;
}

int git_command_run(const char *workspace, const char *gitdir, const char *const args[],
                    int stdin_fd, struct git_output *o)
{
	*o = (struct git_output){ .data = NULL };
	const char *git = git_program();
	if (!git)
		return -ENOENT;
	_cleanup_free_ const char **argv = git_argv(args);
	_cleanup_free_ char *e_dir = NULL, *e_tree = NULL;
	if (!argv || asprintf(&e_dir, "GIT_DIR=%s", gitdir) < 0 ||
	    asprintf(&e_tree, "GIT_WORK_TREE=%s", workspace) < 0)
		return -ENOMEM;
	/* the broker's own environment, not the user's shell's: no
	 * GIT_CONFIG_*, GIT_EXEC_PATH, GIT_INDEX_FILE or the like */
	const char *envp[] = { "PATH=/usr/bin:/bin",
		               "HOME=/nonexistent",
		               "LC_ALL=C",
		               e_dir,
		               e_tree,
		               "GIT_CONFIG_NOSYSTEM=1",
		               "GIT_CONFIG_GLOBAL=/dev/null",
		               "GIT_ATTR_NOSYSTEM=1",
		               "GIT_NO_REPLACE_OBJECTS=1",
		               "GIT_OPTIONAL_LOCKS=0",
		               "GIT_TERMINAL_PROMPT=0",
		               "GIT_PAGER=cat",
		               "PAGER=cat",
		               "GIT_PROTOCOL_FROM_USER=0",
		               NULL };
	int out[2];
	if (pipe2(out, O_CLOEXEC) < 0)
		return neg_errno();
	_cleanup_close_ int rd = out[0], wr = out[1];
	_cleanup_close_ int errfd = memfd_create("sluice-git-err", MFD_CLOEXEC);
	_cleanup_close_ int nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (errfd < 0 || nullfd < 0)
		return neg_errno();
	pid_t pid = -1;
	int r = spawn_git(git, argv, envp, workspace, stdin_fd >= 0 ? stdin_fd : nullfd, wr, errfd,
	                  &pid);
	if (r < 0)
		return r;
	o->spawned = true;
	wr = safe_close(wr);
	r = read_bounded(rd, monotonic_us() + (uint64_t)GIT_COMMAND_TIMEOUT_MS * 1000u, o);
	if (r < 0)
		(void)kill(-pid, SIGKILL); /* its own process group, made above */
	while (waitpid(pid, &o->status, 0) < 0) {
		if (errno != EINTR) {
			o->status = -1;
			break;
		}
	}
	if (!o->data) {
		o->data = calloc(1, 1);
		if (!o->data)
			return -ENOMEM;
	}
	o->data[o->len] = '\0';
	ssize_t got = pread(errfd, o->err, sizeof(o->err) - 1, 0);
	o->err[got > 0 ? got : 0] = '\0';
	o->err[strcspn(o->err, "\n")] = '\0';
	return r;
}
