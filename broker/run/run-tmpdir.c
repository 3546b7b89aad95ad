/* SPDX-License-Identifier: MIT */
/*
 * Private per-run temporary directories. Removal goes by descriptor: each
 * name is removed or opened relative to its directory's descriptor, never
 * through a symlink, so a command still running (a survivor) that swaps a
 * directory for a symlink to elsewhere during the walk cannot steer it out
 * of the tree. And it runs as the directory's owner, so that root removing
 * what another user's command wrote can reach nothing that user could not.
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
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"

#include "run/run-tmpdir.h"
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

/* Whether the directory open as fd has nothing in it. */
static bool directory_empty(int fd)
{
	char buf[512] __attribute__((aligned(8)));
	ssize_t n = getdents64(fd, buf, sizeof(buf));
	for (ssize_t off = 0; n > 0 && off < n;) {
		const struct dirent64 *d = (const struct dirent64 *)(void *)(buf + off);
		if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0)
			return false;
		off += d->d_reclen;
	}
	return n >= 0;
}

/* A fresh name DIR/tmp-XXXXXX, for the spare or a fallback (not made). */
static char *fresh_name(const char *dir)
{
	static const char letters[] =
	        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char random[6];
	if (getrandom(random, sizeof(random), 0) != (ssize_t)sizeof(random))
		return NULL;
	char tail[sizeof(random) + 1];
	for (size_t i = 0; i < sizeof(random); i++)
		tail[i] = letters[random[i] % (sizeof(letters) - 1)];
	tail[sizeof(random)] = '\0';
	char *path = NULL;
	return asprintf(&path, "%s/" RUN_TMPDIR_PREFIX "%s", dir, tail) < 0 ? NULL : path;
}

/* Take the spare: held first (the sweep of abandoned TMPDIRs leaves a held
 * one alone), then renamed to a fresh tmp- name, then checked (a
 * directory of this user's and group's, as one made now would be (the
 * launcher gives its tmpfs the directory's owner, and an unmapped group
 * fails in a user namespace), the one renamed, empty; its mode 0700
 * again).
 * Returns 0, or -errno when there is none to take (a spare that fails a
 * check is removed). */
static int take_spare(const char *jobs_dir, char **ret, int *ret_hold)
{
	_cleanup_free_ char *spare = NULL, *path = NULL;
	if (asprintf(&spare, "%s/" RUN_TMPDIR_SPARE, jobs_dir) < 0)
		return -ENOMEM;
	_cleanup_close_ int fd = run_tmpdir_hold(spare);
	if (fd < 0)
		return fd;
	path = fresh_name(jobs_dir);
	if (!path)
		return -ENOMEM;
	if (renameat2(AT_FDCWD, spare, AT_FDCWD, path, RENAME_NOREPLACE) < 0)
		return neg_errno(); /* another run took it first */
	struct stat held, named;
	if (fstat(fd, &held) < 0 || lstat(path, &named) < 0 || held.st_ino != named.st_ino ||
	    held.st_dev != named.st_dev || !S_ISDIR(held.st_mode) || held.st_uid != geteuid() ||
	    held.st_gid != getegid() || fchmod(fd, 0700) < 0 || !directory_empty(fd)) {
		(void)run_tmpdir_remove(path);
		return -ESTALE;
	}
	*ret = TAKE_PTR(path);
	*ret_hold = TAKE_FD(fd);
	return 0;
}

int run_tmpdir_share(const char *jobs_dir, char **ret_point, char **ret_fallback, int *ret_hold,
                     struct sluice_error *reterr)
{
	*ret_point = *ret_fallback = NULL;
	*ret_hold = -1;
	_cleanup_free_ char *point = NULL, *fallback = NULL;
	if (asprintf(&point, "%s/" RUN_TMPDIR_SHARED, jobs_dir) < 0)
		return sluice_error_set(reterr, -ENOMEM, "the shared TMPDIR's name");
	_cleanup_close_ int fd = run_tmpdir_hold(point);
	if (fd == -ENOENT && (mkdir(point, 0700) == 0 || errno == EEXIST))
		fd = run_tmpdir_hold(point);
	if (fd < 0)
		return sluice_error_set(reterr, fd, "holding the shared TMPDIR '%s'", point);
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || st.st_gid != getegid())
		return sluice_error_set(reterr, -ESTALE,
		                        "the shared TMPDIR '%s' is not this user's", point);
	/* a command without a tmpfs over it (a fallback's) may have changed
	 * its mode, which Landlock does not govern: 0700 again, or the next
	 * launcher could not make its fallback there */
	if ((st.st_mode & 07777) != 0700 && fchmod(fd, 0700) < 0)
		return sluice_error_set(reterr, neg_errno(), "the shared TMPDIR '%s'", point);
	fallback = fresh_name(point);
	if (!fallback)
		return sluice_error_set(reterr, -ENOMEM, "a name in the shared TMPDIR '%s'", point);
	*ret_point = TAKE_PTR(point);
	*ret_fallback = TAKE_PTR(fallback);
	*ret_hold = TAKE_FD(fd);
	return 0;
}

int run_tmpdir_release(const char *path, bool unseen)
{
	const char *name = strrchr(path, '/');
	if (unseen && name &&
	    strncmp(name + 1, RUN_TMPDIR_PREFIX, strlen(RUN_TMPDIR_PREFIX)) == 0) {
		_cleanup_free_ char *spare = NULL;
		if (asprintf(&spare, "%.*s/" RUN_TMPDIR_SPARE, (int)(name - path), path) < 0)
			return -ENOMEM;
		if (renameat2(AT_FDCWD, path, AT_FDCWD, spare, RENAME_NOREPLACE) == 0)
			return 0;
	}
	return run_tmpdir_remove(path);
}

static int make_tmpdir(const char *jobs_dir, const char *user, char **ret,
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

int run_tmpdir_create(const char *jobs_dir, const char *user, char **ret, int *ret_hold,
                      struct sluice_error *reterr)
{
	*ret = NULL;
	*ret_hold = -1;
	if (!(user && geteuid() == 0) && take_spare(jobs_dir, ret, ret_hold) == 0)
		return 0;
	int r = make_tmpdir(jobs_dir, user, ret, reterr);
	if (r < 0)
		return r;
	*ret_hold = run_tmpdir_hold(*ret);
	if (*ret_hold < 0) {
		r = sluice_error_set(reterr, *ret_hold, "holding the private TMPDIR '%s'", *ret);
		(void)run_tmpdir_remove(*ret);
		free(*ret);
		*ret = NULL;
		return r;
	}
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

/* Give the directory dir_fd/name its owner's bits back, without following
 * a symlink swapped in for it: by an O_PATH descriptor of exactly that
 * directory, through /proc (chmod has no nofollow of its own). */
static int chmod_dir_nofollow(int dir_fd, const char *name, mode_t mode)
{
	_cleanup_close_ int fd =
	        openat(dir_fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return chmod(proc, mode) < 0 ? neg_errno() : 0;
}

int run_tmpdir_claim(int dir_fd, const char *name)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	_cleanup_close_ int fd = openat(dir_fd, name, flags);
	/* Its command took the owner's read bit off (only the owner, this
	 * user, gets it back: root never meets EACCES here). */
	if (fd < 0 && errno == EACCES && chmod_dir_nofollow(dir_fd, name, 0700) == 0)
		fd = openat(dir_fd, name, flags);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0)
		return neg_errno();
	return TAKE_FD(fd);
}

bool run_tmpdir_abandoned(int dir_fd, const char *name)
{
	_cleanup_close_ int fd = run_tmpdir_claim(dir_fd, name);
	return fd >= 0;
}

#ifdef SLUICE_TEST_HOOKS
void (*run_tmpdir_before_open_hook)(int dir_fd, const char *name);
#define BEFORE_OPEN(dir_fd, name)                                  \
	do {                                                       \
		if (run_tmpdir_before_open_hook)                   \
			run_tmpdir_before_open_hook(dir_fd, name); \
	} while (0)
#else
#define BEFORE_OPEN(dir_fd, name) ((void)0)
#endif

/* How deep remove_tree() goes (a descriptor per level); deeper stays. */
#define MAX_REMOVE_DEPTH 128
/* Passes over one directory: a survivor may still be adding entries. */
#define MAX_DIR_PASSES 3

/* Open dir_fd/name to remove what is in it: a directory, never through a
 * symlink, and on the file system *dev (the top: any, stored in *dev); its
 * owner's bits given back if the command took them. -errno when it cannot
 * be entered. */
static int open_to_empty(int dir_fd, const char *name, dev_t *dev, bool top)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(dir_fd, name, flags);
	if (fd < 0 && errno == EACCES && chmod_dir_nofollow(dir_fd, name, 0700) == 0)
		fd = openat(dir_fd, name, flags);
	if (fd < 0)
		return neg_errno();
	struct stat st;
	if (fstat(fd, &st) < 0 || (!top && st.st_dev != *dev)) {
		close(fd);
		return -EXDEV;
	}
	*dev = st.st_dev;
	if ((st.st_mode & 0700) != 0700)
		(void)fchmod(fd, 0700);
	return fd;
}

/* Remove what is in the directory dir_fd, depth first, every step by name
 * relative to the directory's descriptor: a symlink is removed itself, and
 * a directory the command (perhaps still running) swaps for a symlink is
 * never followed out of the tree. Failures are not fatal: what can be
 * removed is, and the caller's rmdir() says whether anything is left. */
static void empty_dir(int dir_fd, dev_t dev, unsigned depth)
{
	for (int pass = 0; pass < MAX_DIR_PASSES; pass++) {
		int list_fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *d = list_fd >= 0 ? fdopendir(list_fd) : NULL;
		if (!d) {
			safe_close(list_fd);
			return;
		}
		bool left = false;
		struct dirent *e;
		while ((e = readdir(d))) {
			const char *name = e->d_name;
			if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
				continue;
			if (unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT)
				continue;
			if ((errno != EISDIR && errno != EPERM) || depth >= MAX_REMOVE_DEPTH) {
				left = true;
				continue;
			}
			BEFORE_OPEN(dir_fd, name);
			int sub = open_to_empty(dir_fd, name, &dev, false);
			if (sub >= 0) {
				empty_dir(sub, dev, depth + 1);
				close(sub);
			}
			if (unlinkat(dir_fd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
				left = true;
		}
		closedir(d);
		if (!left)
			return;
	}
}

static int remove_tree(const char *path)
{
	dev_t dev;
	_cleanup_close_ int fd = open_to_empty(AT_FDCWD, path, &dev, true);
	if (fd >= 0)
		empty_dir(fd, dev, 0);
	if (rmdir(path) == 0 || errno == ENOENT)
		return 0;
	return neg_errno();
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
