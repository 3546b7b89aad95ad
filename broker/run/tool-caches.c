/* SPDX-License-Identifier: MIT */
/*
 * The workspaces' tool caches. A folder is held by a shared flock(2) on it
 * for as long as a run or a job uses it (run_tmpdir_hold()'s rule); the
 * tidy claims one with an exclusive lock (run_tmpdir_claim()) before it
 * removes it, so a held folder is never removed, and a run that waited for
 * the lock finds the folder it opened gone (no links) and makes it anew.
 * A folder's time of use is its modification time, set as a run opens it.
 * Each folder is claimed by its workspace (workspace-key.h) by a file
 * beside it, in the folder of all of them, which sandboxed commands cannot
 * write; the tidy leaves the claims.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "run/jobs.h"
#include "run/run-tmpdir.h"
#include "run/tool-caches.h"
#include "run/workspace-key.h"

/* Each tool's variable and the folder it gets in the workspace's (the XDG
 * ones hold what many tools keep by default: pip's, pre-commit's, Go's
 * build cache, uv's, deno's ...). pnpm's store is named by pnpm's own
 * prefix (pnpm 11 and later read pnpm_config_*): npm_config_store_dir
 * would make npm warn of an unknown setting at every command. Cargo has
 * no variable here: CARGO_HOME also holds the user's configuration and
 * installed programs, which a folder of its own would lose; its caches are
 * overlaid instead (below). */
static const struct {
	const char *name, *folder;
} tool_vars[] = {
	{ "XDG_CACHE_HOME", "xdg-cache" },
	{ "XDG_STATE_HOME", "xdg-state" },
	{ "PIP_CACHE_DIR", "xdg-cache/pip" },
	{ "PRE_COMMIT_HOME", "xdg-cache/pre-commit" },
	{ "GOCACHE", "xdg-cache/go-build" },
	{ "GOMODCACHE", "go-mod" },
	{ "npm_config_cache", "npm" },
	{ "YARN_CACHE_FOLDER", "yarn" },
	{ "BUN_INSTALL_CACHE_DIR", "bun" },
	{ "CCACHE_DIR", "xdg-cache/ccache" },
	{ "pnpm_config_store_dir", "pnpm-store" },
};
_Static_assert(sizeof(tool_vars) / sizeof(tool_vars[0]) <= TOOL_CACHES_VARS,
               "TOOL_CACHES_VARS has room for every variable");

/* cargo's downloaded crates and git checkouts (CARGO_HOME itself also
 * holds the user's config.toml and installed programs), Maven's and
 * Gradle's downloads (their homes hold the settings and passwords, which
 * the hide list covers): each holds nothing but what the tool fetched. */
static const char *const overlaid[] = {
	".cargo/registry",
	".cargo/git",
	".m2/repository",
	".gradle/caches",
};

const char *const *tool_caches_overlaid(size_t *n)
{
	*n = sizeof(overlaid) / sizeof(overlaid[0]);
	return overlaid;
}

/* How often a run that waited for a tidy finds its folder gone and makes
 * it again before it gives up. */
#define OPEN_ATTEMPTS 3
/* How deep the size walk goes (a descriptor per level); deeper is not
 * counted. */
#define SIZE_WALK_DEPTH 64
/* The most workspaces' folders one tidy weighs; more wait for the next. */
#define TIDY_MAX 4096

static uint64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int tool_caches_root(const char *jobs_dir, char **ret)
{
	const char *slash = strrchr(jobs_dir, '/');
	size_t parent = slash ? (size_t)(slash - jobs_dir) : 0;
	return asprintf(ret, "%.*s/" TOOL_CACHES_DIR, (int)parent, jobs_dir) < 0 ? -ENOMEM : 0;
}

int tool_caches_hold(const char *path)
{
	return run_tmpdir_hold(path);
}

/* Open path (a folder of this user's) held shared, waiting for a tidy that
 * claims it; -ESTALE when the tidy removed it meanwhile. */
static int hold_waiting(const char *path, struct sluice_error *reterr)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return sluice_error_set(reterr, neg_errno(), "opening '%s'", path);
	int r;
	while ((r = flock(fd, LOCK_SH)) < 0 && errno == EINTR)
		;
	if (r < 0)
		return sluice_error_set(reterr, neg_errno(), "locking '%s'", path);
	struct stat st;
	if (fstat(fd, &st) < 0)
		return sluice_error_set(reterr, neg_errno(), "'%s'", path);
	if (st.st_nlink == 0)
		return -ESTALE;
	if (st.st_uid != geteuid())
		return sluice_error_set(reterr, -EPERM, "'%s' is not this user's", path);
	/* its time of use, which the tidy goes by */
	if (futimens(fd, NULL) < 0)
		return sluice_error_set(reterr, neg_errno(), "marking '%s' as used", path);
	return TAKE_FD(fd);
}

/* mkdir path 0700, or take it as it is when it is a folder of this user's,
 * its mode made 0700 again: the folder is writable in the sandbox, where a
 * command can chmod it (Landlock does not cover modes), and a folder left
 * 0755 or 0000 would otherwise refuse every later run of the workspace.
 * Its parent is not writable there, so what lstat saw is what chmod
 * changes. */
static int workspace_dir(const char *path, struct sluice_error *reterr)
{
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return sluice_error_set(reterr, neg_errno(), "creating '%s'", path);
	struct stat st;
	if (lstat(path, &st) < 0)
		return sluice_error_set(reterr, neg_errno(), "'%s'", path);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return sluice_error_set(reterr, -EPERM, "'%s' is not a directory of this user",
		                        path);
	if ((st.st_mode & 07777) != 0700 && chmod(path, 0700) < 0)
		return sluice_error_set(reterr, neg_errno(), "making '%s' private (0700)", path);
	return 0;
}

/* The folder at path, made when missing and held: its descriptor, or
 * -errno with reterr saying why. */
static int open_held(const char *path, struct sluice_error *reterr)
{
	int r = 0;
	for (int i = 0; i < OPEN_ATTEMPTS; i++) {
		r = workspace_dir(path, reterr);
		if (r < 0)
			return r;
		r = hold_waiting(path, reterr);
		if (r != -ESTALE)
			return r;
	}
	return sluice_error_set(reterr, r, "'%s' was removed as it was opened", path);
}

int tool_caches_open(const char *jobs_dir, const char *workspace, char **ret_path, int *ret_hold,
                     struct sluice_error *reterr)
{
	_cleanup_free_ char *root = NULL;
	if (tool_caches_root(jobs_dir, &root) < 0)
		return sluice_error_set(reterr, -ENOMEM, "the tool caches' path");
	int r = jobs_private_dir(root, reterr);
	if (r < 0)
		return r;
	/* the claim is read while the folder is held: a tidy, which removes a
	 * folder only while none holds it, cannot remove it in between */
	for (unsigned probe = 0; probe < WORKSPACE_KEY_PROBES; probe++) {
		_cleanup_free_ char *path = NULL, *claim = NULL;
		if (workspace_key_paths(root, "", "", workspace, probe, &path, &claim) < 0)
			return sluice_error_set(reterr, -ENOMEM, "the tool caches' path");
		_cleanup_close_ int hold = open_held(path, reterr);
		if (hold < 0)
			return hold;
		r = workspace_claim(claim, workspace, reterr);
		if (r >= 0) {
			*ret_hold = TAKE_FD(hold);
			*ret_path = TAKE_PTR(path);
			return 0;
		}
		if (r != -EEXIST)
			return r;
	}
	/* every probe another workspace's (the last one's claim named) */
	return r;
}

int tool_caches_environment(const char *path, char **env, size_t *n)
{
	for (size_t i = 0; i < sizeof(tool_vars) / sizeof(tool_vars[0]); i++) {
		char *entry;
		if (asprintf(&entry, "%s=%s/%s", tool_vars[i].name, path, tool_vars[i].folder) < 0)
			return -ENOMEM;
		env[(*n)++] = entry;
	}
	return 0;
}

/* The bytes the tree at dir_fd/name takes on disk (its blocks), never
 * following a symlink nor leaving its file system. */
static uint64_t tree_size(int dir_fd, const char *name, dev_t dev, unsigned depth)
{
	struct stat st;
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_dev != dev)
		return 0;
	uint64_t size = (uint64_t)st.st_blocks * 512;
	if (!S_ISDIR(st.st_mode) || depth >= SIZE_WALK_DEPTH)
		return size;
	int fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			(void)close(fd);
		return size;
	}
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			size += tree_size(dirfd(d), de->d_name, dev, depth + 1);
	closedir(d);
	return size;
}

struct cache_entry {
	char name[32];
	uint64_t used_ms, size;
};

/* Oldest use first. */
static int by_use(const void *a, const void *b)
{
	uint64_t x = ((const struct cache_entry *)a)->used_ms;
	uint64_t y = ((const struct cache_entry *)b)->used_ms;
	return x < y ? -1 : x > y;
}

/* Whether name is a workspace's folder's: 16 hexadecimal digits. */
static bool cache_name(const char *name)
{
	return strlen(name) == 16 && strspn(name, "0123456789abcdef") == 16;
}

int tool_caches_tidy(const char *jobs_dir, uint64_t max_bytes)
{
	_cleanup_free_ char *root = NULL;
	if (tool_caches_root(jobs_dir, &root) < 0)
		return -ENOMEM;
	DIR *d = opendir(root);
	if (!d)
		return errno == ENOENT ? 0 : neg_errno();
	struct stat root_st;
	_cleanup_free_ struct cache_entry *entries = NULL;
	size_t n = 0;
	uint64_t total = 0;
	if (fstat(dirfd(d), &root_st) < 0 || !(entries = calloc(TIDY_MAX, sizeof(*entries)))) {
		int r = errno ? neg_errno() : -ENOMEM;
		closedir(d);
		return r;
	}
	struct dirent *de;
	while (n < TIDY_MAX && (de = readdir(d))) {
		struct stat st;
		if (!cache_name(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		struct cache_entry *e = &entries[n++];
		snprintf(e->name, sizeof(e->name), "%s", de->d_name);
		e->used_ms =
		        (uint64_t)st.st_mtim.tv_sec * 1000 + (uint64_t)st.st_mtim.tv_nsec / 1000000;
		e->size = tree_size(dirfd(d), de->d_name, root_st.st_dev, 0);
		total += e->size;
	}
	qsort(entries, n, sizeof(*entries), by_use);
	int removed = 0;
	for (size_t i = 0; i < n && total > max_bytes; i++) {
		/* claimed (no run holds it, none can start to) until removed */
		_cleanup_close_ int claim = run_tmpdir_claim(dirfd(d), entries[i].name);
		if (claim < 0)
			continue;
		_cleanup_free_ char *path = NULL;
		if (asprintf(&path, "%s/%s", root, entries[i].name) < 0)
			break;
		if (run_tmpdir_remove(path) == 0) {
			total -= entries[i].size;
			removed++;
		}
	}
	closedir(d);
	return removed;
}

int tool_caches_tidy_due(const char *jobs_dir, uint64_t max_bytes)
{
	_cleanup_free_ char *root = NULL, *stamp = NULL;
	if (tool_caches_root(jobs_dir, &root) < 0 ||
	    asprintf(&stamp, "%s/" TOOL_CACHES_STAMP, root) < 0)
		return -ENOMEM;
	struct stat st;
	uint64_t now = wall_ms();
	if (stat(stamp, &st) == 0 &&
	    (uint64_t)st.st_mtim.tv_sec * 1000 + TOOL_CACHES_TIDY_INTERVAL_MS > now)
		return 0;
	_cleanup_close_ int fd = open(stamp, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || futimens(fd, NULL) < 0)
		return neg_errno();
	return tool_caches_tidy(jobs_dir, max_bytes);
}
