/* SPDX-License-Identifier: MIT */
/*
 * The holder answers a connection with one byte, NET_HOLDER_ANSWER, and as
 * SCM_RIGHTS the descriptors of its user and network namespaces (in that
 * order). Nothing is trusted for its name: the peer's uid is checked first
 * (SO_PEERCRED), so a socket another user put there is refused before
 * anything is read from it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-passing.h"
#include "launch-spec.h"
#include "net-holder-client.h"

/* Read the answer: its two descriptors into fds (or closed when fds is
 * NULL). Anything else the holder sent is closed. */
static int receive_answer(int fd, const char *path, int fds[2], struct sluice_error *err)
{
	char byte = 0;
	int got[2];
	int r = fds_receive(fd, &byte, got, 2);
	if (r < 0 && r != -EPROTO)
		return sluice_error_set(err, r, "reading the answer of the holder at '%s'", path);
	if (r == 0 && (byte != NET_HOLDER_ANSWER || !fds)) {
		(void)close(got[0]);
		(void)close(got[1]);
		if (byte != NET_HOLDER_ANSWER)
			r = -EPROTO;
	}
	if (r < 0)
		return sluice_error_set(err, -EPROTO,
		                        "the holder at '%s' did not answer with its two namespaces",
		                        path);
	if (fds)
		memcpy(fds, got, sizeof(got));
	return 0;
}

int net_holder_connect(const char *path, int fds[2], struct sluice_error *err)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path))
		return sluice_error_set(err, -ENAMETOOLONG, "the holder's socket '%s' is too long",
		                        path);
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
	int r = receive_answer(fd, path, fds, err);
	if (r < 0)
		return r;
	return TAKE_FD(fd);
}

int net_holder_lock(const char *lock_path, bool wait, struct sluice_error *err)
{
	for (;;) {
		_cleanup_close_ int fd =
		        open(lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return sluice_error_set(err, neg_errno(), "opening '%s'", lock_path);
		int r;
		do
			r = flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB));
		while (r < 0 && errno == EINTR);
		if (r < 0)
			return sluice_error_set(err, neg_errno(), "locking '%s'", lock_path);
		struct stat locked, named;
		if (fstat(fd, &locked) < 0)
			return sluice_error_set(err, neg_errno(), "'%s'", lock_path);
		if (lstat(lock_path, &named) == 0 && named.st_dev == locked.st_dev &&
		    named.st_ino == locked.st_ino)
			return TAKE_FD(fd);
		/* removed (or replaced) by a holder that left while we waited:
		 * the lock that counts is the file at lock_path now */
	}
}
