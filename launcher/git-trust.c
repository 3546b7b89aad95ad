/* SPDX-License-Identifier: MIT */
/*
 * Whether a repository outside the workspace, which a ".git" file in it
 * names, may be made writable (git-paths.c): git registered it both ways,
 * it belongs to the caller, and no folder on its way can be renamed by
 * another user. Each check that refuses says why, once (the first reason
 * counts), in the text the launcher reports.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "git-config.h"
#include "git-trust.h"
#include "path-text.h"

/* The first line of a small regular file, without its line end, into buf:
 * a FIFO a command left in a repository cannot hang the launcher. */
static int read_line_of(const char *path, char *buf, size_t size)
{
	return read_first_line_at(AT_FDCWD, path, true, buf, size);
}

void git_trust_note(const struct git_trust *t, const char *fmt, ...)
{
	if (t->why_size == 0 || t->why[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->why, t->why_size, fmt, ap);
	va_end(ap);
}

/* The uid files of unmapped users show here when this process is in a user
 * namespace other than the first (root's among them), or -1. */
static uid_t unmapped_uid(void)
{
	char map[64] = "", overflow[16] = "";
	if (read_line_of("/proc/self/uid_map", map, sizeof(map)) < 0 ||
	    read_line_of("/proc/sys/kernel/overflowuid", overflow, sizeof(overflow)) < 0)
		return (uid_t)-1;
	unsigned long inside, outside, count;
	if (sscanf(map, "%lu %lu %lu", &inside, &outside, &count) == 3 && inside == 0 &&
	    outside == 0 && count == 4294967295UL)
		return (uid_t)-1; /* the first user namespace maps everyone */
	return (uid_t)strtoul(overflow, NULL, 10);
}

/* Whether dir (canonical) is the caller's, and no folder from / to it can
 * have its entries renamed by someone else: each owned by root or the
 * caller, and writable by no one else but through a sticky bit or the
 * caller's own group. In a user namespace root's folders show as owned by
 * the unmapped uid, which is then accepted on the way (it may also be
 * another user's: a weaker check, said in docs/launcher.md). Else notes
 * why. */
bool git_trust_owned_safely(const struct git_trust *t, const char *dir)
{
	struct stat st;
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		git_trust_note(t, "'%s' is not a folder", dir);
		return false;
	}
	if (st.st_uid != t->uid) {
		git_trust_note(t, "'%s' belongs to uid %u, not to uid %u who runs sluice", dir,
		               (unsigned)st.st_uid, (unsigned)t->uid);
		return false;
	}
	char prefix[PATH_MAX];
	size_t n = strlen(dir);
	uid_t unmapped = unmapped_uid();
	for (size_t i = 0; i <= n && i < sizeof(prefix); i++) {
		if (dir[i] != '/' && dir[i] != '\0')
			continue;
		size_t len = i ? i : 1; /* "/" first */
		memcpy(prefix, dir, len);
		prefix[len] = '\0';
		if (lstat(prefix, &st) < 0 || !S_ISDIR(st.st_mode) ||
		    (st.st_uid != 0 && st.st_uid != t->uid &&
		     (st.st_uid != unmapped || unmapped == t->uid)) ||
		    (!(st.st_mode & S_ISVTX) &&
		     ((st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != t->gid)))) {
			git_trust_note(t,
			               "'%s' on the way to '%s' could be changed by another user",
			               prefix, dir);
			return false;
		}
	}
	return true;
}

/* Whether each name exists in dir as git makes it (no symlink): what
 * protect_common_dir() would otherwise have to make. */
bool git_trust_has_names(const struct git_trust *t, const char *dir, const char *const *names,
                         size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (lstat(path, &st) < 0 || S_ISLNK(st.st_mode)) {
			git_trust_note(
			        t,
			        "'%s' has no '%s' to keep read-only, and nothing is made outside the "
			        "workspace",
			        dir, names[i]);
			return false;
		}
	}
	return true;
}

/* Whether gitdir (outside the workspace, with a commondir naming common)
 * is this worktree's as git registered it: its "gitdir" file names
 * dotgit, and common's worktrees/ lists it under its own name. */
bool git_trust_registered_worktree(const struct git_trust *t, const char *dotgit,
                                   const char *gitdir, const char *common)
{
	char text[PATH_MAX];
	_cleanup_free_ char *back_file = path_join(gitdir, "gitdir");
	if (!back_file || read_line_of(back_file, text, sizeof(text)) < 0) {
		git_trust_note(t, "'%s' has no gitdir file: not a worktree git registered", gitdir);
		return false;
	}
	_cleanup_free_ char *back = path_resolve_from(gitdir, text);
	if (!back || strcmp(back, dotgit) != 0) {
		git_trust_note(t, "'%s/gitdir' names '%s', not '%s'", gitdir, text, dotgit);
		return false;
	}
	char listed_path[PATH_MAX];
	snprintf(listed_path, sizeof(listed_path), "%s/worktrees/%s", common,
	         strrchr(gitdir, '/') + 1);
	_cleanup_free_ char *listed = realpath(listed_path, NULL);
	if (!listed || strcmp(listed, gitdir) != 0) {
		git_trust_note(t, "'%s' does not list '%s' among its worktrees", common, gitdir);
		return false;
	}
	return true;
}

/* Whether gitdir (outside the workspace, no commondir) is the repository
 * of a submodule checked out here: its core.worktree names the workspace. */
bool git_trust_registered_submodule(const struct git_trust *t, const char *gitdir)
{
	struct git_config_view own_config = { .n_includes = 0 };
	_cleanup_free_ char *config = path_join(gitdir, "config");
	if (config)
		git_config_read(config, &own_config);
	_cleanup_free_ char *worktree =
	        own_config.worktree[0] ? path_resolve_from(gitdir, own_config.worktree) : NULL;
	git_config_view_done(&own_config);
	if (!worktree || strcmp(worktree, t->workspace) != 0) {
		git_trust_note(t,
		               "'%s' does not name '%s' as its core.worktree: not a repository git "
		               "registered for it",
		               gitdir, t->workspace);
		return false;
	}
	return true;
}
