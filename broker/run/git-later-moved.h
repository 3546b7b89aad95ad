/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: refs the run moved other than the checked-out
 * branch (git-later-moved.c). The user's own branches, the remote-tracking
 * refs and the tags are trusted by the user's routine git: `git switch
 * feature` back to a branch of the user's, `git merge origin/main` or
 * `git rebase` (onto the upstream, without a fetch), `git reset --hard
 * origin/main`, `git checkout v1.2`. A run that moves one of them to a
 * commit of its own (or adds a ref whose short name takes one's place:
 * refs/heads/origin/main before refs/remotes/origin/main) gets that
 * commit's lefthook.yml written by them. So each ref the run moved
 * (git-later-snapshot.c) whose commit holds content at a name that runs
 * later, other than its commit before the run had (or, for a new ref that
 * shadows another, the pre-run HEAD), is put back (a new one deleted),
 * the commit kept at refs/sluice/held/..., and reported. A branch or tag
 * the run creates under a name of its own is the run's work, left alone.
 * Not for: anyone but git-later.c; the checked-out branch, refs/stash and
 * refs/replace/ (their own files).
 */
#ifndef SLUICE_GIT_LATER_MOVED_H
#define SLUICE_GIT_LATER_MOVED_H

#include <stddef.h>

#include "run/git-later-snapshot.h"
#include "run/protect-watch.h"

struct git_later;
struct git_sweep;

/* The refs among the run's changes (n of them; before: the names of the
 * refs there before the run) that plant a name of pathspecs, put back,
 * each noted in s's items. Returns the number, or -errno (noted in s). */
int git_later_moved_end(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                        char **pathspecs, const struct git_later_ref_change *changes, size_t n,
                        char **before);

#endif
