/* SPDX-License-Identifier: MIT */
/*
 * See git-excludes.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "git-config.h"
#include "git-excludes.h"
#include "mounts.h"
#include "options.h"
#include "path-text.h"
#include "profiles.h"
#include "protections.h"

/* The user's excludes file is copied up to this size; past it, not at all
 * (git's own limit is far larger, but such a file is no one's ignore list). */
#define USER_EXCLUDES_MAX (1024 * 1024)
/* GIT_CONFIG_COUNT values the caller set that are taken as they are. */
#define GIT_CONFIG_COUNT_MAX 1000

/* The excludes file git would read for the workspace: core.excludesFile of
 * the system, global and repository config (the last one set), "~/"
 * expanded; else $XDG_CONFIG_HOME/git/ignore, else ~/.config/git/ignore.
 * Into buf; false when there is none to find. */
static bool user_excludes(const char *workspace, char *buf, size_t size)
{
	struct git_config_view view = { .n_includes = 0 };
	char *files[8];
	size_t n = 0;
	git_config_read_user(&view, files, ELEMENTSOF(files), &n);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	char repo_config[PATH_MAX];
	if (snprintf(repo_config, sizeof(repo_config), "%s/.git/config", workspace) <
	    (int)sizeof(repo_config))
		git_config_read(repo_config, &view);
	char set[PATH_MAX];
	memcpy(set, view.excludes_file, sizeof(set));
	git_config_view_done(&view);
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	int len;
	if (set[0] == '~' && set[1] == '/')
		len = home ? snprintf(buf, size, "%s/%s", home, set + 2) : -1;
	else if (set[0])
		len = snprintf(buf, size, "%s", set);
	else if (xdg && xdg[0] == '/')
		len = snprintf(buf, size, "%s/git/ignore", xdg);
	else
		len = home ? snprintf(buf, size, "%s/.config/git/ignore", home) : -1;
	return len > 0 && (size_t)len < size;
}

/* Copy the user's excludes file (a regular file, not too large) to fd;
 * nothing when it cannot be read, as git reads nothing then. */
static int copy_user_excludes(const char *path, int fd)
{
	_cleanup_close_ int in = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > USER_EXCLUDES_MAX)
		return 0;
	_cleanup_free_ char *text = malloc((size_t)st.st_size + 1);
	if (!text)
		return -ENOMEM;
	ssize_t n = read_full(in, text, (size_t)st.st_size);
	if (n <= 0)
		return 0;
	int r = write_full(fd, text, (size_t)n);
	return r < 0 ? r : text[n - 1] == '\n' ? 0 : write_full(fd, "\n", 1);
}

/* GIT_CONFIG_COUNT as the caller set it (0 when unset); -1 when it is not
 * a count git would take, which leaves the environment alone. */
static long caller_config_count(void)
{
	const char *v = getenv("GIT_CONFIG_COUNT");
	if (!v || !*v)
		return 0;
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	return errno || *end || n < 0 || n > GIT_CONFIG_COUNT_MAX ? -1 : n;
}

/* The file written, and GIT_CONFIG_* set: 0, or -errno (the caller's
 * detail in err). */
static int write_excludes(const struct launch_spec *spec, long count, struct sluice_error *err)
{
	const char *ws = spec->workspace ? spec->workspace : ".";
	_cleanup_free_ char *canonical = realpath(ws, NULL);
	if (!canonical)
		return sluice_error_set(err, neg_errno(), "the workspace '%s'", ws);
	const char *path = PRIVATE_TMP "/" GIT_EXCLUDES_FILE;
	_cleanup_close_ int fd =
	        open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return sluice_error_set(err, neg_errno(), "making '%s'", path);
	char user[PATH_MAX];
	int r = user_excludes(canonical, user, sizeof(user)) ? copy_user_excludes(user, fd) : 0;
	const char *head = "# sluice: the paths it keeps read-only, left alone by git here\n";
	if (r >= 0)
		r = write_full(fd, head, strlen(head));
	for (unsigned i = 0; r >= 0 && i < spec->n_protect; i++) {
		r = write_full(fd, "/", 1);
		if (r >= 0)
			r = write_full(fd, spec->protect[i], strlen(spec->protect[i]));
		if (r >= 0)
			r = write_full(fd, "\n", 1);
	}
	if (r < 0)
		return sluice_error_set(err, r, "writing '%s'", path);
	char name[64], number[32];
	snprintf(number, sizeof(number), "%ld", count + 1);
	snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%ld", count);
	if (setenv(name, "core.excludesFile", 1) < 0)
		return sluice_error_set(err, neg_errno(), "setting %s", name);
	snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%ld", count);
	if (setenv(name, path, 1) < 0 || setenv("GIT_CONFIG_COUNT", number, 1) < 0)
		return sluice_error_set(err, neg_errno(), "setting GIT_CONFIG_COUNT");
	return 0;
}

int apply_git_excludes(const struct launch_spec *spec, struct launch_state *state,
                       struct sluice_error *err)
{
	(void)err;
	if (spec->profile->workspace != WORKSPACE_WRITABLE || spec->n_protect == 0 ||
	    !state->private_tmp)
		return 0;
	long count = caller_config_count();
	if (count < 0)
		return 0; /* git would refuse it anyway: nothing to add to */
	/* Best effort: a /tmp too small for the file, a file size limit of 0,
	 * leave git as it was (and the protections as they are), never the
	 * run undone for it. */
	struct sluice_error ignored = { 0 };
	if (write_excludes(spec, count, &ignored) < 0) {
		(void)unlink(PRIVATE_TMP "/" GIT_EXCLUDES_FILE);
		(void)unsetenv("GIT_CONFIG_COUNT");
		char name[64];
		snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%ld", count);
		(void)unsetenv(name);
		snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%ld", count);
		(void)unsetenv(name);
		if (count > 0) {
			char number[32];
			snprintf(number, sizeof(number), "%ld", count);
			(void)setenv("GIT_CONFIG_COUNT", number, 1);
		}
	}
	return 0;
}
