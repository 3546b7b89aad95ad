/* SPDX-License-Identifier: MIT */
/*
 * slow-writes serve SOCKET MS
 * slow-writes wrap SOCKET PROGRAM [ARG...]
 *
 * Every pwrite(2) of PROGRAM and all it starts held MS milliseconds before
 * it runs: "wrap" loads a seccomp filter that hands those calls to a
 * listener (SECCOMP_RET_USER_NOTIF), sends the listener to the "serve"
 * process on the unix socket SOCKET, and execs PROGRAM, whose parent and
 * descriptors stay the caller's. "serve" (started first, in the
 * background; it runs until killed) holds each call, then lets it run.
 * The tests hold the egress proxy's audit records (launcher/egress-record.c
 * writes them with pwrite) to check what a client and the run see before
 * a record is written.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define LISTENERS_MAX 64

static int fail(const char *what, int code)
{
	fprintf(stderr, "slow-writes: %s: %s\n", what, strerror(code));
	return 2;
}

static int unix_address(const char *path, struct sockaddr_un *addr)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(addr->sun_path))
		return -ENAMETOOLONG;
	strcpy(addr->sun_path, path);
	return 0;
}

/* Hold the notified call ms, then let it run (ENOENT: its caller is gone). */
static void hold(int listener, long ms)
{
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	if (seccomp_notify_alloc(&req, &resp) < 0)
		return;
	memset(req, 0, sizeof(*req));
	if (seccomp_notify_receive(listener, req) == 0) {
		struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
		while (nanosleep(&t, &t) < 0 && errno == EINTR)
			;
		memset(resp, 0, sizeof(*resp));
		resp->id = req->id;
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		(void)seccomp_notify_respond(listener, resp);
	}
	seccomp_notify_free(req, resp);
}

/* A listener sent on the connection c, or -1. */
static int receive_listener(int c)
{
	char byte;
	struct iovec iov = { &byte, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	struct msghdr msg = { .msg_iov = &iov,
		              .msg_iovlen = 1,
		              .msg_control = control.buf,
		              .msg_controllen = sizeof(control.buf) };
	if (recvmsg(c, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	struct cmsghdr *h = CMSG_FIRSTHDR(&msg);
	if (!h || h->cmsg_type != SCM_RIGHTS || h->cmsg_len != CMSG_LEN(sizeof(int)))
		return -1;
	int fd;
	memcpy(&fd, CMSG_DATA(h), sizeof(fd));
	return fd;
}

static int serve(const char *path, long ms)
{
	struct sockaddr_un addr;
	int r = unix_address(path, &addr);
	if (r < 0)
		return fail(path, -r);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(s, 16) < 0)
		return fail(path, errno);
	struct pollfd fds[1 + LISTENERS_MAX] = { { s, POLLIN, 0 } };
	size_t n = 1;
	for (;;) {
		if (poll(fds, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			return fail("poll", errno);
		}
		for (size_t i = n; i-- > 1;) {
			if (fds[i].revents & POLLIN) {
				hold(fds[i].fd, ms);
			} else if (fds[i].revents) { /* no process has the filter now */
				(void)close(fds[i].fd);
				fds[i] = fds[--n];
			}
		}
		if (!(fds[0].revents & POLLIN))
			continue;
		int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0)
			continue;
		int fd = receive_listener(c);
		(void)close(c);
		if (fd >= 0 && n < 1 + LISTENERS_MAX)
			fds[n++] = (struct pollfd){ fd, POLLIN, 0 };
		else if (fd >= 0)
			(void)close(fd);
	}
}

static int send_listener(const char *path, int fd)
{
	struct sockaddr_un addr;
	int r = unix_address(path, &addr);
	if (r < 0)
		return r;
	int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		r = -errno;
		if (c >= 0)
			(void)close(c);
		return r;
	}
	char byte = 'L';
	struct iovec iov = { &byte, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	memset(&control, 0, sizeof(control));
	struct msghdr msg = { .msg_iov = &iov,
		              .msg_iovlen = 1,
		              .msg_control = control.buf,
		              .msg_controllen = sizeof(control.buf) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&msg);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(fd));
	r = sendmsg(c, &msg, 0) == 1 ? 0 : -errno;
	(void)close(c);
	return r;
}

static int wrap(const char *path, char **argv)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return fail("seccomp", errno);
	int r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(pwrite64), 0);
	if (r == 0)
		r = seccomp_load(ctx);
	int listener = r == 0 ? seccomp_notify_fd(ctx) : -1;
	seccomp_release(ctx);
	if (r < 0 || listener < 0)
		return fail("loading the filter", r < 0 ? -r : EINVAL);
	r = send_listener(path, listener);
	(void)close(listener);
	if (r < 0)
		return fail(path, -r);
	execvp(argv[0], argv);
	fprintf(stderr, "slow-writes: %s: %s\n", argv[0], strerror(errno));
	return 127;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "serve") == 0) {
		char *end = NULL;
		long ms = strtol(argv[3], &end, 10);
		if (end && !*end && ms >= 0)
			return serve(argv[2], ms);
	}
	if (argc >= 4 && strcmp(argv[1], "wrap") == 0)
		return wrap(argv[2], argv + 3);
	fprintf(stderr, "usage: slow-writes serve SOCKET MS | wrap SOCKET PROGRAM [ARG...]\n");
	return 2;
}
