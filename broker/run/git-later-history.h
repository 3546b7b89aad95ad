/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the files that change what git reads as the
 * repository's history (git-later-history.c). `info/grafts` gives a commit
 * other parents (git 2.39 still honours it, with a hint): a third parent
 * on the user's own stash entry is read as its untracked files, which `git
 * stash pop` writes. `objects/info/alternates` names more object stores:
 * one the command controls can hold an object of HEAD's tree that git
 * finds there once the local copy is gone. git writes neither in a day's
 * work, so one the run made or changed is moved aside (NAME.sluice-blocked)
 * and the user's own, where there was one, put back. Before the run: two
 * stat(2)s and, where they exist, their text (64 KiB at most).
 * Not for: anyone but git-later.c.
 */
#ifndef SLUICE_GIT_LATER_HISTORY_H
#define SLUICE_GIT_LATER_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct git_later;
struct git_sweep;

enum git_later_history_file { HISTORY_GRAFTS, HISTORY_ALTERNATES, HISTORY_FILES };

struct git_later_history {
	int error[HISTORY_FILES];
	struct stat st[HISTORY_FILES];
	char *text[HISTORY_FILES]; /* before the run; NULL: none, or too long */
	size_t len[HISTORY_FILES];
	bool unread[HISTORY_FILES]; /* there, but not read: nothing to put back */
};

/* Before the run, in the common directory cfd. */
void git_later_history_take(struct git_later_history *h, int cfd);

/* After the run: each that changed moved aside, the user's put back,
 * noted in s's items. Returns the number. */
int git_later_history_end(struct git_later *g, struct git_sweep *s);

void git_later_history_done(struct git_later_history *h);

#endif
