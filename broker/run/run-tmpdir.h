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
/* One empty TMPDIR kept in the jobs directory for the next run, so that a
 * run whose command never saw its directory (a tmpfs covered it) costs no
 * directory made and removed on disk: not a "tmp-" name, so the sweep of
 * abandoned ones passes it by. */
#define RUN_TMPDIR_SPARE "spare-tmp"
/* The mount point the foreground runs that have a mount namespace share:
 * each covers it with a tmpfs of its own, so it stays empty on disk and
 * costs a run no directory made or renamed. A run that finds no namespace
 * after all (the launcher's --tmpdir-fallback) makes its TMPDIR in it,
 * named RUN_TMPDIR_PREFIX...; those go at the sweep once nobody holds the
 * point. Not a "tmp-" name either. */
#define RUN_TMPDIR_SHARED "namespace-tmp"

/* Create JOBS_DIR/tmp-XXXXXX (0700), or take the spare (RUN_TMPDIR_SPARE:
 * empty, this user's, renamed so), and hold it (run_tmpdir_hold(): the
 * descriptor in *ret_hold). With user non-NULL and this process root (the
 * command runs as user, who cannot enter the jobs directory):
 * /tmp/sluice-tmp-XXXXXX instead, owned by user, never a spare. *ret is
 * owned by the caller. */
int run_tmpdir_create(const char *jobs_dir, const char *user, char **ret, int *ret_hold,
                      struct sluice_error *reterr);

/* The shared mount point (JOBS_DIR/RUN_TMPDIR_SHARED, made 0700 when
 * missing) in *ret_point, held (run_tmpdir_hold(): the descriptor in
 * *ret_hold) for as long as the run may use it; in *ret_fallback a fresh
 * name in it, not made, for the launcher's --tmpdir-fallback. Returns 0, or
 * -errno: -ESTALE when the point is not this user's and group's (the
 * launcher gives its tmpfs the point's owner), -EWOULDBLOCK while the sweep
 * claims it (run_tmpdir_claim()); then the caller makes a TMPDIR of its
 * own (run_tmpdir_create()). Its mode is made 0700 again. Both strings are
 * the caller's. */
int run_tmpdir_share(const char *jobs_dir, char **ret_point, char **ret_fallback, int *ret_hold,
                     struct sluice_error *reterr);

/* Done with path, a TMPDIR run_tmpdir_create() made: unseen (its command
 * never saw the directory, a tmpfs covered it), it becomes the spare when
 * there is none; else, or when it cannot, it is removed
 * (run_tmpdir_remove()). Returns 0 or -errno as that does. */
int run_tmpdir_release(const char *path, bool unseen);

/* Mark path, a TMPDIR run_tmpdir_create() made, as in use for as long as
 * the returned descriptor (close-on-exec) is open in this process or in a
 * fork of it: run_tmpdir_abandoned() is false meanwhile. Returns the
 * descriptor, or -errno. */
int run_tmpdir_hold(const char *path);

/* Whether nobody holds the directory name in dir_fd: nothing uses it any
 * more (its run was killed before it could remove it), so it may go. */
bool run_tmpdir_abandoned(int dir_fd, const char *name);

/* The same, and the directory kept so: open (close-on-exec, its owner's
 * bits given back if its command took them) with an exclusive flock, so
 * that no run can hold it until the descriptor returned is closed. -errno:
 * -EWOULDBLOCK when something holds it. */
int run_tmpdir_claim(int dir_fd, const char *name);

/* Remove path and everything beneath it, never following a symlink; a
 * directory another user owns is removed by a child that has become that
 * user. Returns 0, or the first -errno met (removal goes on past it). */
int run_tmpdir_remove(const char *path);

#ifdef SLUICE_TEST_HOOKS
/* Only in the unit test's own build of run-tmpdir.c: called in the removal
 * walk just before a directory found in the tree is opened to be emptied,
 * the window in which a survivor could swap it for a symlink. The test
 * swaps it there, so the race is hit every time, not by luck. */
extern void (*run_tmpdir_before_open_hook)(int dir_fd, const char *name);
#endif

#endif
