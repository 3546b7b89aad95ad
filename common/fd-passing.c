/* SPDX-License-Identifier: MIT */
/* Descriptors over a Unix socket; see fd-passing.h. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "errors.h"
#include "fd-passing.h"

union fd_control {
	char buf[CMSG_SPACE(FD_PASSING_MAX * sizeof(int))];
	struct cmsghdr align;
};

int fds_send_message(int sock, const void *data, size_t len, const int *fds, size_t n)
{
	if (len == 0 || n == 0 || n > FD_PASSING_MAX)
		return -EINVAL;
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	union fd_control control;
	memset(&control, 0, sizeof(control));
	struct msghdr msg = { .msg_iov = &iov,
		              .msg_iovlen = 1,
		              .msg_control = control.buf,
		              .msg_controllen = CMSG_SPACE(n * sizeof(int)) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	ssize_t sent;
	do
		sent = sendmsg(sock, &msg, MSG_NOSIGNAL);
	while (sent < 0 && errno == EINTR);
	if (sent < 0)
		return neg_errno();
	return (size_t)sent == len ? 0 : -EPROTO;
}

int fds_send(int sock, char byte, const int *fds, size_t n)
{
	return fds_send_message(sock, &byte, 1, fds, n);
}

int fds_receive_message(int sock, void *buf, size_t size, size_t *ret_len, int *fds, size_t n)
{
	if (size == 0 || n == 0 || n > FD_PASSING_MAX)
		return -EINVAL;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	union fd_control control;
	struct msghdr msg = { .msg_iov = &iov,
		              .msg_iovlen = 1,
		              .msg_control = control.buf,
		              .msg_controllen = sizeof(control.buf) };
	ssize_t got;
	do
		got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return neg_errno();
	/* every descriptor that came, in order: kept only when the message is
	 * exactly the one asked for, else closed */
	size_t count = 0;
	bool rights_only = true;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			count += (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		else
			rights_only = false;
	}
	bool whole = got >= 1 && !(msg.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) && rights_only &&
	             count == n;
	size_t at = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++, at++) {
			int d;
			memcpy(&d, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (whole)
				fds[at] = d;
			else
				(void)close(d);
		}
	}
	if (!whole)
		return got == 0 ? -ECONNRESET : -EPROTO;
	*ret_len = (size_t)got;
	return 0;
}

int fds_receive(int sock, char *byte, int *fds, size_t n)
{
	size_t len = 0;
	int r = fds_receive_message(sock, byte, 1, &len, fds, n);
	return r == -ECONNRESET ? -EPROTO : r;
}
