/* SPDX-License-Identifier: MIT */
/*
 * Private per-run temporary directories. Removal walks with FTW_PHYS, so a
 * symlink the command left behind is removed itself, never followed out of
 * the directory.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "run-tmpdir.h"

int run_tmpdir_create(const char *jobs_dir, char **ret, struct sluice_error *reterr)
{
	char *path = NULL;
	if (asprintf(&path, "%s/tmp-XXXXXX", jobs_dir) < 0)
		return sluice_error_set(reterr, -ENOMEM, "the private TMPDIR's name");
	if (!mkdtemp(path)) {
		int r = neg_errno();
		sluice_error_set(reterr, r, "creating the private TMPDIR '%s'", path);
		free(path);
		return r;
	}
	*ret = path;
	return 0;
}

/* The walks of make_removable() open one more level of directories the
 * command made unreadable each; past this many, what is left stays. */
#define MAX_MODE_PASSES 64

/* Whether the last make_removable() walk met a directory it could not read
 * (its mode is given back: the next walk goes into it). */
static bool unreadable_seen;

/* A command may have taken the read or write bit off a directory it made;
 * give it back (to the owner only) so its entries can be removed. */
static int make_removable(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if ((type == FTW_D || type == FTW_DNR) && (st->st_mode & 0700) != 0700)
		(void)chmod(path, 0700);
	if (type == FTW_DNR)
		unreadable_seen = true;
	return 0;
}

/* Failures are not fatal to the walk: remove what can be removed, and let
 * the caller see what is left. */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	(void)(type == FTW_DP ? rmdir(path) : unlink(path));
	return 0;
}

static int remove_pass(const char *path)
{
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0 && errno != ENOENT)
		return neg_errno();
	return access(path, F_OK) == 0 ? -ENOTEMPTY : 0;
}

int run_tmpdir_remove(const char *path)
{
	/* Mostly the command left nothing: one rmdir, no walk. */
	if (rmdir(path) == 0 || errno == ENOENT)
		return 0;
	/* Usually one pass does it; a directory the command made unwritable
	 * needs its mode back first. */
	int r = remove_pass(path);
	if (r != -ENOTEMPTY)
		return r;
	for (int pass = 0; pass < MAX_MODE_PASSES; pass++) {
		unreadable_seen = false;
		if (nftw(path, make_removable, 16, FTW_PHYS | FTW_MOUNT) < 0 && errno != ENOENT)
			return neg_errno();
		if (!unreadable_seen)
			break;
	}
	return remove_pass(path);
}
