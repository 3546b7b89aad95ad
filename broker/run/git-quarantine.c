/* SPDX-License-Identifier: MIT */
/*
 * The quarantine folder of a git sweep: made on the first item, each item
 * moved or copied into it under a numbered name and noted in the sweep's
 * result and the folder's MANIFEST. Works on descriptors and never follows
 * a symbolic link.
 * Not for: deciding what to take (git-sweep.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "run/git-quarantine.h"

/* A hard-linked file is copied into the quarantine up to this size
 * (the content stays at its other name in any case). */
#define SWEEP_COPY_MAX (16 * 1024 * 1024)

/* The quarantine folder, made on first use: JOBS_DIR/quarantine/STAMP-PID-N. */
int git_quarantine_open(struct sweeper *w)
{
	if (w->qfd >= 0)
		return w->qfd;
	if (!w->jobs_dir)
		return -ENOENT;
	_cleanup_free_ char *top = NULL;
	if (asprintf(&top, "%s/quarantine", w->jobs_dir) < 0)
		return -ENOMEM;
	if (mkdir(top, 0700) < 0 && errno != EEXIST)
		return neg_errno();
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (int i = 0; i < 100; i++) {
		_cleanup_free_ char *dir = NULL;
		if (asprintf(&dir, "%s/%s-%d-%d", top, stamp, (int)getpid(), i) < 0)
			return -ENOMEM;
		if (mkdir(dir, 0700) < 0) {
			if (errno == EEXIST)
				continue;
			return neg_errno();
		}
		w->qfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (w->qfd < 0)
			return neg_errno();
		w->s->quarantine = TAKE_PTR(dir);
		return w->qfd;
	}
	return -EEXIST;
}

/* Note an item; kept is its name in the quarantine folder or NULL. */
void git_quarantine_note(struct sweeper *w, const char *dir, const char *name, const char *what,
                         const char *kept)
{
	struct git_sweep *s = w->s;
	s->n_found++;
	if (w->qfd >= 0) {
		/* the folder's manifest: one line per item, for the user */
		_cleanup_close_ int m =
		        openat(w->qfd, "MANIFEST",
		               O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (m >= 0)
			dprintf(m, "%s\t%s/%s\t%s\n", kept ? kept : "-", dir, name, what);
	}
	if (s->n_items >= GIT_SWEEP_ITEMS_MAX)
		return;
	struct git_sweep_item *it = &s->items[s->n_items];
	if (asprintf(&it->path, "%s/%s", dir, name) < 0) {
		it->path = NULL;
		return;
	}
	it->what = strdup(what);
	it->kept = NULL;
	if (kept && s->quarantine && asprintf(&it->kept, "%s/%s", s->quarantine, kept) < 0)
		it->kept = NULL;
	if (!it->what) {
		free(it->path);
		free(it->kept);
		*it = (struct git_sweep_item){ 0 };
		return;
	}
	s->n_items++;
}

/* A name in the quarantine folder for the n-th item. */
void git_quarantine_kept_name(const struct sweeper *w, const char *name, char out[NAME_MAX + 1])
{
	snprintf(out, NAME_MAX + 1, "%03zu-%.200s", w->s->n_found, name);
}

/* Copy the regular file fd into the quarantine as kept (at most max bytes). */
int git_quarantine_copy(struct sweeper *w, int fd, const char *kept, off_t max)
{
	_cleanup_close_ int out =
	        openat(w->qfd, kept, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0)
		return neg_errno();
	char buf[65536];
	off_t done = 0;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return neg_errno();
		if (n == 0 || done >= max)
			return 0;
		int r = write_full(out, buf, (size_t)n);
		if (r < 0)
			return r;
		done += n;
	}
}

/* Move dir/name (of type st) into the quarantine: renamed there, or,
 * across file systems, made again there (a link, a FIFO) and removed
 * here; a file is always copied and removed, so that the other name of a
 * hard link, left with one link, stays. what says what it was. */
void git_quarantine_move(struct sweeper *w, int dir, const char *name, const struct stat *st,
                         const char *what)
{
	char kept[NAME_MAX + 1];
	git_quarantine_kept_name(w, name, kept);
	int qfd = git_quarantine_open(w);
	if (qfd < 0) {
		git_sweep_fail(w->s, "the quarantine folder in '%s': %s",
		               w->jobs_dir ? w->jobs_dir : "?", strerror(-qfd));
		/* still removed: leaving it is what the sweep must not do */
	} else if (S_ISREG(st->st_mode)) {
		/* copied, below: a hard link moved whole would keep its other
		 * name in the gitdir at two links, and it too would be taken */
	} else if (renameat(dir, name, qfd, kept) == 0) {
		git_quarantine_note(w, w->path, name, what, kept);
		return;
	} else if (errno != EXDEV) {
		git_sweep_fail(w->s, "moving '%s/%s': %s", w->path, name, strerror(errno));
		git_quarantine_note(w, w->path, name, what, NULL);
		return;
	}
	bool made = false;
	if (qfd >= 0 && S_ISLNK(st->st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlinkat(dir, name, target, sizeof(target) - 1);
		if (n >= 0) {
			target[n] = '\0';
			made = symlinkat(target, qfd, kept) == 0;
		}
	} else if (qfd >= 0 && S_ISFIFO(st->st_mode)) {
		made = mkfifoat(qfd, kept, st->st_mode & 0600) == 0;
	} else if (qfd >= 0 && S_ISREG(st->st_mode)) {
		_cleanup_close_ int fd = openat(
		        dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		struct stat now;
		made = fd >= 0 && fstat(fd, &now) == 0 && now.st_ino == st->st_ino &&
		       S_ISREG(now.st_mode) &&
		       git_quarantine_copy(w, fd, kept, SWEEP_COPY_MAX) == 0;
	}
	/* a socket or device node is not made again: the manifest says what it was */
	if (unlinkat(dir, name, S_ISDIR(st->st_mode) ? AT_REMOVEDIR : 0) < 0)
		git_sweep_fail(w->s, "removing '%s/%s': %s", w->path, name, strerror(errno));
	git_quarantine_note(w, w->path, name, what, made ? kept : NULL);
}
