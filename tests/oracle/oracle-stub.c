/* SPDX-License-Identifier: MIT */
/*
 * The model oracle's stand-in for every program on its PATH: it appends its
 * argv, as one record, to $ORACLE_DIR/exec, then ends (exit 0) without doing
 * anything; for a few harmless programs that data or commands flow through
 * (cat, env, nice, xargs, find ...) it then execs the real one, and a shell
 * (sh, dash, zsh ...) becomes bash, whose trace the oracle reads.
 * Not for: comparing anything (model-oracle.c does that).
 *
 * A record is "<count>\0word\0word\0...", written with one write(2) to a file
 * opened O_APPEND, so that records of processes running at once never mix.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/* Programs that are run for real once recorded: they run nothing of their
 * own but what their words name (wrappers, whose command comes back here
 * through PATH), or they only move data (so that `cat <<EOF | sh` feeds the
 * shell). None writes anywhere the sandbox lets it. */
static const char *const real_programs[] = {
	"base64",  "cat", "chroot",  "chrt", "cut",     "env",     "false",   "find",
	"flock",   "git", "grep",    "head", "ionice",  "linux32", "linux64", "nice",
	"nohup",   "od",  "prlimit", "rev",  "setarch", "setpriv", "setsid",  "sort",
	"stdbuf",  "tac", "taskset", "time", "timeout", "tr",      "true",    "uniq",
	"unshare", "wc",  "xargs",   NULL,
};

/* Shells: run as bash, which reads the oracle's BASH_ENV (its trace). */
static const char *const shells[] = { "ash", "bash", "dash", "ksh", "mksh", "sh", "zsh", NULL };

static bool listed(const char *const *list, const char *name)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

/* Is the parent one of git's own scripts (git-submodule, git-bisect ...)?
 * What they run is how git works, not what the command asked for. */
static bool started_by_git_internals(void)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)getppid());
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
		if (strncmp(buf + i, "/usr/lib/git-core/", 18) == 0)
			return true;
	return false;
}

static void record(int argc, char **argv)
{
	if (started_by_git_internals())
		return;
	const char *dir = getenv("ORACLE_DIR");
	if (!dir)
		return;
	size_t len = 32;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *buf = malloc(len);
	char path[4096];
	if (!buf || snprintf(path, sizeof(path), "%s/exec", dir) >= (int)sizeof(path)) {
		free(buf);
		return;
	}
	size_t n = (size_t)snprintf(buf, len, "%d", argc) + 1;
	for (int i = 0; i < argc; i++) {
		size_t k = strlen(argv[i]) + 1;
		memcpy(buf + n, argv[i], k);
		n += k;
	}
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		/* one write: a record is never split by another process's */
		if (write(fd, buf, n) != (ssize_t)n)
			(void)0; /* a lost record only means less is compared */
		close(fd);
	}
	free(buf);
}

/* exec the real program called name from $ORACLE_REAL_PATH; returns on failure */
static void exec_real(const char *name, char **argv)
{
	const char *path = getenv("ORACLE_REAL_PATH");
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		char file[4096];
		if (len > 0 && snprintf(file, sizeof(file), "%.*s/%s", (int)len, path, name) <
		                       (int)sizeof(file))
			execv(file, argv);
		path += len;
		if (*path == ':')
			path++;
	}
}

int main(int argc, char **argv)
{
	if (argc < 1)
		return 0;
	/* the file exec'd, not argv[0] (exec -a NAME sets that) */
	const char *file = (const char *)getauxval(AT_EXECFN);
	if (!file)
		file = argv[0];
	const char *name = strrchr(file, '/');
	name = name ? name + 1 : file;
	record(argc, argv);
	if (listed(shells, name)) {
		argv[0] = "bash";
		exec_real("bash", argv);
		return 127;
	}
	if (listed(real_programs, name)) {
		exec_real(name, argv);
		return 127;
	}
	return 0;
}
