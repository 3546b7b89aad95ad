/* SPDX-License-Identifier: MIT */
/*
 * The holder answers a connection with one byte and, as SCM_RIGHTS, the
 * descriptors of its user and its network namespace (NET_HOLDER_* in
 * launch-spec.h). Nothing is trusted for its name: the peer's uid is
 * checked (SO_PEERCRED: the process at the other end now, so a dead
 * holder's reused pid cannot stand in), then each descriptor's namespace
 * type, and the user namespace's owner, before any setns(2). A socket
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
#include "launch-spec.h"
#include "net-join.h"

/* Connect to path; the descriptor, or -errno with a detail. */
static int connect_holder(const char *path, struct sluice_error *err)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path))
		return sluice_error_set(err, -ENAMETOOLONG, "the holder's socket '%s'", path);
	strcpy(addr.sun_path, path);
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sluice_error_set(err, neg_errno(), "a socket for the holder");
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return sluice_error_set(err, neg_errno(), "connecting to the holder at '%s'", path);
	struct ucred peer;
	socklen_t len = sizeof(peer);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) < 0)
		return sluice_error_set(err, neg_errno(), "the holder's credentials");
	if (peer.uid != geteuid())
		return sluice_error_set(err, -EPERM,
		                        "the holder at '%s' runs as uid %u, not as this user (%u)",
		                        path, (unsigned)peer.uid, (unsigned)geteuid());
	return TAKE_FD(fd);
}

/* Receive the holder's two namespace descriptors into fds. */
static int receive_namespaces(int fd, int fds[2], struct sluice_error *err)
{
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} control;
	struct msghdr msg = { .msg_iov = &iov,
		              .msg_iovlen = 1,
		              .msg_control = control.buf,
		              .msg_controllen = sizeof(control.buf) };
	ssize_t n;
	do
		n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return sluice_error_set(err, neg_errno(), "reading the holder's answer");
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	bool two = c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
	           c->cmsg_len == CMSG_LEN(2 * sizeof(int));
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
		size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		int *got = (int *)CMSG_DATA(c);
		for (size_t i = 0; i < k; i++) {
			if (two)
				fds[i] = got[i];
			else
				(void)close(got[i]);
		}
	}
	if (n != 1 || byte != NET_HOLDER_ANSWER || !two || (msg.msg_flags & MSG_CTRUNC))
		return sluice_error_set(err, -EPROTO,
		                        "the holder did not answer with its two namespaces");
	return 0;
}

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
	_cleanup_close_ int conn = connect_holder(path, err);
	if (conn < 0)
		return conn;
	int fds[2] = { -1, -1 };
	int r = receive_namespaces(conn, fds, err);
	_cleanup_close_ int user_fd = fds[0], net_fd = fds[1];
	if (r < 0)
		return r;
	r = check_type(user_fd, CLONE_NEWUSER, "user namespace", err);
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
