/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the lock files a run left (git-later-locks.c).
 * git takes a file's lock by creating NAME.lock, and refuses to change
 * the file while it is there. A run that leaves .git/index.lock (a git it
 * killed, or on purpose) makes the check's own git fail to put back what
 * the run staged; the user is then told by git to remove the stale lock,
 * and the next `git checkout .` writes the run's version. Once every
 * process of the run is gone, a lock it made holds nothing, so each lock
 * file made during the run (its ctime, which the command cannot set back)
 * in the gitdir, the common directory and under refs/ is removed before
 * the check runs git, and reported.
 * Not for: anyone but git-later.c.
 */
#ifndef SLUICE_GIT_LATER_LOCKS_H
#define SLUICE_GIT_LATER_LOCKS_H

#include <stddef.h>

#include "run/git-later-snapshot.h"

struct git_later;
struct git_sweep;

/* The run's lock files removed (the new refs among changes whose name
 * ends in ".lock" too), each noted in s's items. Returns the number. */
int git_later_locks_end(struct git_later *g, struct git_sweep *s,
                        const struct git_later_ref_change *changes, size_t n);

#endif
