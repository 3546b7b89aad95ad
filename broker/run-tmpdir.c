/* SPDX-License-Identifier: MIT */
/*
 * Private per-run temporary directories. Removal walks with FTW_PHYS, so a
 * symlink the command left behind is removed itself, never followed out of
 * the directory; and it runs as the directory's owner, so that root removing
 * a directory another user's command wrote cannot be steered elsewhere by
 * that command swapping a directory for a symlink during the walk.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"

#include "run-tmpdir.h"
#include "user-ids.h"

/* Give the directory just made to user's uid and gid: by descriptor, so
 * that it is the directory mkdtemp() made (in the sticky /tmp only its
 * owner, this process, could have replaced it). */
static int give_to(const char *path, const char *user, struct sluice_error *reterr)
{
	struct user_ids u;
	int r = user_ids_lookup(user, &u, reterr);
	if (r == -ENOENT)
		return sluice_error_set(reterr, r, "no user '%s' to give it to", user);
	if (r < 0)
		return r;
	_cleanup_close_ int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fchown(fd, u.uid, u.gid) < 0)
		return sluice_error_set(reterr, neg_errno(), "giving it to user '%s'", user);
	return 0;
}

int run_tmpdir_create(const char *jobs_dir, const char *user, char **ret,
                      struct sluice_error *reterr)
{
	bool for_user = user && geteuid() == 0;
	char *path = NULL;
	int n = for_user ? asprintf(&path, "%s/" RUN_TMPDIR_USER_PREFIX "XXXXXX",
	                            RUN_TMPDIR_USER_BASE)
	                 : asprintf(&path, "%s/" RUN_TMPDIR_PREFIX "XXXXXX", jobs_dir);
	if (n < 0)
		return sluice_error_set(reterr, -ENOMEM, "the private TMPDIR's name");
	if (!mkdtemp(path)) {
		int r = neg_errno();
		sluice_error_set(reterr, r, "creating the private TMPDIR '%s'", path);
		free(path);
		return r;
	}
	if (for_user) {
		struct sluice_error err = { 0 };
		int r = give_to(path, user, &err);
		if (r < 0) {
			sluice_error_set(reterr, r, "the private TMPDIR '%s': %s", path,
			                 err.detail);
			(void)rmdir(path);
			free(path);
			return r;
		}
	}
	*ret = path;
	return 0;
}

/* A shared flock on the directory itself: every holder (a run, the monitor
 * of a background job that took it over) shares it; an exclusive one that
 * can be taken means none is left. */
int run_tmpdir_hold(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	if (flock(fd, LOCK_SH | LOCK_NB) < 0) {
		int r = neg_errno();
		close(fd);
		return r;
	}
	return fd;
}

bool run_tmpdir_abandoned(int dir_fd, const char *name)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	_cleanup_close_ int fd = openat(dir_fd, name, flags);
	/* Its command took the owner's read bit off (only the owner, this
	 * user, gets it back: root never meets EACCES here). */
	if (fd < 0 && errno == EACCES && fchmodat(dir_fd, name, 0700, 0) == 0)
		fd = openat(dir_fd, name, flags);
	return fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0;
}

/* The walks of make_removable() open one more level of directories the
 * command made unreadable each; past this many, what is left stays. */
#define MAX_MODE_PASSES 64

/* Whether the last make_removable() walk met a directory it could not read
 * (its mode is given back: the next walk goes into it). */
static bool unreadable_seen;

/* A command may have taken the read or write bit off a directory it made;
 * give it back (to the owner only) so its entries can be removed. */
static int make_removable(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if ((type == FTW_D || type == FTW_DNR) && (st->st_mode & 0700) != 0700)
		(void)chmod(path, 0700);
	if (type == FTW_DNR)
		unreadable_seen = true;
	return 0;
}

/* Failures are not fatal to the walk: remove what can be removed, and let
 * the caller see what is left. */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	(void)(type == FTW_DP ? rmdir(path) : unlink(path));
	return 0;
}

static int remove_pass(const char *path)
{
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0 && errno != ENOENT)
		return neg_errno();
	return access(path, F_OK) == 0 ? -ENOTEMPTY : 0;
}

static int remove_tree(const char *path)
{
	/* Usually one pass does it; a directory the command made unwritable
	 * needs its mode back first. */
	int r = remove_pass(path);
	if (r != -ENOTEMPTY)
		return r;
	for (int pass = 0; pass < MAX_MODE_PASSES; pass++) {
		unreadable_seen = false;
		if (nftw(path, make_removable, 16, FTW_PHYS | FTW_MOUNT) < 0 && errno != ENOENT)
			return neg_errno();
		if (!unreadable_seen)
			break;
	}
	return remove_pass(path);
}

/* remove_tree() in a child that has become uid and gid: the walk can then
 * reach nothing that user could not remove anyway. */
static int remove_tree_as(const char *path, uid_t uid, gid_t gid)
{
	pid_t pid = fork();
	if (pid < 0)
		return neg_errno();
	if (pid == 0) {
		const struct user_ids owner = { .uid = uid, .gid = gid }; /* no groups */
		const char *step;
		int r = user_ids_become(&owner, &step);
		_exit(-(r < 0 ? r : remove_tree(path))); /* an errno fits an exit status */
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return neg_errno();
	if (!WIFEXITED(status))
		return -ECHILD;
	return -WEXITSTATUS(status);
}

int run_tmpdir_remove(const char *path)
{
	/* Mostly the command left nothing: one rmdir, no walk. */
	if (rmdir(path) == 0 || errno == ENOENT)
		return 0;
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : neg_errno();
	/* root removing what another user's command wrote does it as them */
	if (st.st_uid != geteuid())
		return remove_tree_as(path, st.st_uid, st.st_gid);
	return remove_tree(path);
}
