/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: replace refs (git-later-replace.c). Every git
 * the user runs honours a ref under refs/replace/ whose name starts with
 * an object's id: it reads the ref's object in that one's place. A run
 * that adds refs/replace/<the tree of HEAD> gets its own tree written by
 * the user's next `git reset --hard`, `git checkout .` or `git stash`,
 * with no change to the index, HEAD or any branch. So a replace ref the
 * run added or changed, loose or packed, is taken out after it (its
 * object kept at refs/sluice/held/...) and reported.
 * Before the run: the loose refs under refs/replace/ (usually none: one
 * failed openat) and packed-refs held open, read after the run only when
 * it changed.
 * Not for: anyone but git-later.c.
 */
#ifndef SLUICE_GIT_LATER_REPLACE_H
#define SLUICE_GIT_LATER_REPLACE_H

#include <stdbool.h>
#include <sys/stat.h>

struct git_later;
struct git_sweep;

struct git_later_replace {
	char **loose;       /* "NAME\tTEXT" under refs/replace/ before the run */
	bool loose_unknown; /* not read whole: every one there after the run is the run's */
	int packed_fd;      /* packed-refs before the run, held open; -1: none */
	struct stat packed_st;
};

/* Before the run, in the common directory cfd (never fails: what cannot
 * be read counts as not there before, so that all found after is the
 * run's). */
void git_later_replace_begin(struct git_later_replace *r, int cfd);

/* After the run: the replace refs the run added or changed taken out,
 * each noted in s's items. Returns the number, or -errno (noted in s). */
int git_later_replace_end(struct git_later *g, struct git_sweep *s);

void git_later_replace_done(struct git_later_replace *r);

#endif
