/* SPDX-License-Identifier: MIT */
/*
 * The quarantine folder of a git sweep (JOBS_DIR/quarantine/STAMP-PID-N),
 * made on the first item: what the sweep takes out of a gitdir is moved
 * or copied there under a numbered name, each item noted in the sweep's
 * result and in the folder's MANIFEST.
 * Not for: deciding what to take (git-sweep.c).
 */
#ifndef SLUICE_GIT_QUARANTINE_H
#define SLUICE_GIT_QUARANTINE_H

#include <limits.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "run/git-sweep-state.h"

/* The quarantine folder's descriptor, made on first use (w->qfd), or
 * -errno (-ENOENT: no jobs directory to make it in). */
int git_quarantine_open(struct sweeper *w);

/* Note an item found at dir/name (what it was) in the sweep's result and
 * the manifest; kept is its name in the quarantine folder, or NULL. */
void git_quarantine_note(struct sweeper *w, const char *dir, const char *name, const char *what,
                         const char *kept);

/* The name in the quarantine folder for the next item, called name. */
void git_quarantine_kept_name(const struct sweeper *w, const char *name, char out[NAME_MAX + 1]);

/* Copy the regular file fd into the quarantine as kept (at most max
 * bytes). 0 or -errno. */
int git_quarantine_copy(struct sweeper *w, int fd, const char *kept, off_t max);

/* Move dir/name (of type st) into the quarantine: renamed there, or,
 * across file systems, made again there (a link, a FIFO) and removed
 * here; a file is always copied and removed, so that the other name of a
 * hard link, left with one link, stays. what says what it was. A failure
 * is recorded (git_sweep_fail()); the entry is removed all the same. */
void git_quarantine_move(struct sweeper *w, int dir, const char *name, const struct stat *st,
                         const char *what);

#endif
