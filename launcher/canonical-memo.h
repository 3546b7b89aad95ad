/* SPDX-License-Identifier: MIT */
/*
 * The canonical form of many paths that share their folders (the --hide
 * paths: a hundred of them lie in the home directory, most of them in
 * folders this machine does not have), resolved with one lstat per folder
 * or name instead of realpath()'s readlink per component of each path. A
 * missing folder is remembered too, so that nothing beneath it is looked
 * up again.
 * Not for: paths whose folders may change between two lookups (the memo
 * keeps what it saw), or telling whether a path can be trusted.
 */
#ifndef SLUICE_LAUNCHER_CANONICAL_MEMO_H
#define SLUICE_LAUNCHER_CANONICAL_MEMO_H

#include <stdbool.h>
#include <stddef.h>

#define CANONICAL_MEMO_SLOTS 512

/* One looked-up prefix of a path: its canonical form, and what is there. */
struct canonical_memo_entry {
	char *path;      /* the prefix as given, or NULL for a free slot */
	char *canonical; /* what it resolves to */
	bool exists;     /* lstat found it (not a symlink: those take realpath()) */
};

/* Zero-initialise; release with canonical_memo_done(). */
struct canonical_memo {
	struct canonical_memo_entry slot[CANONICAL_MEMO_SLOTS];
	size_t n;
};

void canonical_memo_done(struct canonical_memo *memo);

/*
 * What realpath() gives for path when it exists (*ret_exists true), else
 * path_canonical_missing()'s form (*ret_exists false): malloc'd, or NULL
 * where neither has one (a missing path with "." or ".." beneath its
 * existing part) or when out of memory. A path with a symlink, a "." or
 * ".." or an empty component, or one lstat cannot look at, takes those
 * functions themselves.
 */
char *canonical_memo_resolve(struct canonical_memo *memo, const char *path, bool *ret_exists);

#endif
