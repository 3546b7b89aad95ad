/* SPDX-License-Identifier: MIT */
/*
 * The --protect paths of a workspace: files and folders inside it that
 * other programs run later with the user's full rights (an agent's or an
 * editor's project configuration, a hook manager's configuration or
 * scripts), found by name so that the mounts can bind them read-only and
 * Landlock can carve them out where there are no mounts.
 * Not for: mounting (mounts.c), Landlock's rules (landlock.c), or the
 * list itself, which the caller chooses (the broker's [sandbox] protect).
 */
#ifndef SLUICE_LAUNCHER_PROTECTED_PATHS_H
#define SLUICE_LAUNCHER_PROTECTED_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "errors.h"

/* More existing matches than this are refused (a workspace with that
 * many is unusual, and each costs a mount). */
#define PROTECTED_PATHS_MAX 128
/* A cap on --protect options. */
#define PROTECTED_PATTERNS_MAX 64

struct protected_paths {
	/* What exists: absolute and canonical, inside the workspace. */
	char *present[PROTECTED_PATHS_MAX];
	size_t n_present;
	/* What does not exist yet, absolute but not canonical: a missing
	 * file, or a pattern ("/ws/lefthook*"). Nothing can be bound there;
	 * Landlock keeps its folder uncreatable where there are no mounts. */
	char *absent[PROTECTED_PATTERNS_MAX];
	size_t n_absent;
};

/* Whether an entry of --protect is well formed: relative to the
 * workspace, no "." or ".." component, no empty one, wildcards only in
 * the last component; a trailing "/" names a folder. NULL when it is, else
 * why not (static). */
const char *protected_paths_check(const char *entry);

/* Resolve the entries against workspace (absolute and canonical). A
 * pattern matches the names its folder holds now; a missing folder entry
 * ("NAME/") whose parent exists is made, empty and owned like the
 * workspace, so that the command cannot make it (git ignores an empty
 * folder), and marked as made here; runs_lock (--protect-lock, or NULL)
 * and the folder entries' parents (the workspace, for the defaults) are
 * held locked shared until this process ends or execs, so that the tidier
 * removes none that a run covers (protect-tidy.h). A symlink is followed: what it points to inside the workspace
 * is protected. Returns 0 or -errno. */
int protected_paths_find(const char *workspace, const char *const *entries, size_t n,
                         const char *runs_lock, struct protected_paths *ret,
                         struct sluice_error *err);

void protected_paths_done(struct protected_paths *paths);

#endif
