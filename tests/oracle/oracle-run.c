/* SPDX-License-Identifier: MIT */
/*
 * One sandboxed run per command for the model oracle (see oracle-run.h).
 * The process is a child subreaper, so that what a command leaves running
 * comes back to it: a run is over when no child is left, and at the
 * timeout every one of them is killed.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "monotonic.h"
#include "oracle/oracle-run.h"
#include "strv.h"

/* Where the real programs are: the stub execs the few it runs for real
 * from here. */
#define ORACLE_REAL_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* How long what a command left running may go on after bash ended. */
#define ORACLE_GRACE_MS 300

struct oracle_runner {
	struct oracle_runner_config cfg;
	char *base; /* the scratch area (owned; removed at the end) */
	char *bin, *prelude, *workspace, *tmp;
	char **env;
	int sigfd;
	sigset_t saved_mask;
};

/* bash reads this (BASH_ENV) before the command: trace every simple command
 * into a file of the run's own, on a descriptor the command is unlikely to
 * use. */
static const char prelude_text[] = "exec 250>>\"$ORACLE_DIR/xtrace\"\n"
                                   "BASH_XTRACEFD=250\n"
                                   "PS4=$'+\\x1e '\n"
                                   "set -x\n";

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	(void)remove(path);
	return 0;
}

static void remove_tree(const char *path)
{
	(void)nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

struct oracle_runner *oracle_runner_free(struct oracle_runner *r)
{
	if (!r)
		return NULL;
	if (r->base)
		remove_tree(r->base);
	if (r->sigfd >= 0) {
		close(r->sigfd);
		(void)sigprocmask(SIG_SETMASK, &r->saved_mask, NULL);
	}
	free(r->base);
	free(r->bin);
	free(r->prelude);
	free(r->workspace);
	free(r->tmp);
	strv_free(r->env);
	free(r);
	return NULL;
}

static int link_stub(const struct oracle_runner *r, const char *name)
{
	if (!name[0] || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return 0;
	_cleanup_free_ char *path = NULL;
	if (asprintf(&path, "%s/%s", r->bin, name) < 0)
		return -ENOMEM;
	if (symlink(r->cfg.stub, path) < 0 && errno != EEXIST && errno != ENAMETOOLONG)
		return -errno;
	return 0;
}

int oracle_runner_add_names(struct oracle_runner *r, char *const *names)
{
	for (size_t i = 0; names && names[i]; i++) {
		int k = link_stub(r, names[i]);
		if (k < 0)
			return k;
	}
	return 0;
}

int oracle_runner_add_words(struct oracle_runner *r, const char *text)
{
	/* runs of the bytes a program's name is made of */
	static const char name_bytes[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                                 "0123456789._+-";
	for (const char *p = text; *p;) {
		size_t len = strspn(p, name_bytes);
		if (len > 0 && len < 256) {
			char name[256];
			memcpy(name, p, len);
			name[len] = '\0';
			int k = link_stub(r, name);
			if (k < 0)
				return k;
		}
		p += len;
		p += strcspn(p, name_bytes);
	}
	return 0;
}

static int write_file(const char *path, const char *text)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	size_t len = strlen(text);
	return write(fd, text, len) == (ssize_t)len ? 0 : -EIO;
}

/* The workspace is a git repository (empty), so that git reads its
 * options and aliases and starts its subcommands, as in a checkout; without
 * git, it stays a plain directory. */
static void init_repository(const char *dir)
{
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			(void)dup2(null, STDOUT_FILENO);
			(void)dup2(null, STDERR_FILENO);
		}
		char *const argv[] = { "git", "init", "-q", (char *)dir, NULL };
		char *const envp[] = { "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1", "HOME=/",
			               NULL };
		execve("/usr/bin/git", argv, envp);
		_exit(127);
	}
	int status;
	if (pid > 0)
		(void)waitpid(pid, &status, 0);
}

static int make_env(struct oracle_runner *r)
{
	_cleanup_free_ char *path = NULL, *bash_env = NULL, *dir = NULL, *home = NULL;
	if (asprintf(&path, "PATH=%s", r->bin) < 0 ||
	    asprintf(&bash_env, "BASH_ENV=%s", r->prelude) < 0 ||
	    asprintf(&dir, "ORACLE_DIR=%s", r->tmp) < 0 ||
	    asprintf(&home, "HOME=%s", r->workspace) < 0)
		return -ENOMEM;
	_cleanup_free_ char *git_trace = NULL;
	if (asprintf(&git_trace, "GIT_TRACE=%s/gittrace", r->tmp) < 0)
		return -ENOMEM;
	const char *const fixed[] = { path,
		                      git_trace,
		                      "GIT_CONFIG_NOSYSTEM=1",
		                      "GIT_TERMINAL_PROMPT=0",
		                      bash_env,
		                      dir,
		                      home,
		                      "ORACLE_REAL_PATH=" ORACLE_REAL_PATH,
		                      "LC_ALL=C",
		                      "SHELL=/bin/bash",
		                      "USER=oracle" };
	for (size_t i = 0; i < ELEMENTSOF(fixed); i++)
		if (strv_extend(&r->env, fixed[i]) < 0)
			return -ENOMEM;
	return 0;
}

int oracle_runner_new(const struct oracle_runner_config *cfg, char *const *extra_names,
                      struct oracle_runner **ret)
{
	_cleanup_(oracle_runner_freep) struct oracle_runner *r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->sigfd = -1;
	r->cfg = *cfg;
	if (!r->cfg.bash)
		r->cfg.bash = "/bin/bash";
	const char *tmpdir = getenv("TMPDIR");
	if (asprintf(&r->base, "%s/sluice-oracle.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0)
		return -ENOMEM;
	if (!mkdtemp(r->base)) {
		int e = -errno;
		fprintf(stderr, "model-oracle: creating %s: %s\n", r->base, strerror(-e));
		free(r->base);
		r->base = NULL;
		return e;
	}
	(void)chmod(r->base, 0755); /* the sandboxed user reads the stubs */
	if (asprintf(&r->bin, "%s/bin", r->base) < 0 ||
	    asprintf(&r->prelude, "%s/prelude.sh", r->base) < 0 ||
	    asprintf(&r->workspace, "%s/workspace", r->base) < 0 ||
	    asprintf(&r->tmp, "%s/tmp", r->base) < 0)
		return -ENOMEM;
	if (mkdir(r->bin, 0755) < 0 || mkdir(r->workspace, 0755) < 0)
		return -errno;
	int k = write_file(r->prelude, prelude_text);
	if (k >= 0)
		init_repository(r->workspace);
	if (k >= 0)
		k = oracle_runner_add_names(r, extra_names);
	if (k >= 0)
		k = make_env(r);
	if (k < 0) {
		fprintf(stderr, "model-oracle: setting up %s: %s\n", r->base, strerror(-k));
		return k;
	}
	/* what the commands leave running is ours to wait for and to kill */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return -errno;
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &chld, &r->saved_mask) < 0)
		return -errno;
	r->sigfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r->sigfd < 0) {
		int e = -errno;
		(void)sigprocmask(SIG_SETMASK, &r->saved_mask, NULL);
		return e;
	}
	*ret = TAKE_PTR(r);
	return 0;
}

/* The child: the launcher around bash -c command. */
static void exec_launcher(const struct oracle_runner *r, const char *command)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		(void)dup2(null, STDIN_FILENO);
		(void)dup2(null, STDOUT_FILENO);
		(void)dup2(null, STDERR_FILENO);
	}
	sigset_t none;
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	/* No namespace: its TMPDIR would be a private tmpfs, and the records
	 * (bash's trace, the stubs' and git's) are written there. */
	const char *argv[] = { r->cfg.launcher, "--profile", "restricted", "--namespace",
		               "off",           "--tmpdir",  r->tmp,       "--chdir",
		               r->workspace,    "--rlimit",  "cpu=5",      "--rlimit",
		               "fsize=4MiB",    "--",        r->cfg.bash,  "-c",
		               command,         NULL };
	execve(r->cfg.launcher, (char *const *)argv, r->env);
	_exit(127);
}

/* SIGKILL every process left: the run's process group, and the children
 * this process adopted (which may have made groups of their own). */
static void kill_all(pid_t group)
{
	(void)kill(-group, SIGKILL);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	int pid;
	while (f && fscanf(f, "%d", &pid) == 1) {
		(void)kill(-pid, SIGKILL);
		(void)kill(pid, SIGKILL);
	}
}

/* Reap until no child is left. Returns true when the launcher (and so
 * bash) had ended before the timeout. */
static bool wait_run(struct oracle_runner *r, pid_t child)
{
	uint64_t now = monotonic_us();
	uint64_t deadline = now + r->cfg.timeout_ms * 1000, grace = 0;
	bool child_done = false, killed = false;
	for (;;) {
		int status;
		pid_t pid;
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			if (pid == child)
				child_done = true;
		if (pid < 0 && errno == ECHILD)
			break;
		now = monotonic_us();
		if (child_done && !grace)
			grace = now + ORACLE_GRACE_MS * 1000;
		uint64_t until = grace && grace < deadline ? grace : deadline;
		if (now >= until) {
			kill_all(child);
			killed = true;
			until = now + 50 * 1000; /* what they leave is killed next round */
		}
		struct pollfd p = { .fd = r->sigfd, .events = POLLIN };
		(void)poll(&p, 1, (int)((until - now) / 1000) + 1);
		struct signalfd_siginfo si;
		while (read(r->sigfd, &si, sizeof(si)) == sizeof(si))
			;
	}
	return child_done || !killed;
}

static int read_whole(const char *path, char **ret, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	*ret = NULL;
	*len = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	size_t alloc = 0, n = 0;
	char *buf = NULL;
	for (;;) {
		if (n + 4096 > alloc) {
			alloc = alloc ? alloc * 2 : 16384;
			char *b = realloc(buf, alloc + 1);
			if (!b) {
				free(buf);
				return -ENOMEM;
			}
			buf = b;
		}
		ssize_t k = read(fd, buf + n, alloc - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = -errno;
			free(buf);
			return e;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	if (buf)
		buf[n] = '\0';
	*ret = buf;
	*len = n;
	return 0;
}

int oracle_runner_run(struct oracle_runner *r, const char *command, struct oracle_records *out,
                      bool *timed_out)
{
	remove_tree(r->tmp);
	if (mkdir(r->tmp, 0700) < 0)
		return -errno;
	pid_t child = fork();
	if (child < 0)
		return -errno;
	if (child == 0)
		exec_launcher(r, command);
	*timed_out = !wait_run(r, child);
	_cleanup_free_ char *path = NULL, *trace = NULL, *exec = NULL, *git = NULL;
	size_t trace_len, exec_len, git_len;
	if (asprintf(&path, "%s/xtrace", r->tmp) < 0)
		return -ENOMEM;
	int k = read_whole(path, &trace, &trace_len);
	free(path);
	path = NULL;
	if (k >= 0 && asprintf(&path, "%s/exec", r->tmp) < 0)
		k = -ENOMEM;
	if (k >= 0)
		k = read_whole(path, &exec, &exec_len);
	free(path);
	path = NULL;
	if (k >= 0 && asprintf(&path, "%s/gittrace", r->tmp) < 0)
		k = -ENOMEM;
	if (k >= 0)
		k = read_whole(path, &git, &git_len);
	if (k >= 0 && trace)
		k = oracle_records_read_trace(trace, trace_len, out);
	if (k >= 0 && git)
		k = oracle_records_read_git(git, git_len, out);
	if (k >= 0 && exec)
		k = oracle_records_read_exec(exec, exec_len, out);
	return k;
}
