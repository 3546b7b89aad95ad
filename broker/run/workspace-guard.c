/* SPDX-License-Identifier: MIT */
/*
 * The directories a sandboxed command may not have as its workspace
 * (workspace-guard.h).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/workspace-guard.h"
#include "path-text.h"

/* The most symbolic links followed to where a missing path would be. */
#define GUARD_MAX_LINKS 40

/* Append the components of rest (slashes collapsed) to the canonical
 * directory in out. Returns 0, or -EINVAL for a "." or ".." component
 * (nothing says where it leads before it exists), or -ENAMETOOLONG. */
static int append_rest(char out[PATH_MAX], const char *rest)
{
	size_t len = strlen(out);
	while (*rest) {
		while (*rest == '/')
			rest++;
		size_t n = strcspn(rest, "/");
		if (n == 0)
			break;
		if ((n == 1 && rest[0] == '.') || (n == 2 && rest[0] == '.' && rest[1] == '.'))
			return -EINVAL;
		bool slash = len == 0 || out[len - 1] != '/';
		if (len + slash + n >= PATH_MAX)
			return -ENAMETOOLONG;
		if (slash)
			out[len++] = '/';
		memcpy(out + len, rest, n);
		len += n;
		out[len] = '\0';
		rest += n;
	}
	return 0;
}

/* The absolute path, its symbolic links resolved, that path names or would
 * name once created, into out: its deepest existing directory, resolved,
 * with the rest of it appended; a dangling symbolic link on the way is
 * followed to its target. A path that exists costs one lstat and realpath().
 * Returns 0, or -errno (it could not be told). */
static int resolve(const char *path, char out[PATH_MAX])
{
	char work[PATH_MAX], target[PATH_MAX];
	if (strlen(path) >= sizeof(work))
		return -ENAMETOOLONG;
	strcpy(work, path);
	for (int links = 0; links <= GUARD_MAX_LINKS; links++) {
		/* work[0..cut) is the prefix tried, work + cut the rest */
		size_t cut = strlen(work);
		struct stat st;
		bool dangling = false;
		for (;;) {
			char saved = work[cut];
			work[cut] = '\0';
			int r = lstat(work, &st) < 0 ? neg_errno() : 0;
			if (r == 0 && S_ISLNK(st.st_mode) && stat(work, &st) < 0) {
				r = neg_errno();
				dangling = r == -ENOENT;
			}
			work[cut] = saved;
			if (r == 0 || dangling)
				break;
			if (r != -ENOENT || cut <= 1 || work[0] != '/')
				return r; /* a relative one only where it exists */
			while (cut > 1 && work[cut - 1] != '/')
				cut--; /* back to the component's slash ... */
			while (cut > 1 && work[cut - 1] == '/')
				cut--; /* ... and before it, but "/" stays */
		}
		if (!dangling) {
			char saved = work[cut];
			work[cut] = '\0';
			bool found = realpath(work, out) != NULL;
			work[cut] = saved;
			return found ? append_rest(out, work + cut) : neg_errno();
		}
		/* a link to what does not exist: its target, then the rest */
		char saved = work[cut];
		work[cut] = '\0';
		ssize_t n = readlink(work, target, sizeof(target) - 1);
		work[cut] = saved;
		if (n < 0)
			return neg_errno();
		target[n] = '\0';
		char next[PATH_MAX];
		size_t dir = cut;
		while (dir > 0 && work[dir - 1] != '/')
			dir--; /* the link's directory: work[0..dir) */
		int len = target[0] == '/'
		                  ? snprintf(next, sizeof(next), "%s%s", target, work + cut)
		                  : snprintf(next, sizeof(next), "%.*s%s%s", (int)dir, work, target,
		                             work + cut);
		if (len < 0 || (size_t)len >= sizeof(next))
			return -ENAMETOOLONG;
		strcpy(work, next);
	}
	return -ELOOP;
}

/* path, with its symbolic links resolved, into buf: where it is, or where
 * it would be once created, so that a directory reached through a link
 * into the workspace is seen before a command creates it there. As
 * written when that cannot be told. */
static const char *canonical(const char *path, char buf[PATH_MAX])
{
	return resolve(path, buf) == 0 ? buf : path;
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
		if (path_within(h, root))
			return sluice_error_set(
			        reterr, -EPERM,
			        "the workspace '%s' holds the home directory %s, whose files "
			        "(~/.bashrc, ~/.ssh, ...) a sandboxed command must not write; "
			        "run in a project directory inside it",
			        root, h);
	}
	for (size_t i = 0; i < n_config_dirs; i++) {
		const char *c = canonical(config_dirs[i], buf);
		const char *how = strcmp(root, c) == 0   ? "is"
		                  : path_within(c, root) ? "holds"
		                  : path_within(root, c) ? "lies inside"
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

int workspace_guard_check_writable(const char *const *writable, size_t n_writable,
                                   const char *const *config_dirs, size_t n_config_dirs,
                                   struct sluice_error *reterr)
{
	if (n_writable == 0)
		return 0; /* nothing more is writable (the default): nothing to resolve */
	char cbuf[PATH_MAX], wbuf[PATH_MAX];
	for (size_t i = 0; i < n_config_dirs; i++) {
		struct stat st;
		if (stat(config_dirs[i], &st) == 0)
			continue; /* the launcher keeps it read-only */
		const char *c = canonical(config_dirs[i], cbuf);
		for (size_t j = 0; j < n_writable; j++) {
			const char *w = canonical(writable[j], wbuf);
			if (path_within(c, w))
				return sluice_error_set(
				        reterr, -EPERM,
				        "the writable path '%s' holds sluice's configuration "
				        "directory %s, which does not exist yet: a sandboxed command "
				        "could create it there; create the directory (it is then kept "
				        "read-only) or leave the path out of [sandbox] writable",
				        writable[j], c);
		}
	}
	return 0;
}
