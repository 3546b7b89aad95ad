/* SPDX-License-Identifier: MIT */
/*
 * The private TMPDIR of one sandboxed run: a fresh 0700 directory under the
 * per-user jobs directory (for a command run as another user, under /tmp,
 * owned by that user), the one place outside the workspace that the
 * sandboxed command may write, removed with everything in it when the run
 * (or, for a background job, its monitor) is done.
 * Not for: the jobs directory itself (jobs.c makes it).
 */
#ifndef SLUICE_RUN_TMPDIR_H
#define SLUICE_RUN_TMPDIR_H

#include <stdbool.h>

#include "errors.h"

/* The names' beginnings: under the jobs directory, and for another user in
 * RUN_TMPDIR_USER_BASE. */
#define RUN_TMPDIR_PREFIX "tmp-"
#define RUN_TMPDIR_USER_BASE "/tmp"
#define RUN_TMPDIR_USER_PREFIX "sluice-tmp-"

/* Create JOBS_DIR/tmp-XXXXXX (0700). With user non-NULL and this process
 * root (the command runs as user, who cannot enter the jobs directory):
 * /tmp/sluice-tmp-XXXXXX instead, owned by user. *ret is owned by the
 * caller. */
int run_tmpdir_create(const char *jobs_dir, const char *user, char **ret,
                      struct sluice_error *reterr);

/* Mark path, a TMPDIR run_tmpdir_create() made, as in use for as long as
 * the returned descriptor (close-on-exec) is open in this process or in a
 * fork of it: run_tmpdir_abandoned() is false meanwhile. Returns the
 * descriptor, or -errno. */
int run_tmpdir_hold(const char *path);

/* Whether nobody holds the directory name in dir_fd: nothing uses it any
 * more (its run was killed before it could remove it), so it may go. */
bool run_tmpdir_abandoned(int dir_fd, const char *name);

/* Remove path and everything beneath it, never following a symlink; a
 * directory another user owns is removed by a child that has become that
 * user. Returns 0, or the first -errno met (removal goes on past it). */
int run_tmpdir_remove(const char *path);

#endif
