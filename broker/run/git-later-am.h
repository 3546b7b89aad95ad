/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: a paused `git am` session, or a rebase's that
 * applies patches (`git rebase --apply`): rebase-apply/, whose patch
 * files (0001...: mail text, no commit to compare) the user's `git am
 * --skip` or `--continue` (`git rebase --skip`, `--continue`) applies
 * next (red team 49, 16). What git applies from one is decided by git's
 * own mailinfo (which decodes a base64 or quoted-printable body) and the
 * session's other files (apply-opt adds `--directory=bin`, keep, utf8,
 * ...), so the patch text read here would tell nothing sound; instead one
 * the run made or changed (the folder another inode, or with entries made
 * or removed; an entry whose stat, its ctime first, is not as before the
 * run: every write, rename or link sets it) is moved aside whole, to
 * rebase-apply.sluice-blocked[-N] in the same gitdir, and reported with
 * how to put it back. A session the run did not touch (the user's own,
 * paused before it) stays. Before the run: the folder's entries' stat
 * (at most AM_ENTRIES_MAX; past them, an entry whose ctime is not before
 * the run began counts: a file written just before may then count too).
 * The list is a folder_snapshot (folder-snapshot.c).
 * git-later-pointers.c calls it for each
 * worktree's gitdir, after its rebase-apply/orig-head and autostash are
 * checked.
 * Not for: anyone but git-later-pointers.c.
 */
#ifndef SLUICE_GIT_LATER_AM_H
#define SLUICE_GIT_LATER_AM_H

#include <stdbool.h>
#include <sys/stat.h>
#include <time.h>

#include "run/folder-snapshot.h"

struct git_sweep;

#define AM_ENTRIES_MAX 4096

/* Before the run: rebase-apply in the gitdir gfd, into b: 0 or -ENOMEM. */
int git_later_am_take(int gfd, struct folder_snapshot *b);

void git_later_am_done(struct folder_snapshot *b);

/* Whether rebase-apply in gfd was made or changed since b (started: the
 * coarse clock before the run, as file times are). One that cannot be
 * read counts as changed. */
bool git_later_am_changed(int gfd, const struct folder_snapshot *b, const struct timespec *started);

/* After the run: rebase-apply of gfd (gitdir its path), where changed,
 * moved aside and noted in s. Returns 1 where it was, 0, or -errno (noted
 * in s). */
int git_later_am_end(struct git_sweep *s, int gfd, const char *gitdir,
                     const struct folder_snapshot *b, const struct timespec *started);

#endif
