/* SPDX-License-Identifier: MIT */
/*
 * Whether many paths that share their folders can exist, told by listing
 * each folder once instead of a stat() per path: the --hide paths (a
 * hundred of them, most in the home directory, most missing), of which
 * only the few that may exist are then stat()ed. A path is said missing
 * only when a folder on its way was listed and lacks the next name, or
 * could not be opened because it does not exist; anything else (a folder
 * that cannot be listed, ".", "..", an empty name, a folder too large to
 * keep) is "maybe", and the caller's stat() decides, as before.
 * Not for: telling that a path exists (a name seen may be a dangling
 * symlink), or folders that change between two lookups (the listing is
 * kept).
 */
#ifndef SLUICE_LAUNCHER_DIR_NAMES_H
#define SLUICE_LAUNCHER_DIR_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#define DIR_NAMES_FOLDERS 32
/* A folder with more entries than this is not kept (its paths are "maybe"). */
#define DIR_NAMES_MAX 8192

/* One folder looked at: its names, sorted, or why there are none. */
struct dir_names_folder {
	char *path;   /* as given, or NULL for a free slot */
	char **names; /* sorted; NULL with n 0 when not listed */
	size_t n;
	bool missing;  /* opening it said ENOENT or ENOTDIR */
	bool unlisted; /* anything else: its names are not known */
};

/* Zero-initialise; release with dir_names_done(). */
struct dir_names {
	struct dir_names_folder folder[DIR_NAMES_FOLDERS];
};

void dir_names_done(struct dir_names *d);

/* false when path (absolute) surely does not exist, true when it may. */
bool dir_names_may_exist(struct dir_names *d, const char *path);

#endif
