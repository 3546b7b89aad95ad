/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the index and commits against the pre-run HEAD
 * at the names that run later (git-later-diff.c), for the check's parts.
 * Not for: anyone but git-later*.c.
 */
#ifndef SLUICE_GIT_LATER_DIFF_H
#define SLUICE_GIT_LATER_DIFF_H

#include <stdbool.h>

#include "run/git-command.h"
#include "run/git-later.h"

/* One record of `git diff-* --raw -z`. */
struct git_later_change {
	unsigned old_mode, new_mode;
	char old_id[65], new_id[65];
	char status;
	const char *path; /* into the output */
};

/* The next record of raw -z output at *p, or false at its end (or at
 * anything malformed, *malformed then set, which the caller reports). */
bool git_later_next_change(const struct git_later *g, char **p, char *end,
                           struct git_later_change *c, bool *malformed);

/* Whether a change (an entry added or changed, not deleted) puts content
 * at a name that runs later, other than the work tree's. */
bool git_later_plants(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                      const struct git_later_change *c);

/* The empty tree's id in this repository's hash. */
const char *git_later_empty_tree(const struct git_later *g);

/* `git diff-tree`/`diff-index --cached` of base (NULL: the pre-run HEAD)
 * against against (a commit, tree or ref; NULL: the index), limited to
 * pathspecs, into *o (git_output_done() it in any case). */
int git_later_diff(struct git_later *g, struct git_sweep *s, const char *base, const char *against,
                   char **pathspecs, struct git_output *o);

/* The names a commit (or tree, or ref) plants against base (NULL: the
 * pre-run HEAD), comma-separated into *ret (NULL for none), or -errno
 * noted in s. */
int git_later_commit_plants(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                            const char *base, const char *commit, char **pathspecs, char **ret);

/* The commits of ids (hex) that plant a name of pathspecs against the
 * commit base_id (a worktree's HEAD before the run; "": the empty tree),
 * found with one git diff-tree --stdin, into *planting; -errno (noted in
 * s) when git cannot tell, which the caller takes as all of them. */
int git_later_ids_plant(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                        char **ids, char **pathspecs, const char *base_id, char ***planting);

#endif
