/* SPDX-License-Identifier: MIT */
/*
 * The --protect paths, found in the workspace. A command may write the
 * workspace, but some of its files are run later, outside the sandbox,
 * with the user's full rights: an agent's hooks and MCP servers, an
 * editor's tasks, a hook manager's configuration. The mounts bind what
 * exists read-only (it can then be neither written, nor removed, nor
 * renamed over: a mount point is busy); what does not exist cannot be
 * covered by a mount, so a missing folder is made empty first, as for a
 * core.hooksPath folder (git-paths.c; sluice removes it again once no run
 * of the workspace covers it: broker/run/protect-folders.h), and a missing
 * file is left to Landlock where there are no mounts (its folder made
 * uncreatable) and to the check after the run where there are.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cleanup.h"
#include "launch-spec.h"
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

struct finder {
	struct protected_paths *out;
	const char *workspace;
	struct stat ws; /* the owner of what is made */
	struct sluice_error *err;
	const char *runs_lock; /* --protect-lock, or NULL */
	bool runs_held;
	/* the folder entries' parents tried (hold_parent()) */
	char *held[PROTECTED_PATTERNS_MAX];
	size_t n_held;
};

/* How long a launcher waits for a tidier that holds the runs' lock, or a
 * folder entry's parent, while it removes (a dozen rmdirs: milliseconds). */
#define RUNS_LOCK_WAIT_MS 2000
#define PARENT_LOCK_WAIT_MS 100

/* The canonical form of path, a name below the (canonical) workspace: the
 * path itself when none of its components below the workspace is a
 * symbolic link, found with one lstat each, where realpath() would read
 * every component from the root as a link (a run starts with a score of
 * these); else realpath()'s. NULL with errno set when it does not
 * resolve. */
static char *resolve_below(const struct finder *f, const char *path)
{
	size_t ws_len = strlen(f->workspace), len = strlen(path);
	char buf[PATH_MAX];
	if (ws_len <= 1 || len >= sizeof(buf) || strncmp(path, f->workspace, ws_len) != 0 ||
	    path[ws_len] != '/' || path_has_dots(path + ws_len + 1))
		return realpath(path, NULL);
	memcpy(buf, path, len + 1);
	for (size_t end = ws_len + 1; end <= len; end++) {
		if (buf[end] != '/' && buf[end] != '\0')
			continue;
		char saved = buf[end];
		buf[end] = '\0';
		struct stat st;
		bool plain = lstat(buf, &st) == 0 && !S_ISLNK(st.st_mode);
		buf[end] = saved;
		if (!plain)
			return realpath(path, NULL);
	}
	return strdup(path);
}

/* Take path (absolute, existing) into the list in its canonical form,
 * unless it resolves outside the workspace (read-only there anyway) or to
 * the workspace itself, or is listed already. */
static int add_present(struct finder *f, const char *path)
{
	_cleanup_free_ char *c = resolve_below(f, path);
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
 * root makes it as another user), when its parent exists, and marked as
 * the launcher's, so that sluice takes it away again once no run covers it
 * (a file system without user attributes keeps it, as it keeps one the
 * user made). */
static int make_folder(struct finder *f, const char *path)
{
	if (mkdir(path, 0755) < 0)
		return errno == EEXIST ? 0 : neg_errno();
	if (geteuid() == 0 && (f->ws.st_uid != 0 || f->ws.st_gid != 0) &&
	    lchown(path, f->ws.st_uid, f->ws.st_gid) < 0)
		return sluice_error_set(f->err, neg_errno(), "giving '%s' the workspace's owner",
		                        path);
	(void)lsetxattr(path, LAUNCH_MADE_XATTR, LAUNCH_MADE_XATTR_VALUE,
	                strlen(LAUNCH_MADE_XATTR_VALUE), 0);
	return 0;
}

/* Lock fd shared, trying for at most wait_ms: 0, or -errno (-EBUSY: held
 * exclusively all that time). */
static int lock_shared(int fd, int wait_ms)
{
	for (int waited = 0;; waited++) {
		if (flock(fd, LOCK_SH | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return neg_errno();
		if (waited >= wait_ms)
			return -EBUSY;
		(void)usleep(1000);
	}
}

/* Before the first folder entry is looked at: the workspace's runs' lock
 * (--protect-lock, in sluice's jobs directory, which no sandboxed command
 * sees) held shared for the run's life, so that no tidier of the same
 * jobs directory removes a folder the run covers (protect-tidy.h). Only a
 * tidier holds it exclusively, for a dozen rmdirs: one that cannot be had
 * in RUNS_LOCK_WAIT_MS refuses the run. The descriptor stays open in this
 * process (close-on-exec: the command never has it), which with a PID
 * namespace is its init, there until the run ends. */
static int hold_runs_lock(struct finder *f)
{
	if (!f->runs_lock || f->runs_held)
		return 0;
	/* read-only: a file open for writing would keep the mounts from
	 * being made read-only */
	int fd = open(f->runs_lock, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return sluice_error_set(f->err, neg_errno(), "the lock file '%s'", f->runs_lock);
	int r = lock_shared(fd, RUNS_LOCK_WAIT_MS);
	if (r < 0) {
		(void)close(fd);
		return sluice_error_set(f->err, r, "locking '%s'", f->runs_lock);
	}
	f->runs_held = true;
	return 0; /* fd deliberately left open */
}

/* The parent of a folder entry's folder (path, absolute) locked shared
 * too, for the same life, so that the tidier of another user or jobs
 * directory (which takes it exclusively) removes nothing there while the
 * run covers it (the defaults' folders share one parent, the workspace:
 * one lock). Anyone who can read the folder can lock it, a command of
 * another workspace's run among them: one that holds it exclusively for
 * PARENT_LOCK_WAIT_MS is let be (the run goes on without it; no tidier
 * can have that lock either while it is held). 0, or -errno (-ENOENT: no
 * parent). */
static int hold_parent(struct finder *f, const char *path)
{
	int r = hold_runs_lock(f);
	if (r < 0)
		return r;
	const char *slash = strrchr(path, '/');
	size_t len = slash && slash > path ? (size_t)(slash - path) : 1;
	char parent[PATH_MAX];
	if (len >= sizeof(parent))
		return sluice_error_set(f->err, -ENAMETOOLONG, "'%s'", path);
	memcpy(parent, path, len);
	parent[len] = '\0';
	for (size_t i = 0; i < f->n_held; i++)
		if (strcmp(f->held[i], parent) == 0)
			return 0;
	if (f->n_held >= PROTECTED_PATTERNS_MAX)
		return sluice_error_set(f->err, -E2BIG, "more than %d folders of protected paths",
		                        PROTECTED_PATTERNS_MAX);
	int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		r = neg_errno();
		/* as for making the folder (find_entry()) */
		return r == -ENOENT || r == -EACCES || r == -EPERM || r == -EROFS
		               ? r
		               : sluice_error_set(f->err, r, "opening '%s'", parent);
	}
	r = lock_shared(fd, PARENT_LOCK_WAIT_MS);
	if (r < 0)
		(void)close(fd); /* fd deliberately left open otherwise */
	if (r < 0 && r != -EBUSY)
		return sluice_error_set(f->err, r, "locking '%s'", parent);
	f->held[f->n_held] = strdup(parent);
	if (!f->held[f->n_held])
		return sluice_error_set(f->err, -ENOMEM, "the protected paths");
	f->n_held++;
	return 0;
}

/* Whether entry's last component is a pattern; *ret_dir_len is the length
 * of what comes before it ("a/b*": 2, "b*": 0), a trailing "/" aside. */
static bool entry_is_pattern(const char *entry, size_t *ret_dir_len, size_t *ret_len)
{
	size_t len = strlen(entry);
	if (len > 0 && entry[len - 1] == '/')
		len--;
	size_t last = len;
	while (last > 0 && entry[last - 1] != '/')
		last--;
	*ret_dir_len = last;
	*ret_len = len;
	return strcspn(entry + last, "*?[") < len - last;
}

/* Every name of dir matching one of the patterns, the folder read once
 * for all of them (the defaults have five in the workspace); each pattern
 * itself is kept too, so that Landlock can keep dir uncreatable. */
static int find_patterns(struct finder *f, const char *dir, char *const *patterns, size_t n)
{
	char path[PATH_MAX];
	int r = 0;
	for (size_t i = 0; r >= 0 && i < n; i++) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, patterns[i]) >= (int)sizeof(path))
			return sluice_error_set(f->err, -ENAMETOOLONG, "'%s/%s'", dir, patterns[i]);
		r = add_absent(f, path);
	}
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
		size_t i = 0;
		while (i < n && fnmatch(patterns[i], de->d_name, FNM_PERIOD) != 0)
			i++;
		if (i == n)
			continue;
		r = snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) < (int)sizeof(path)
		            ? add_present(f, path)
		            : sluice_error_set(f->err, -ENAMETOOLONG, "'%s/%s'", dir, de->d_name);
		if (r < 0)
			break;
	}
	(void)closedir(d);
	return r;
}

/* The pattern entries[first] and every later one in the same folder. */
static int find_pattern_group(struct finder *f, const char *const *entries, size_t n, size_t first)
{
	size_t dir_len, len;
	(void)entry_is_pattern(entries[first], &dir_len, &len);
	char *patterns[PROTECTED_PATTERNS_MAX];
	size_t n_patterns = 0;
	int r = 0;
	for (size_t i = first; i < n && n_patterns < PROTECTED_PATTERNS_MAX; i++) {
		size_t d, l;
		if (!entry_is_pattern(entries[i], &d, &l) || d != dir_len ||
		    strncmp(entries[i], entries[first], dir_len) != 0)
			continue;
		patterns[n_patterns] = strndup(entries[i] + d, l - d);
		if (!patterns[n_patterns]) {
			r = sluice_error_set(f->err, -ENOMEM, "the protected paths");
			break;
		}
		n_patterns++;
	}
	char dir[PATH_MAX];
	/* the folder without its trailing "/" ("" for the workspace itself) */
	size_t folder_len = dir_len > 0 ? dir_len - 1 : 0;
	if (r >= 0 && snprintf(dir, sizeof(dir), "%s%s%.*s", f->workspace, dir_len ? "/" : "",
	                       (int)folder_len, entries[first]) >= (int)sizeof(dir))
		r = sluice_error_set(f->err, -ENAMETOOLONG, "'%s/%s'", f->workspace,
		                     entries[first]);
	if (r >= 0)
		r = find_patterns(f, dir, patterns, n_patterns);
	for (size_t i = 0; i < n_patterns; i++)
		free(patterns[i]);
	return r;
}

/* Whether an earlier entry is a pattern in the same folder as entries[i]
 * (a pattern): that one's group took it already. */
static bool grouped_before(const char *const *entries, size_t i)
{
	size_t dir_len, len;
	(void)entry_is_pattern(entries[i], &dir_len, &len);
	for (size_t j = 0; j < i; j++) {
		size_t d, l;
		if (entry_is_pattern(entries[j], &d, &l) && d == dir_len &&
		    strncmp(entries[j], entries[i], dir_len) == 0)
			return true;
	}
	return false;
}

static int find_entry(struct finder *f, const char *const *entries, size_t n, size_t i)
{
	size_t dir_len, len;
	if (entry_is_pattern(entries[i], &dir_len, &len))
		return grouped_before(entries, i) ? 0 : find_pattern_group(f, entries, n, i);
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", f->workspace, entries[i]) >= (int)sizeof(path))
		return sluice_error_set(f->err, -ENAMETOOLONG, "'%s/%s'", f->workspace, entries[i]);
	size_t path_len = strlen(path);
	bool folder = path[path_len - 1] == '/';
	if (folder)
		path[--path_len] = '\0';
	struct stat st;
	bool exists = stat(path, &st) == 0;
	if (!exists && errno != ENOENT)
		return sluice_error_set(f->err, neg_errno(), "'%s'", path);
	if (folder && (!exists || S_ISDIR(st.st_mode))) {
		int r = hold_parent(f, path);
		if (r < 0 && r != -ENOENT && r != -EACCES && r != -EPERM && r != -EROFS)
			return r; /* said */
		/* looked at again under the lock: a tidier may have removed it
		 * since the stat() above (notes-redteam/50-start-race.sh) */
		if (r >= 0 && (!exists || stat(path, &st) < 0))
			r = make_folder(f, path);
		if (r >= 0)
			return add_present(f, path);
		/* ENOENT: its parent is missing too; EACCES, EPERM, EROFS: the
		 * workspace is not the caller's to write, nor the command's */
		if (r != -ENOENT && r != -EACCES && r != -EPERM && r != -EROFS)
			return sluice_error_set(f->err, r, "making '%s'", path);
	}
	return exists ? add_present(f, path) : add_absent(f, path);
}

int protected_paths_find(const char *workspace, const char *const *entries, size_t n,
                         const char *runs_lock, struct protected_paths *ret,
                         struct sluice_error *err)
{
	*ret = (struct protected_paths){ .n_present = 0 };
	struct finder f = {
		.out = ret, .workspace = workspace, .err = err, .runs_lock = runs_lock
	};
	/* a folder's group of patterns has PROTECTED_PATTERNS_MAX slots: refused
	 * here rather than patterns left out of it */
	if (n > PROTECTED_PATTERNS_MAX)
		return sluice_error_set(err, -E2BIG, "more than %d protected paths",
		                        PROTECTED_PATTERNS_MAX);
	if (stat(workspace, &f.ws) < 0)
		return sluice_error_set(err, neg_errno(), "the workspace '%s'", workspace);
	int r = 0;
	for (size_t i = 0; i < n; i++) {
		const char *why = protected_paths_check(entries[i]);
		r = why ? sluice_error_set(err, -EINVAL, "the protected path '%s': %s", entries[i],
		                           why)
		        : find_entry(&f, entries, n, i);
		if (r < 0) {
			protected_paths_done(ret);
			break;
		}
	}
	for (size_t i = 0; i < f.n_held; i++)
		free(f.held[i]);
	return r;
}

void protected_paths_done(struct protected_paths *paths)
{
	for (size_t i = 0; i < paths->n_present; i++)
		free(paths->present[i]);
	for (size_t i = 0; i < paths->n_absent; i++)
		free(paths->absent[i]);
	paths->n_present = paths->n_absent = 0;
}
