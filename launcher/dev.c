/* SPDX-License-Identifier: MIT */
/*
 * The minimal /dev, as bubblewrap's --dev builds one: device nodes cannot
 * be made in a user namespace, so each is an empty file in the tmpfs with
 * a copy of the host's node bound onto it.
 */
#include "config.h"

#include <fcntl.h>
#include <linux/mount.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "dev.h"

/* What a command may open; Landlock then limits how (landlock.c). */
static const char *const devices[] = { "null", "zero", "full", "random", "urandom", "tty" };

static const struct {
	const char *name, *target;
} links[] = {
	{ "fd", "/proc/self/fd" },
	{ "stdin", "/proc/self/fd/0" },
	{ "stdout", "/proc/self/fd/1" },
	{ "stderr", "/proc/self/fd/2" },
};

int dev_populate(int tmpfs, struct sluice_error *err)
{
	int copies[ELEMENTSOF(devices)];
	int r = 0;
	/* the host's nodes, copied before the tmpfs covers them */
	for (size_t i = 0; i < ELEMENTSOF(devices); i++) {
		char path[32];
		snprintf(path, sizeof(path), "/dev/%s", devices[i]);
		copies[i] = (int)syscall(SYS_open_tree, AT_FDCWD, path,
		                         OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
		if (copies[i] < 0 && errno != ENOENT && r == 0)
			r = sluice_error_set(err, neg_errno(), "copying '%s'", path);
	}
	if (r == 0 &&
	    syscall(SYS_move_mount, tmpfs, "", AT_FDCWD, "/dev", MOVE_MOUNT_F_EMPTY_PATH) < 0)
		r = sluice_error_set(err, neg_errno(), "mounting a tmpfs on /dev");
	for (size_t i = 0; r == 0 && i < ELEMENTSOF(devices); i++) {
		if (copies[i] < 0)
			continue;
		int f = openat(tmpfs, devices[i], O_CREAT | O_EXCL | O_RDONLY | O_CLOEXEC, 0666);
		if (f < 0)
			r = sluice_error_set(err, neg_errno(), "making /dev/%s", devices[i]);
		else
			(void)close(f);
		if (r == 0 && syscall(SYS_move_mount, copies[i], "", tmpfs, devices[i],
		                      MOVE_MOUNT_F_EMPTY_PATH) < 0)
			r = sluice_error_set(err, neg_errno(), "mounting /dev/%s", devices[i]);
	}
	for (size_t i = 0; r == 0 && i < ELEMENTSOF(links); i++)
		if (symlinkat(links[i].target, tmpfs, links[i].name) < 0)
			r = sluice_error_set(err, neg_errno(), "linking /dev/%s", links[i].name);
	/* an empty /dev/shm, as programs expect one: not writable, as before */
	if (r == 0 && mkdirat(tmpfs, "shm", 0755) < 0)
		r = sluice_error_set(err, neg_errno(), "making /dev/shm");
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOEXEC };
	if (r == 0 && syscall(SYS_mount_setattr, tmpfs, "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0)
		r = sluice_error_set(err, neg_errno(), "making /dev read-only");
	for (size_t i = 0; i < ELEMENTSOF(devices); i++)
		if (copies[i] >= 0)
			(void)close(copies[i]);
	return r;
}

int dev_reopen_standard(struct sluice_error *err)
{
	for (int fd = 0; fd <= 2; fd++) {
		struct stat st;
		if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode))
			continue;
		for (size_t i = 0; i < ELEMENTSOF(devices); i++) {
			char path[32];
			struct stat node;
			snprintf(path, sizeof(path), "/dev/%s", devices[i]);
			/* tty opens to the caller's terminal: never a stream's */
			if (strcmp(devices[i], "tty") == 0 || stat(path, &node) < 0 ||
			    node.st_rdev != st.st_rdev)
				continue;
			int flags = fcntl(fd, F_GETFL);
			int f = flags < 0
			                ? -1
			                : open(path, (flags & (O_ACCMODE | O_APPEND | O_NONBLOCK)) |
			                                     O_NOCTTY);
			int r = f < 0 || dup2(f, fd) < 0 ? neg_errno() : 0;
			if (f >= 0)
				(void)close(f);
			if (r < 0)
				return sluice_error_set(
				        err, r, "opening %s again for descriptor %d", path, fd);
			break;
		}
	}
	return 0;
}
