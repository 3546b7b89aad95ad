/* SPDX-License-Identifier: MIT */
/*
 * A private scratch directory for each test of a suite: made in the suite's
 * .init under $TMPDIR (never the source tree or $HOME), removed whole in
 * .fini. Header-only; the suite links libbroker.a for the removal.
 */
#ifndef SLUICE_TEST_SCRATCH_H
#define SLUICE_TEST_SCRATCH_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "run/run-tmpdir.h"

/* Make TMPDIR/NAME-XXXXXX into buf (size bytes); fails the test on error. */
static inline void scratch_make(char *buf, size_t size, const char *name)
{
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int n = snprintf(buf, size, "%s/%s-XXXXXX", base, name);
	cr_assert(n > 0 && (size_t)n < size, "scratch path too long");
	cr_assert_not_null(mkdtemp(buf), "mkdtemp '%s'", buf);
}

/* Remove the directory and everything in it, never following a symlink. */
static inline void scratch_remove(const char *dir)
{
	cr_assert_eq(run_tmpdir_remove(dir), 0, "removing '%s'", dir);
}

#endif
