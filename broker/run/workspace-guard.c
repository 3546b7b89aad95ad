/* SPDX-License-Identifier: MIT */
/*
 * The directories a sandboxed command may not have as its workspace
 * (workspace-guard.h).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "run/workspace-guard.h"

/* Whether dir is path itself or one of the directories above it. */
static bool holds(const char *dir, const char *path)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '/')
		return true;
	return strncmp(dir, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* path, with its symbolic links resolved when it exists, into buf. A path
 * that does not exist (sluice's configuration directories, often) is
 * found so with one stat, not a readlink for each of its components. */
static const char *canonical(const char *path, char buf[PATH_MAX])
{
	struct stat st;
	if (stat(path, &st) < 0)
		return path;
	return realpath(path, buf) ? buf : path;
}

int workspace_guard_check(const char *root, const char *home, const char *const *config_dirs,
                          size_t n_config_dirs, struct sluice_error *reterr)
{
	char buf[PATH_MAX];
	if (strcmp(root, "/") == 0)
		return sluice_error_set(reterr, -EPERM,
		                        "the workspace '/' holds every file of the system, which "
		                        "a sandboxed command must not write; run in a project "
		                        "directory");
	if (home && *home == '/') {
		const char *h = canonical(home, buf);
		if (holds(root, h))
			return sluice_error_set(
			        reterr, -EPERM,
			        "the workspace '%s' holds the home directory %s, whose files "
			        "(~/.bashrc, ~/.ssh, ...) a sandboxed command must not write; "
			        "run in a project directory inside it",
			        root, h);
	}
	for (size_t i = 0; i < n_config_dirs; i++) {
		const char *c = canonical(config_dirs[i], buf);
		const char *how = strcmp(root, c) == 0 ? "is"
		                  : holds(root, c)     ? "holds"
		                  : holds(c, root)     ? "lies inside"
		                                       : NULL;
		if (how)
			return sluice_error_set(reterr, -EPERM,
			                        "the workspace '%s' %s sluice's configuration "
			                        "directory %s, which a sandboxed command must not "
			                        "write; run in a project directory elsewhere",
			                        root, how, c);
	}
	return 0;
}
