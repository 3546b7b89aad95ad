/* SPDX-License-Identifier: MIT */
/*
 * The --protect paths, found in the workspace. A command may write the
 * workspace, but some of its files are run later, outside the sandbox,
 * with the user's full rights: an agent's hooks and MCP servers, an
 * editor's tasks, a hook manager's configuration. The mounts bind what
 * exists read-only (it can then be neither written, nor removed, nor
 * renamed over: a mount point is busy); what does not exist cannot be
 * covered by a mount, so a missing folder is made empty first, as for a
 * core.hooksPath folder (git-paths.c), and a missing file is left to
 * Landlock where there are no mounts (its folder made uncreatable) and to
 * the check after the run where there are.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "protected-paths.h"
#include "path-text.h"

const char *protected_paths_check(const char *entry)
{
	size_t len = strlen(entry);
	if (len == 0)
		return "an empty path";
	if (entry[0] == '/')
		return "not relative to the workspace";
	if (len >= PATH_MAX)
		return "too long";
	/* the last component: before a trailing "/", after the "/" before it */
	size_t end = entry[len - 1] == '/' ? len - 1 : len, last = end;
	while (last > 0 && entry[last - 1] != '/')
		last--;
	for (size_t i = 0; i < end;) {
		size_t n = strcspn(entry + i, "/");
		if (n == 0)
			return "an empty component";
		if ((n == 1 && entry[i] == '.') ||
		    (n == 2 && entry[i] == '.' && entry[i + 1] == '.'))
			return "a '.' or '..' component";
		if (i < last && strcspn(entry + i, "*?[") < n)
			return "wildcards outside the last component";
		i += n + 1;
	}
	return NULL;
}

static bool has_wildcard(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

struct finder {
	struct protected_paths *out;
	const char *workspace;
	struct stat ws; /* the owner of what is made */
	struct sluice_error *err;
};

/* Take path (absolute, existing) into the list in its canonical form,
 * unless it resolves outside the workspace (read-only there anyway) or to
 * the workspace itself, or is listed already. */
static int add_present(struct finder *f, const char *path)
{
	_cleanup_free_ char *c = realpath(path, NULL);
	if (!c)
		return errno == ENOENT ? 0 : sluice_error_set(f->err, neg_errno(), "'%s'", path);
	if (!path_within(c, f->workspace) || strcmp(c, f->workspace) == 0)
		return 0;
	for (size_t i = 0; i < f->out->n_present; i++)
		if (strcmp(f->out->present[i], c) == 0)
			return 0;
	if (f->out->n_present >= PROTECTED_PATHS_MAX)
		return sluice_error_set(f->err, -E2BIG, "more than %d protected paths in '%s'",
		                        PROTECTED_PATHS_MAX, f->workspace);
	f->out->present[f->out->n_present++] = TAKE_PTR(c);
	return 0;
}

static int add_absent(struct finder *f, const char *path)
{
	if (f->out->n_absent >= PROTECTED_PATTERNS_MAX)
		return sluice_error_set(f->err, -E2BIG, "more than %d protected patterns",
		                        PROTECTED_PATTERNS_MAX);
	f->out->absent[f->out->n_absent] = strdup(path);
	if (!f->out->absent[f->out->n_absent])
		return sluice_error_set(f->err, -ENOMEM, "the protected paths");
	f->out->n_absent++;
	return 0;
}

/* A missing folder entry: made empty, with the workspace's owner (only
 * root makes it as another user), when its parent exists. */
static int make_folder(struct finder *f, const char *path)
{
	if (mkdir(path, 0755) < 0)
		return errno == EEXIST ? 0 : neg_errno();
	if (geteuid() == 0 && (f->ws.st_uid != 0 || f->ws.st_gid != 0) &&
	    lchown(path, f->ws.st_uid, f->ws.st_gid) < 0)
		return sluice_error_set(f->err, neg_errno(), "giving '%s' the workspace's owner",
		                        path);
	return 0;
}

/* Every name of dir matching pattern; the pattern itself is kept too, so
 * that Landlock can keep dir uncreatable. */
static int find_pattern(struct finder *f, const char *dir, const char *pattern)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", dir, pattern) >= (int)sizeof(path))
		return sluice_error_set(f->err, -ENAMETOOLONG, "'%s/%s'", dir, pattern);
	int r = add_absent(f, path);
	if (r < 0)
		return r;
	DIR *d = opendir(dir);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR
		               ? 0
		               : sluice_error_set(f->err, neg_errno(), "reading '%s'", dir);
	for (;;) {
		errno = 0;
		const struct dirent *de = readdir(d);
		if (!de) {
			if (errno)
				r = sluice_error_set(f->err, neg_errno(), "reading '%s'", dir);
			break;
		}
		if (fnmatch(pattern, de->d_name, FNM_PERIOD) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		r = add_present(f, path);
		if (r < 0)
			break;
	}
	(void)closedir(d);
	return r;
}

static int find_entry(struct finder *f, const char *entry)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", f->workspace, entry) >= (int)sizeof(path))
		return sluice_error_set(f->err, -ENAMETOOLONG, "'%s/%s'", f->workspace, entry);
	size_t len = strlen(path);
	bool folder = path[len - 1] == '/';
	if (folder)
		path[--len] = '\0';
	char *slash = strrchr(path, '/');
	if (has_wildcard(slash + 1)) {
		*slash = '\0';
		return find_pattern(f, path, slash + 1);
	}
	struct stat st;
	if (stat(path, &st) == 0)
		return add_present(f, path);
	if (errno != ENOENT)
		return sluice_error_set(f->err, neg_errno(), "'%s'", path);
	if (folder) {
		int r = make_folder(f, path);
		if (r >= 0)
			return add_present(f, path);
		/* ENOENT: its parent is missing too; EACCES, EPERM, EROFS: the
		 * workspace is not the caller's to write, nor the command's */
		if (r != -ENOENT && r != -EACCES && r != -EPERM && r != -EROFS)
			return sluice_error_set(f->err, r, "making '%s'", path);
	}
	return add_absent(f, path);
}

int protected_paths_find(const char *workspace, const char *const *entries, size_t n,
                         struct protected_paths *ret, struct sluice_error *err)
{
	*ret = (struct protected_paths){ .n_present = 0 };
	struct finder f = { .out = ret, .workspace = workspace, .err = err };
	if (stat(workspace, &f.ws) < 0)
		return sluice_error_set(err, neg_errno(), "the workspace '%s'", workspace);
	for (size_t i = 0; i < n; i++) {
		const char *why = protected_paths_check(entries[i]);
		int r = why ? sluice_error_set(err, -EINVAL, "the protected path '%s': %s",
		                               entries[i], why)
		            : find_entry(&f, entries[i]);
		if (r < 0) {
			protected_paths_done(ret);
			return r;
		}
	}
	return 0;
}

void protected_paths_done(struct protected_paths *paths)
{
	for (size_t i = 0; i < paths->n_present; i++)
		free(paths->present[i]);
	for (size_t i = 0; i < paths->n_absent; i++)
		free(paths->absent[i]);
	paths->n_present = paths->n_absent = 0;
}
