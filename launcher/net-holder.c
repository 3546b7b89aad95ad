/* SPDX-License-Identifier: MIT */
/*
 * The holder keeps nothing a sandbox forbids: its directory is "/", its
 * standard streams /dev/null, and it holds no descriptor but its
 * namespaces', its listening socket and its connections; it makes no mount
 * namespace and runs no one's code. Only connections whose peer has the
 * holder's own uid are answered (another user cannot reach the socket in
 * the private jobs directory anyway; this is the second lock). A
 * connection is one user of the namespace: the broker's while it prepares
 * and runs a command, each launcher's for its run's life.
 *
 * Leaving races with a starter: between the idle timeout and the removal of
 * the socket, a broker may be connecting. The broker connects holding the
 * lock file next to the socket (SOCKET.lock); the holder removes the socket
 * only once it has that lock without waiting and no connection is queued,
 * so a broker either is answered or finds no socket and starts a new
 * holder. The lock file goes with the holder, removed while it is held.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-passing.h"
#include "fd-util.h"
#include "launch-spec.h"
#include "monotonic.h"
#include "namespaces.h"
#include "net-holder-client.h"
#include "net-holder.h"

/* The most connections served at once; more wait in the backlog. */
#define HOLDER_MAX_CLIENTS 1024

struct holder {
	int user_fd, net_fd, listen_fd;
	const char *path;
	char lock_path[sizeof(((struct sockaddr_un *)0)->sun_path) +
	               sizeof(NET_HOLDER_LOCK_SUFFIX)];
	dev_t dev; /* the socket file's, so that only ours is removed */
	ino_t ino;
	uint64_t idle_ms;
};

static int listen_at(struct holder *h, struct sluice_error *err)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(h->path) >= sizeof(addr.sun_path))
		return sluice_error_set(err, -ENAMETOOLONG, "the socket path '%s'", h->path);
	strcpy(addr.sun_path, h->path);
	snprintf(h->lock_path, sizeof(h->lock_path), "%s%s", h->path, NET_HOLDER_LOCK_SUFFIX);
	h->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (h->listen_fd < 0)
		return sluice_error_set(err, neg_errno(), "a listening socket");
	mode_t old = umask(0077); /* the socket file: its owner's only */
	int r = bind(h->listen_fd, (struct sockaddr *)&addr, sizeof(addr));
	(void)umask(old);
	if (r < 0)
		return sluice_error_set(err, neg_errno(), "binding '%s'", h->path);
	struct stat st;
	if (stat(h->path, &st) < 0 || listen(h->listen_fd, 64) < 0) {
		r = neg_errno();
		(void)unlink(h->path);
		return sluice_error_set(err, r, "listening on '%s'", h->path);
	}
	h->dev = st.st_dev;
	h->ino = st.st_ino;
	return 0;
}

/* Remove the socket file if it is still the one this holder bound. */
static void remove_socket(const struct holder *h)
{
	struct stat st;
	if (lstat(h->path, &st) == 0 && st.st_dev == h->dev && st.st_ino == h->ino)
		(void)unlink(h->path);
}

/* Answer a new connection with the namespaces; the connection, or -1. */
static int answer(const struct holder *h)
{
	int fd = accept4(h->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return -1;
	struct ucred peer;
	socklen_t len = sizeof(peer);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) < 0 || peer.uid != getuid()) {
		(void)close(fd);
		return -1;
	}
	int fds[2] = { h->user_fd, h->net_fd };
	if (fds_send(fd, NET_HOLDER_ANSWER, fds, 2) < 0) {
		(void)close(fd);
		return -1;
	}
	return fd;
}

/* Whether the holder may leave now: nobody is starting a run with it (the
 * lock is free; it stays held, by this process, until it exits) and no
 * connection waits. */
static bool may_leave(const struct holder *h)
{
	struct sluice_error ignored = { 0 };
	int lock = net_holder_lock(h->lock_path, false, &ignored);
	if (lock == -EWOULDBLOCK)
		return false;
	struct pollfd p = { .fd = h->listen_fd, .events = POLLIN };
	if (poll(&p, 1, 0) != 0) {
		if (lock >= 0)
			(void)close(lock);
		return false;
	}
	return true; /* the lock (if it could be made at all) is released by the exit */
}

/* Leave: the socket first, so that a starter that takes the lock next finds
 * no holder and starts one; then the lock file, still held, so that a
 * starter waiting on it takes the new one a later starter makes
 * (net_holder_lock() checks the file it locked is still there). */
static _Noreturn void leave(const struct holder *h)
{
	remove_socket(h);
	(void)unlink(h->lock_path);
	_exit(0);
}

static _Noreturn void serve(struct holder *h)
{
	static struct pollfd p[1 + HOLDER_MAX_CLIENTS];
	nfds_t n = 1;
	p[0] = (struct pollfd){ .fd = h->listen_fd, .events = POLLIN };
	uint64_t idle_since = monotonic_ms();
	for (;;) {
		int timeout = -1;
		if (n == 1) {
			uint64_t now = monotonic_ms(), end = idle_since + h->idle_ms;
			if (now >= end) {
				if (may_leave(h))
					leave(h);
				idle_since = now; /* someone is starting a run: look again later */
				end = now + h->idle_ms;
			}
			timeout = (int)(end - now < 60000 ? end - now : 60000);
		}
		p[0].events = n < ELEMENTSOF(p) ? POLLIN : 0;
		if (poll(p, n, timeout) < 0)
			continue;
		for (nfds_t i = n; i-- > 1;) {
			if (!p[i].revents)
				continue;
			char buf[64];
			ssize_t k = read(p[i].fd, buf, sizeof(buf));
			if (k > 0 || (k < 0 && errno == EAGAIN))
				continue; /* a client has nothing to say; ignored */
			(void)close(p[i].fd);
			p[i] = p[--n];
			if (n == 1)
				idle_since = monotonic_ms();
		}
		if ((p[0].revents & POLLIN) && n < ELEMENTSOF(p)) {
			int fd = answer(h);
			if (fd >= 0)
				p[n++] = (struct pollfd){ .fd = fd, .events = POLLIN };
			else if (n == 1)
				idle_since = monotonic_ms();
		}
	}
}

/* The holder's own process: its session, "/", /dev/null, and nothing
 * else open. */
static void detach(const struct holder *h)
{
	(void)setsid();
	(void)chdir("/");
	int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd >= 0) {
		(void)dup2(null_fd, STDIN_FILENO);
		(void)dup2(null_fd, STDOUT_FILENO);
		(void)dup2(null_fd, STDERR_FILENO);
		(void)close(null_fd);
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	int keep[3] = { h->user_fd, h->net_fd, h->listen_fd };
	(void)fd_close_from_except(3, keep, ELEMENTSOF(keep));
}

int net_holder_start(const char *path, uint64_t idle_ms, struct sluice_error *err)
{
	struct holder h = {
		.user_fd = -1, .net_fd = -1, .listen_fd = -1, .path = path, .idle_ms = idle_ms
	};
	const char *reason = NULL;
	int r = namespaces_enter_network(&reason, err);
	if (r < 0)
		return r;
	h.user_fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	h.net_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (h.user_fd < 0 || h.net_fd < 0)
		return sluice_error_set(err, neg_errno(), "opening this process's namespaces");
	r = listen_at(&h, err);
	if (r < 0)
		return r;
	pid_t pid = fork();
	if (pid < 0) {
		r = neg_errno();
		remove_socket(&h);
		return sluice_error_set(err, r, "forking the holder");
	}
	if (pid > 0)
		return 0;
	detach(&h);
	serve(&h);
}
