/* SPDX-License-Identifier: MIT */
/*
 * mounts-busy N PROGRAM [ARG...]: run PROGRAM where the first N calls of
 * mount_setattr(2) that make a tree read-only (MOUNT_ATTR_RDONLY with
 * AT_RECURSIVE) fail with EBUSY, as they do while another process of the
 * mount namespace holds a write access to one of its mounts for a moment
 * (a listing that updates a folder's atime). The calls after them run.
 * A seccomp filter hands those calls to this process (SECCOMP_RET_USER_NOTIF),
 * which answers them; it prints "mounts-busy: N answered EBUSY" at the end
 * and exits with PROGRAM's status.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* process_vm_readv */
#endif
#include <errno.h>
#include <linux/mount.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

static int fail(const char *what, int code)
{
	fprintf(stderr, "mounts-busy: %s: %s\n", what, strerror(code));
	return 2;
}

/* Whether the notified call makes its tree read-only: its struct
 * mount_attr (the fourth argument) read from the caller. */
static bool sets_read_only(const struct seccomp_notif *req)
{
	struct mount_attr attr = { 0 };
	struct iovec local = { &attr, sizeof(attr) };
	struct iovec remote = { (void *)(uintptr_t)req->data.args[3], sizeof(attr) };
	if (process_vm_readv((pid_t)req->pid, &local, 1, &remote, 1, 0) != sizeof(attr))
		return false;
	return (attr.attr_set & MOUNT_ATTR_RDONLY) != 0;
}

/* Answer the notified calls until the program has ended: EBUSY to the
 * first *left that make a tree read-only, the call itself to the rest. */
static int answer(int notify_fd, int pidfd, long *left, long *busied)
{
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	if (seccomp_notify_alloc(&req, &resp) < 0)
		return -ENOMEM;
	int r = 0;
	for (;;) {
		struct pollfd fds[2] = { { notify_fd, POLLIN, 0 }, { pidfd, POLLIN, 0 } };
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (fds[1].revents)
			break;
		if (!(fds[0].revents & POLLIN))
			continue;
		memset(req, 0, sizeof(*req));
		if (seccomp_notify_receive(notify_fd, req) < 0)
			continue; /* the caller was gone before it was received */
		memset(resp, 0, sizeof(*resp));
		resp->id = req->id;
		if (*left > 0 && sets_read_only(req)) {
			resp->error = -EBUSY;
			(*left)--;
			(*busied)++;
		} else {
			resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		}
		(void)seccomp_notify_respond(notify_fd, resp); /* ENOENT: caller gone */
	}
	seccomp_notify_free(req, resp);
	return r;
}

int main(int argc, char **argv)
{
	char *end = NULL;
	long left = argc >= 3 ? strtol(argv[1], &end, 10) : -1;
	if (argc < 3 || !end || *end || left < 0) {
		fprintf(stderr, "usage: mounts-busy N PROGRAM [ARG...]\n");
		return 2;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return fail("seccomp", errno);
	int r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(mount_setattr), 1,
	                         SCMP_A2(SCMP_CMP_MASKED_EQ, AT_RECURSIVE, AT_RECURSIVE));
	if (r == 0)
		r = seccomp_load(ctx);
	int notify_fd = r == 0 ? seccomp_notify_fd(ctx) : -1;
	seccomp_release(ctx);
	if (r < 0 || notify_fd < 0)
		return fail("loading the filter", r < 0 ? -r : EINVAL);
	pid_t pid = fork();
	if (pid < 0)
		return fail("fork", errno);
	if (pid == 0) {
		(void)close(notify_fd);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "mounts-busy: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		(void)kill(pid, SIGKILL);
		return fail("pidfd_open", errno);
	}
	long busied = 0;
	r = answer(notify_fd, pidfd, &left, &busied);
	int status = 0;
	if (waitpid(pid, &status, 0) < 0)
		return fail("waitpid", errno);
	fprintf(stderr, "mounts-busy: %ld answered EBUSY\n", busied);
	if (r < 0)
		return fail("answering", -r);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
