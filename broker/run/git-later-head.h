/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: what a worktree's HEAD named, as the check's
 * parts read it (git-later-refs.c) and keep it (git-later.h, the run's;
 * git-later-pointers.h, each worktree's).
 * Not for: anyone but git-later*.c.
 */
#ifndef SLUICE_GIT_LATER_HEAD_H
#define SLUICE_GIT_LATER_HEAD_H

#include <stdbool.h>

/* What HEAD named: a branch (ref) or nothing (detached), and the commit
 * (id, "" for an unborn branch). */
struct git_later_head {
	bool ok; /* read; false: HEAD could not be read as git writes it */
	char ref[256];
	char id[65];
};

#endif
