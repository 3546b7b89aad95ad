/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the stash (git-later-stash.c). The run may
 * write refs/stash and its reflog (`git stash` must work), and a stash
 * entry is applied by the user's routine `git stash pop`: one the run
 * made, or wrote into the reflog, whose work tree, index or untracked
 * files hold content at a name that runs later (a protected path, an
 * executable named as a system command on the user's PATH) would be
 * written into the work tree, and the next `git commit` run it. So each
 * entry the run added or changed is compared with the pre-run HEAD at
 * those names (git-later-diff.c); one that plants is dropped from the
 * stash (kept at refs/sluice/held/...) and reported.
 * Before the run: two stat(2)s, and the stash's entries where there is
 * one (refs/stash and logs/refs/stash, the reflog read up to 1 MiB).
 * Not for: anyone but git-later.c.
 */
#ifndef SLUICE_GIT_LATER_STASH_H
#define SLUICE_GIT_LATER_STASH_H

#include <stdbool.h>
#include <sys/stat.h>

#include "run/protect-watch.h"

struct git_later;
struct git_sweep;

struct git_later_stash_file {
	int error; /* 0, or the stat's -errno */
	struct stat st;
};

struct git_later_stash {
	char **before; /* refs/stash's text and the reflog's entries before the run */
	bool unknown;  /* not read whole: every entry after the run is the run's */
	struct git_later_stash_file ref, log;
};

/* Before the run, in the common directory cfd (never fails: what cannot
 * be read makes every entry after the run count as the run's). */
void git_later_stash_begin(struct git_later_stash *t, int cfd);

/* Whether refs/stash or its reflog changed since git_later_stash_begin(). */
bool git_later_stash_changed(const struct git_later *g);

/* After the run, when git_later_stash_changed(): the entries the
 * run added or changed that plant a name of pathspecs dropped, each noted
 * in s's items. Returns the number, or -errno (noted in s). */
int git_later_stash_end(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                        char **pathspecs);

void git_later_stash_done(struct git_later_stash *t);

#endif
