/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: replace refs (git-later-replace.c). Every git
 * the user runs honours a ref under refs/replace/ whose name starts with
 * an object's id (git reads the first 40 or 64 digits only, so a longer
 * name or one in a folder counts too): it reads the ref's object in that
 * one's place. A run that adds refs/replace/<the tree of HEAD> gets its
 * own tree written by the user's next `git reset --hard`, `git checkout
 * .` or `git stash`, with no change to the index, HEAD or any branch. So
 * a replace ref the run added or changed, loose or packed
 * (git-later-snapshot.c finds them), is taken out after it, its object
 * kept at refs/sluice/held/..., and reported.
 * Not for: anyone but git-later.c.
 */
#ifndef SLUICE_GIT_LATER_REPLACE_H
#define SLUICE_GIT_LATER_REPLACE_H

#include <stddef.h>

#include "run/git-later-snapshot.h"

struct git_later;
struct git_sweep;

/* The replace refs among the run's changes (n of them) that it added or
 * changed, taken out, each noted in s's items. Returns the number, or
 * -errno (noted in s). */
int git_later_replace_end(struct git_later *g, struct git_sweep *s,
                          const struct git_later_ref_change *changes, size_t n);

#endif
