/* SPDX-License-Identifier: MIT */
/*
 * Working-directory resolution. The textual checks (absolute, `..`) come
 * first so the message says what was wrong; RESOLVE_BENEATH then makes the
 * kernel refuse every other way out, symbolic links included, without a
 * check-then-use race.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "run/workdir.h"

static int openat2_beneath(int dirfd, const char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	return fd < 0 ? neg_errno() : (int)fd;
}

/* The kernel's absolute name for an open directory. */
static int fd_path(int fd, char **ret)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	_cleanup_free_ char *buf = malloc(PATH_MAX);
	if (!buf)
		return -ENOMEM;
	ssize_t n = readlink(link, buf, PATH_MAX - 1);
	if (n < 0)
		return neg_errno();
	buf[n] = '\0';
	if (buf[0] != '/')
		return -ENOENT; /* "(deleted)" names and the like */
	*ret = TAKE_PTR(buf);
	return 0;
}

static bool has_dotdot(const char *path)
{
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return true;
		p += n;
		p += strspn(p, "/");
	}
	return false;
}

/* Tell "does not exist" from "not a directory" for the message. */
static int explain_open_error(int rootfd, const char *directory, int r, struct sluice_error *reterr)
{
	if (r == -EXDEV)
		return sluice_error_set(reterr, -EXDEV,
		                        "directory '%s' resolves outside the workspace", directory);
	if (r == -ELOOP)
		return sluice_error_set(
		        reterr, -EXDEV,
		        "directory '%s' goes through a link the workspace does not allow",
		        directory);
	if (r == -ENOTDIR) {
		struct stat st;
		if (fstatat(rootfd, directory, &st, 0) == 0 && !S_ISDIR(st.st_mode))
			return sluice_error_set(reterr, -ENOTDIR,
			                        "directory '%s' is not a directory", directory);
		return sluice_error_set(
		        reterr, -ENOENT,
		        "directory '%s' does not exist (a part of it is not a directory)",
		        directory);
	}
	if (r == -ENOENT)
		return sluice_error_set(reterr, -ENOENT, "directory '%s' does not exist",
		                        directory);
	return sluice_error_set(reterr, r, "directory '%s'", directory);
}

int workdir_resolve(const char *root, const char *directory, char **ret_root, char **ret_path,
                    struct sluice_error *reterr)
{
	_cleanup_close_ int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		int r = neg_errno();
		if (r == -ENOENT || r == -ENOTDIR)
			return sluice_error_set(reterr, r, "workspace root '%s' %s", root,
			                        r == -ENOENT ? "does not exist"
			                                     : "is not a directory");
		return sluice_error_set(reterr, r, "workspace root '%s'", root);
	}
	_cleanup_free_ char *root_path = NULL;
	int r = fd_path(rootfd, &root_path);
	if (r < 0 && access("/proc/self/fd", F_OK) < 0)
		/* said as it is: the root is fine, the process table is not there */
		return sluice_error_set(reterr, -ENOSYS,
		                        "/proc is not mounted, or hidden: sluice reads the "
		                        "workspace's path, and watches the command's processes, "
		                        "through /proc");
	if (r < 0)
		return sluice_error_set(reterr, r, "workspace root '%s'", root);

	if (!directory || directory[0] == '\0' || strcmp(directory, ".") == 0) {
		_cleanup_free_ char *copy = strdup(root_path);
		if (!copy)
			return -ENOMEM;
		*ret_root = TAKE_PTR(root_path);
		*ret_path = TAKE_PTR(copy);
		return 0;
	}
	if (directory[0] == '/')
		return sluice_error_set(
		        reterr, -EXDEV,
		        "directory '%s' is absolute; give it relative to the workspace", directory);
	if (has_dotdot(directory))
		return sluice_error_set(
		        reterr, -EXDEV,
		        "directory '%s' contains '..'; give it relative to the workspace",
		        directory);

	_cleanup_close_ int fd = openat2_beneath(rootfd, directory);
	if (fd == -ENOSYS)
		return sluice_error_set(reterr, -ENOSYS,
		                        "openat2 is not available (Linux 5.6 or newer is needed)");
	if (fd < 0)
		return explain_open_error(rootfd, directory, fd, reterr);
	_cleanup_free_ char *path = NULL;
	r = fd_path(fd, &path);
	if (r < 0)
		return sluice_error_set(reterr, r, "directory '%s'", directory);
	*ret_root = TAKE_PTR(root_path);
	*ret_path = TAKE_PTR(path);
	return 0;
}
