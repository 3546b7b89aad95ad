/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: a paused git am session (git-later-am.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "run/git-later-am.h"
#include "run/git-later-refs.h"
#include "run/git-sweep-state.h"
#include "run/protect-watch.h"

static const char am_dir[] = "rebase-apply";

int git_later_am_take(int gfd, struct folder_snapshot *b)
{
	return folder_snapshot_take(gfd, am_dir, AM_ENTRIES_MAX, b);
}

void git_later_am_done(struct folder_snapshot *b)
{
	folder_snapshot_done(b);
}

bool git_later_am_changed(int gfd, const struct folder_snapshot *b, const struct timespec *started)
{
	struct stat now;
	int e = fstatat(gfd, am_dir, &now, AT_SYMLINK_NOFOLLOW) < 0 ? neg_errno() : 0;
	if (e == -ENOENT)
		return false; /* none now: git applies nothing */
	if (e || !git_later_same_file(e, &now, b->error, &b->st) || !S_ISDIR(now.st_mode))
		return true;
	/* the same folder, no entry made or removed: one written in place */
	int fd = openat(gfd, am_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_closedir_ DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		safe_close(fd);
		return true;
	}
	bool changed = false;
	size_t n = 0;
	struct dirent *de;
	while (!changed && (de = readdir(d)) != NULL) {
		struct stat es;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		n++;
		changed = fstatat(dirfd(d), de->d_name, &es, AT_SYMLINK_NOFOLLOW) < 0 ||
		          folder_snapshot_changed(b, de->d_name, &es, started);
	}
	return changed || (b->listed && n != b->n);
}

int git_later_am_end(struct git_sweep *s, int gfd, const char *gitdir,
                     const struct folder_snapshot *b, const struct timespec *started)
{
	if (!git_later_am_changed(gfd, b, started))
		return 0;
	char aside[NAME_MAX + 1];
	int r = protect_watch_set_aside(gfd, am_dir, aside, sizeof(aside));
	if (r < 0) {
		git_sweep_fail(s,
		               "the check of what git would restore later: %s/%s, a git am or "
		               "rebase session the command made or changed, could not be set "
		               "aside: %s; remove it before running git am or git rebase there",
		               gitdir, am_dir, strerror(-r));
		return r;
	}
	_cleanup_free_ char *path = NULL, *what = NULL;
	if (asprintf(&path, "%s/%s", gitdir, am_dir) < 0 ||
	    asprintf(&what,
	             "the command %s this git am or rebase --apply session, whose next patch "
	             "(mail text: no commit to compare) is where the user's git am --skip or "
	             "--continue (git rebase --skip or --continue) would go; moved to "
	             "%s/%s (if the session is your own: mv %s/%s %s/%s)",
	             b->error ? "made" : "changed", gitdir, aside, gitdir, aside, gitdir,
	             am_dir) < 0)
		return 1;
	git_sweep_note_item(s, path, what, NULL);
	return 1;
}
