/* SPDX-License-Identifier: MIT */
/*
 * read/write loops and descriptor flags. Nothing here allocates or logs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return neg_errno();
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* SIGPIPE blocked around a write: block_sigpipe() keeps the old mask in
 * *old; restore_sigpipe() consumes a SIGPIPE the write raised (r == -EPIPE)
 * unless the caller had it blocked already, then restores the mask. */
static sigset_t sigpipe_only(void)
{
	sigset_t pipe_signal;
	sigemptyset(&pipe_signal);
	sigaddset(&pipe_signal, SIGPIPE);
	return pipe_signal;
}

static void block_sigpipe(sigset_t *old)
{
	const sigset_t pipe_signal = sigpipe_only();
	(void)sigprocmask(SIG_BLOCK, &pipe_signal, old);
}

static void restore_sigpipe(const sigset_t *old, ssize_t r)
{
	if (r == -EPIPE && !sigismember(old, SIGPIPE)) {
		const sigset_t pipe_signal = sigpipe_only();
		const struct timespec now = { 0, 0 };
		(void)sigtimedwait(&pipe_signal, NULL, &now);
	}
	(void)sigprocmask(SIG_SETMASK, old, NULL);
}

int write_full_nosigpipe(int fd, const void *buf, size_t len)
{
	sigset_t old;
	block_sigpipe(&old);
	int r = write_full(fd, buf, len);
	restore_sigpipe(&old, r);
	return r;
}

ssize_t write_some_nosigpipe(int fd, const void *buf, size_t len)
{
	sigset_t old;
	block_sigpipe(&old);
	ssize_t n;
	while ((n = write(fd, buf, len)) < 0 && errno == EINTR)
		;
	if (n < 0)
		n = neg_errno();
	restore_sigpipe(&old, n);
	return n;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t done = 0;
	while (done < len) {
		ssize_t n = read(fd, p + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return neg_errno();
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

int fd_set_cloexec(int fd, bool cloexec)
{
	int flags = fcntl(fd, F_GETFD);
	if (flags < 0)
		return neg_errno();
	int want = cloexec ? (flags | FD_CLOEXEC) : (flags & ~FD_CLOEXEC);
	if (want != flags && fcntl(fd, F_SETFD, want) < 0)
		return neg_errno();
	return 0;
}

int safe_close(int fd)
{
	if (fd >= 0) {
		int saved = errno;
		(void)close(fd);
		errno = saved;
	}
	return -1;
}

int fd_open_standard(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (null < 0)
			return neg_errno();
		if (null != fd) { /* a lower one was closed too: opened by now */
			int r = dup2(null, fd) < 0 ? neg_errno() : 0;
			close(null);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

int open_entry_folder(const char *base, const char *entry)
{
	_cleanup_close_ int fd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	const char *last = strrchr(entry, '/');
	for (const char *s = entry; last && s < last;) {
		size_t n = strcspn(s, "/");
		char part[NAME_MAX + 1];
		if (n >= sizeof(part))
			return -ENAMETOOLONG;
		memcpy(part, s, n);
		part[n] = '\0';
		int next = openat(fd, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			return neg_errno();
		(void)close(fd);
		fd = next;
		s += n + 1;
	}
	return TAKE_FD(fd);
}

int read_first_line_at(int dir, const char *path, bool follow, char *buf, size_t size)
{
	int fd = openat(dir, path,
	                O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return -errno;
	struct stat st;
	ssize_t n = fstat(fd, &st) < 0     ? -errno
	            : !S_ISREG(st.st_mode) ? -EINVAL
	                                   : read_full(fd, buf, size - 1);
	(void)safe_close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}

int fd_close_range(unsigned first, unsigned last)
{
	return syscall(SYS_close_range, first, last, 0) < 0 ? neg_errno() : 0;
}

int fd_close_from_except(unsigned first, int *keep, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int t = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	unsigned from = first;
	for (size_t i = 0; i < n; i++) {
		if (keep[i] < 0 || (unsigned)keep[i] < from)
			continue;
		if ((unsigned)keep[i] > from && fd_close_range(from, (unsigned)keep[i] - 1) < 0)
			return neg_errno();
		from = (unsigned)keep[i] + 1;
	}
	return fd_close_range(from, ~0U);
}
