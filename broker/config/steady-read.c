/* SPDX-License-Identifier: MIT */
/*
 * The steady read of steady-read.h: open, a read lease where one can be
 * had (nobody has the file open for writing, and nobody opens it so while
 * it is read), fstat, read to the end, fstat, stat the name; the same file,
 * the same size, the same change times, the size read, and a change at
 * least STEADY_READ_SETTLE_MS old (STEADY_READ_PARTIAL_SETTLE_MS for a text
 * that does not look whole), or again (at most STEADY_READ_ATTEMPTS times:
 * a second or two).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "config/ini-source.h"
#include "config/steady-read.h"

static int64_t ns_of(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

static bool same_state(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       ns_of(&a->st_mtim) == ns_of(&b->st_mtim) && ns_of(&a->st_ctim) == ns_of(&b->st_ctim);
}

/* How long (ms) until st's last change is settle_ms old; 0 when it is. A
 * change stamped in the future (another host's clock) cannot be judged and
 * counts as settled. */
static int64_t settle_left_ms(const struct stat *st, int64_t settle_ms)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	int64_t changed = ns_of(&st->st_ctim) > ns_of(&st->st_mtim) ? ns_of(&st->st_ctim)
	                                                            : ns_of(&st->st_mtim);
	int64_t age_ms = (ns_of(&now) - changed) / 1000000;
	if (age_ms < -settle_ms || age_ms >= settle_ms)
		return 0;
	return settle_ms - (age_ms < 0 ? 0 : age_ms);
}

/* Whether the text looks like a whole configuration file: it ends with a
 * newline (every editor and `echo`/`printf` writer ends its last line; a
 * block-buffered writer cut mid-file rarely stops at one) and has at least
 * one KEY = VALUE line. An empty text, one of comments and section headers
 * only, or one cut mid-line is what a rewrite in place leaves while its
 * writer pauses, and read alone it could drop every rule. */
static bool looks_whole(const char *text, size_t len)
{
	if (len == 0 || text[len - 1] != '\n')
		return false;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = (size_t)(nl - text);
		size_t j = i;
		while (j < end && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r'))
			j++;
		if (j < end && text[j] != ';' && text[j] != '#' && text[j] != '[')
			return true;
		i = end + 1;
	}
	return false;
}

/* A read lease on fd (fcntl(2), F_SETLEASE): granted only when no process
 * has the file open for writing, and while it is held, a process opening
 * the file to write waits until it is let go. 1 held, 0 cannot be had
 * because the file is open for writing, -1 unknown: only the file's owner
 * (or CAP_LEASE) may take one, and some file systems have none. Taking a
 * lease makes this process the owner of its break notice, SIGIO by
 * default, which would end it; the notice is SIGURG instead, ignored
 * unless handled (and nothing here handles it). */
static int take_read_lease(int fd)
{
	if (fcntl(fd, F_SETSIG, SIGURG) < 0)
		return -1;
	if (fcntl(fd, F_SETLEASE, F_RDLCK) == 0)
		return 1;
	return errno == EAGAIN ? 0 : -1;
}

static void drop_read_lease(int *lease_fd)
{
	if (*lease_fd >= 0)
		(void)fcntl(*lease_fd, F_SETLEASE, F_UNLCK);
}

/* One attempt: 1 when steady (the text is in *ret), 0 to try again (after
 * *ret_wait_ms), or -errno. */
static int attempt(int dirfd, const char *path, char **ret, size_t *ret_len, struct stat *ret_st,
                   int64_t *ret_wait_ms, bool *ret_writing, struct sluice_error *reterr)
{
	*ret_wait_ms = 0;
	*ret_writing = false;
	_cleanup_close_ int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return sluice_error_set(reterr, neg_errno(), "cannot open: %s", strerror(errno));
	struct stat before, after, named;
	if (fstat(fd, &before) < 0)
		return sluice_error_set(reterr, neg_errno(), "cannot stat: %s", strerror(errno));
	if (!S_ISREG(before.st_mode))
		return sluice_error_set(reterr, -EINVAL, "not a regular file");
	int lease = take_read_lease(fd);
	if (lease == 0) {
		/* a writer has it open (`cat > FILE` mid-way): wait for it */
		*ret_wait_ms = STEADY_READ_WRITER_WAIT_MS;
		*ret_writing = true;
		return 0;
	}
	/* let go before the descriptor closes, whichever way this returns */
	_cleanup_(drop_read_lease) int lease_fd = lease == 1 ? fd : -1;
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = ini_source_read_fd(fd, &text, &len);
	if (r == -EFBIG)
		return sluice_error_set(reterr, r, "larger than %d bytes", INI_SOURCE_MAX_FILE);
	if (r < 0)
		return sluice_error_set(reterr, r, "cannot read: %s", strerror(-r));
	if (fstat(fd, &after) < 0)
		return sluice_error_set(reterr, neg_errno(), "cannot stat: %s", strerror(errno));
	/* the name may have been pointed at a new file meanwhile (a rename) */
	if (fstatat(dirfd, path, &named, 0) < 0) {
		if (errno != ENOENT)
			return sluice_error_set(reterr, neg_errno(), "cannot stat: %s",
			                        strerror(errno));
		return 0;
	}
	if (!same_state(&before, &after) || !same_state(&after, &named) ||
	    (uint64_t)after.st_size != len)
		return 0;
	*ret_wait_ms =
	        settle_left_ms(&after, looks_whole(text, len) ? STEADY_READ_SETTLE_MS
	                                                      : STEADY_READ_PARTIAL_SETTLE_MS);
	if (*ret_wait_ms > 0)
		return 0;
	*ret = TAKE_PTR(text);
	*ret_len = len;
	*ret_st = after;
	return 1;
}

int steady_read(int dirfd, const char *path, char **ret, size_t *ret_len, struct stat *ret_st,
                struct sluice_error *reterr)
{
	bool writing = false;
	for (int i = 0; i < STEADY_READ_ATTEMPTS; i++) {
		int64_t wait_ms = 0;
		int r = attempt(dirfd, path, ret, ret_len, ret_st, &wait_ms, &writing, reterr);
		if (r != 0)
			return r < 0 ? r : 0;
		if (i + 1 == STEADY_READ_ATTEMPTS)
			break;
		/* changed while read: again once the change is a moment old */
		if (wait_ms <= 0)
			wait_ms = 1;
		struct timespec ts = { (time_t)(wait_ms / 1000), (long)(wait_ms % 1000) * 1000000 };
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
	if (writing)
		return sluice_error_set(
		        reterr, -EAGAIN,
		        "open for writing by another program, %d times in a row; "
		        "not read (replace it by a rename: write FILE.new, then mv)",
		        STEADY_READ_ATTEMPTS);
	return sluice_error_set(reterr, -EAGAIN,
	                        "changed while it was read, %d times in a row; not read (is it "
	                        "being rewritten?)",
	                        STEADY_READ_ATTEMPTS);
}
