/* SPDX-License-Identifier: MIT */
/*
 * git as the check of what git restores later runs it (git-later-git.c):
 * in the workspace's repository, hardened (git-command.c), counted, a
 * failure noted in the sweep's error; and a ref of the run's kept where
 * the user finds it (refs/sluice/held/STAMP-PID).
 * Not for: anyone but the check's parts (git-later*.c).
 */
#ifndef SLUICE_GIT_LATER_GIT_H
#define SLUICE_GIT_LATER_GIT_H

#include "run/git-command.h"
#include "run/git-later.h"

/* git_command_run() in the workspace's repository, counted in g->gits. */
int git_later_run(struct git_later *g, const char *const args[], int stdin_fd,
                  struct git_output *o);

/* git_later_run(), and a failure (not run, or not exit 0) noted in the
 * sweep's error naming what: 0, or -errno (-EIO: git failed). */
int git_later_ok(struct git_later *g, struct git_sweep *s, const char *what,
                 const char *const args[], int stdin_fd, struct git_output *o);

/* git_later_ok() with GIT_DIR=gitdir: another worktree's (its HEAD is
 * then the HEAD git reads), of the same repository. */
int git_later_ok_in(struct git_later *g, struct git_sweep *s, const char *gitdir, const char *what,
                    const char *const args[], int stdin_fd, struct git_output *o);

/* The object id kept at a new refs/sluice/held/STAMP-PID[-N] (its name
 * into held), never over another run's, or at the one this check made
 * for it already (g->held): 0, or -errno noted in s. */
int git_later_hold(struct git_later *g, struct git_sweep *s, const char *id, char held[96]);

/* The first 12 digits of an id, or "(none)". */
void git_later_short_id(const char *id, char out[13]);

#endif
