/* SPDX-License-Identifier: MIT */
/*
 * Nothing the holder sends is trusted for its name: the peer's uid is
 * checked (SO_PEERCRED, in net_holder_connect(): the process at the other
 * end now, so a dead holder's reused pid cannot stand in), then each
 * descriptor's namespace type, and the user namespace's owner, before any
 * setns(2). A socket
 * another user made could not hand this process a namespace it does not
 * own: setns(2) into a user namespace needs its capabilities there, which
 * only its owner's uid has from outside.
 */
#include "config.h"

#include <errno.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cleanup.h"
#include "net-holder-client.h"
#include "net-join.h"

/* Whether fd is a namespace of type (CLONE_NEW*), or -errno. */
static int check_type(int fd, int type, const char *what, struct sluice_error *err)
{
	int t = ioctl(fd, NS_GET_NSTYPE);
	if (t < 0)
		return sluice_error_set(err, neg_errno(), "the type of the holder's %s", what);
	if (t != type)
		return sluice_error_set(err, -EPROTO, "the holder's %s is not one", what);
	return 0;
}

/* Whether fd names the user namespace this process is in. */
static int is_own_user_namespace(int fd, bool *ret, struct sluice_error *err)
{
	struct stat theirs, ours;
	if (fstat(fd, &theirs) < 0 || stat("/proc/self/ns/user", &ours) < 0)
		return sluice_error_set(err, neg_errno(), "comparing user namespaces");
	*ret = theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino;
	return 0;
}

int net_join(const char *path, bool *ret_user, bool *ret_entered, struct sluice_error *err)
{
	*ret_user = false;
	*ret_entered = false;
	int fds[2] = { -1, -1 };
	_cleanup_close_ int conn = net_holder_connect(path, fds, err);
	if (conn < 0)
		return conn;
	_cleanup_close_ int user_fd = fds[0], net_fd = fds[1];
	int r = check_type(user_fd, CLONE_NEWUSER, "user namespace", err);
	if (r >= 0)
		r = check_type(net_fd, CLONE_NEWNET, "network namespace", err);
	if (r < 0)
		return r;
	bool own = false;
	r = is_own_user_namespace(user_fd, &own, err);
	if (r < 0)
		return r;
	if (!own) {
		uid_t owner;
		if (ioctl(user_fd, NS_GET_OWNER_UID, &owner) < 0)
			return sluice_error_set(err, neg_errno(),
			                        "the owner of the holder's user namespace");
		if (owner != geteuid())
			return sluice_error_set(
			        err, -EPERM,
			        "the holder's user namespace belongs to uid %u, not to "
			        "this user (%u)",
			        (unsigned)owner, (unsigned)geteuid());
		if (setns(user_fd, CLONE_NEWUSER) < 0)
			return sluice_error_set(err, neg_errno(),
			                        "setns into the holder's user namespace");
		*ret_entered = true;
		*ret_user = true;
	}
	if (setns(net_fd, CLONE_NEWNET) < 0)
		return sluice_error_set(err, neg_errno(),
		                        "setns into the holder's network namespace");
	*ret_entered = true;
	return TAKE_FD(conn);
}
