/* SPDX-License-Identifier: MIT */
/*
 * The state of one git sweep, shared by its two parts: the walk of the
 * repositories (git-sweep.c) and the quarantine folder the items it finds
 * are moved or copied to (git-quarantine.c).
 * Not for: anyone outside the sweep; git-sweep.h is its interface.
 */
#ifndef SLUICE_GIT_SWEEP_STATE_H
#define SLUICE_GIT_SWEEP_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "run/git-sweep.h"

/* Nested repositories looked at, at most. */
#define SWEEP_NESTED_MAX 256

struct sweeper {
	struct git_sweep *s;
	const char *jobs_dir;
	int qfd; /* the quarantine folder, -1 until the first item */
	bool ctime_ok;
	dev_t dev;
	char path[PATH_MAX]; /* the directory being read */
	char *nested[SWEEP_NESTED_MAX];
	/* the work tree of each nested repository found through a gitlink
	 * (whose own index's gitlinks lie there), else NULL */
	char *nested_tree[SWEEP_NESTED_MAX];
	size_t n_nested;
	const char *tree; /* the work tree the gitlinks at hand are relative to */
	char keys[512];   /* the names git_defuse_* reported for the file at hand */
	int n_keys;
};

/* Record that the sweep could not do all it should (s->error): the first
 * failure is kept, the one to read. */
void git_sweep_fail(struct git_sweep *s, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

#endif
