/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the repository's refs as files, before the run
 * and after it (git-later-snapshot.c), without running git. Before: the
 * loose refs under refs/ (a walk that reads each file's first line: a few
 * dozen system calls in a usual repository) and packed-refs held open.
 * After: the walk again and, where anything changed, packed-refs now and
 * as it was (the held file, as long as it is unchanged: git replaces
 * packed-refs, never writes it in place). Compared by the value git reads
 * (a loose ref over the packed line of its name), into the changes the
 * check's parts undo: replace refs (git-later-replace.c) and refs the run
 * moved (git-later-moved.c).
 * Not for: anyone but git-later*.c; refs/sluice/ (the check's own) is
 * left out.
 */
#ifndef SLUICE_GIT_LATER_SNAPSHOT_H
#define SLUICE_GIT_LATER_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct git_later_snapshot {
	char **loose;       /* "refs/NAME\tTEXT" before the run */
	bool loose_unknown; /* not read whole (too many, unreadable) */
	int packed_fd;      /* packed-refs before the run, held open; -1: none */
	struct stat packed_st;
};

/* One ref whose value the run changed. */
struct git_later_ref_change {
	char *name;   /* "refs/..." */
	char *before; /* its text before the run (an id, "ref: X", ...); NULL: not
	                 there; "" : not known (packed-refs written in place) */
	char *after;  /* its text now; NULL: gone */
};

/* Before the run, in the common directory cfd. Never fails: what cannot
 * be read is said by loose_unknown, and packed_fd -1. */
void git_later_snapshot_take(struct git_later_snapshot *snap, int cfd);

/* After the run: the refs whose value changed (none when the walk and
 * packed-refs are as they were) into *ret (n of them), and where any did,
 * the names of the refs there before the run into *before (NULL: not
 * wanted), or -errno (-E2BIG: too many loose refs or packed-refs too
 * large to compare). */
int git_later_snapshot_changes(const struct git_later_snapshot *snap, int cfd,
                               struct git_later_ref_change **ret, size_t *n, char ***before);

void git_later_ref_changes_free(struct git_later_ref_change *c, size_t n);

void git_later_snapshot_done(struct git_later_snapshot *snap);

#endif
