/* SPDX-License-Identifier: MIT */
/*
 * What git restores later, in the nested repositories (git-later-nested.c):
 * a submodule (its gitdir in .git/modules/NAME or its own .git folder) or
 * a `git init sub` whose folder lies on the way to a name that runs later
 * (tools, with tools/bin on the user's PATH). The top's check moves its
 * gitlink back, but the nested repository's own index and HEAD would
 * still hold the run's tools/bin/git, which the user's `git -C tools
 * reset --hard` writes. Its folders are the ones on the way to the
 * protected paths and the PATH's folders of the workspace, a few stat(2)s
 * before the run; after it, each one whose index, HEAD, packed-refs or
 * branch changed is checked as the top is (git-later.c), against its own
 * HEAD before the run, and one the run made against the empty tree.
 * Not for: anyone but git-later.c and the runner (git-later.h).
 */
#ifndef SLUICE_GIT_LATER_NESTED_H
#define SLUICE_GIT_LATER_NESTED_H

#include "run/git-later.h"

/* The nested repositories read before the run, at most; one more is not
 * checked, and said after the run (the sweep's error). */
#define GIT_LATER_NESTED_MAX 16

/* After the run: each nested repository's index and branch checked (see
 * above), what plants undone and noted in s's items. The number found, or
 * -errno (noted in s). */
int git_later_nested_end(struct git_later *g, const struct protect_watch *w, struct git_sweep *s);

void git_later_nested_done(struct git_later *g);

/* In git-later.c: the index and branch of g, which changed, against its
 * HEAD before the run at pathspecs; what plants undone (the number
 * found, or -errno). */
int git_later_index_and_branch(struct git_later *g, const struct protect_watch *w,
                               struct git_sweep *s, char **pathspecs);

#endif
