/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: info/grafts and objects/info/alternates
 * (git-later-history.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "run/git-later-history.h"
#include "run/git-later-refs.h"
#include "run/git-later.h"
#include "run/git-sweep-state.h"
#include "run/protect-watch.h"

#define HISTORY_TEXT_MAX (64 * 1024)

static const char *const names[HISTORY_FILES] = {
	[HISTORY_GRAFTS] = "info/grafts",
	[HISTORY_ALTERNATES] = "objects/info/alternates",
};

static const char *const why[HISTORY_FILES] = {
	[HISTORY_GRAFTS] = "it gives commits other parents (a stash entry's third parent is read "
	                   "as its untracked files, which git stash pop writes)",
	[HISTORY_ALTERNATES] = "it names object stores git reads HEAD's files from when the "
	                       "repository's own copy is gone",
};

void git_later_history_take(struct git_later_history *h, int cfd)
{
	*h = (struct git_later_history){ .text = { NULL } };
	for (int i = 0; i < HISTORY_FILES; i++) {
		if (fstatat(cfd, names[i], &h->st[i], AT_SYMLINK_NOFOLLOW) < 0) {
			h->error[i] = neg_errno();
			continue;
		}
		h->unread[i] = true;
		if (!S_ISREG(h->st[i].st_mode) || h->st[i].st_size > HISTORY_TEXT_MAX)
			continue;
		_cleanup_close_ int fd =
		        openat(cfd, names[i], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat st;
		char *text = NULL;
		size_t len;
		if (fd < 0 || git_later_read_small(fd, HISTORY_TEXT_MAX, &st, &text, &len) < 0)
			continue;
		if (!git_later_same_file(0, &h->st[i], 0, &st) || len != (size_t)st.st_size) {
			free(text);
			continue;
		}
		h->text[i] = text;
		h->len[i] = len;
		h->unread[i] = false;
	}
}

/* names[i], which the run made or changed, moved aside
 * (protect_watch_set_aside(): its name into aside), and the user's text
 * put back where there was one. */
static int set_aside(struct git_later_history *h, int cfd, int i, char aside[PATH_MAX])
{
	int r = protect_watch_set_aside(cfd, names[i], aside, PATH_MAX);
	if (r < 0 || !h->text[i])
		return r;
	return git_later_write_file(cfd, names[i], h->text[i], h->len[i]);
}

int git_later_history_end(struct git_later *g, struct git_sweep *s)
{
	struct git_later_history *h = &g->history;
	_cleanup_close_ int cfd = open(g->common, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int found = 0;
	for (int i = 0; cfd >= 0 && i < HISTORY_FILES; i++) {
		struct stat st;
		int e = fstatat(cfd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ? neg_errno() : 0;
		if (e || git_later_same_file(e, &st, h->error[i], &h->st[i]))
			continue; /* as it was, or gone */
		char aside[PATH_MAX];
		int r = set_aside(h, cfd, i, aside);
		if (r < 0) {
			git_sweep_fail(
			        s,
			        "the check of what git would restore later: %s/%s, which the "
			        "command changed, could not be set aside: %s; remove it before "
			        "running git",
			        g->common, names[i], strerror(-r));
			continue;
		}
		_cleanup_free_ char *path = NULL, *what = NULL;
		if (asprintf(&path, "%s/%s", g->common, names[i]) < 0 ||
		    asprintf(&what, "the command %s it, and %s; moved to %s%s",
		             h->error[i] ? "made" : "changed", why[i], aside,
		             h->text[i]     ? ", the user's own put back"
		             : h->unread[i] ? " (the user's own was too long to keep: look at it)"
		                            : "") < 0)
			return found;
		git_sweep_note_item(s, path, what, NULL);
		found++;
	}
	return found;
}

void git_later_history_done(struct git_later_history *h)
{
	for (int i = 0; i < HISTORY_FILES; i++) {
		free(h->text[i]);
		h->text[i] = NULL;
	}
}
