/* SPDX-License-Identifier: MIT */
/*
 * What a run created at a protected path that did not exist when it
 * started. The launcher binds every [sandbox] protect path that exists
 * read-only and makes the missing folders, but a missing file (a new
 * lefthook-local.yml, .mcp.json) cannot be covered by a mount; so the
 * names matching the file entries are listed before the run, and what
 * matches after it and was not there is renamed NAME.sluice-blocked, which
 * no program reads, and reported, so that the user can restore it on
 * purpose. Likewise an executable the run put in a folder of the workspace
 * that the user's PATH names ahead of the system's folders, named as a
 * system command (a git of its own in bin/, with direnv's PATH_add bin).
 * Not for: the protection itself (the launcher's protected-paths.c).
 */
#ifndef SLUICE_PROTECT_WATCH_H
#define SLUICE_PROTECT_WATCH_H

#include <stddef.h>
#include <stdio.h>

#include "core/run-settings.h"

/* The suffix a blocked file is given; where that name is taken, "-2" and
 * so on after it, up to PROTECT_WATCH_TRIES. */
#define PROTECT_WATCH_SUFFIX ".sluice-blocked"
#define PROTECT_WATCH_TRIES 9

struct protect_watch {
	const char *workspace;               /* borrowed */
	const struct run_settings *settings; /* borrowed */
	char **before;                       /* "DIR/NAME" present at the start (strv) */
	char **blocked; /* what was renamed, relative to the workspace (strv) */
	/* the workspace's folders on the user's PATH ahead of the system's
	 * ("DIR\tSYSTEM:..."), the executables there at the start
	 * ("DIR/NAME\tINODE:MTIME:CTIME:SIZE", and "DIR\tlink:INODE:CTIME" of
	 * each symlink on the way to a folder), and those of blocked that were
	 * planted there (strv each) */
	char **path_folders;
	char **path_before;
	char **path_blocked;
	int error; /* what protect_watch_end() could not do (-errno), or 0 */
	bool active;
};

/* List what matches the file entries of s->protect in workspace now; does
 * nothing outside workspace-write. Returns 0, or -errno: then nothing is
 * watched, and the text says the check failed (the launcher's binds of
 * what exists hold all the same). */
int protect_watch_begin(struct protect_watch *w, const char *workspace,
                        const struct run_settings *s);

/* Once every process of the run is gone: rename what appeared, listing it
 * in w->blocked. Returns the number renamed, or -errno (some may be; kept
 * in w->error too). */
int protect_watch_end(struct protect_watch *w);

/* The lines a model reads: each file renamed, and a check that failed
 * (nothing when w is NULL or found nothing). */
void protect_watch_write_text(const struct protect_watch *w, FILE *f);

/* Whether an entry git's index or a commit holds at path (relative to the
 * workspace, as git names it), of git's mode (0100644, 0100755, 0120000,
 * 0160000), would run later if git wrote it to the work tree: a name
 * matching a file entry of s->protect, anything under a folder entry, an
 * entry standing where a folder on the way to either lies (a symlink
 * staged at .claude or .config), an executable or symlink named as a
 * system command in one of the workspace's folders on the user's PATH
 * (as protect_watch_end() blocks in the work tree), and an entry
 * standing where such a folder lies. Nothing outside workspace-write. */
bool protect_watch_runs_later(const struct protect_watch *w, const char *path, unsigned mode);

/* git pathspecs (":(literal)NAME", ":(glob)PATTERN") that cover every
 * path protect_watch_runs_later() can answer true for, appended to *ret
 * (a strv, no duplicates). Returns 0 or -ENOMEM. */
int protect_watch_pathspecs(const struct protect_watch *w, char ***ret);

void protect_watch_done(struct protect_watch *w);

/* Rename name in dir to a free NAME.sluice-blocked, then NAME
 * .sluice-blocked-2 and on to PROTECT_WATCH_TRIES, never over what is
 * there (RENAME_NOREPLACE); where every one is taken (the command made
 * them first) or the name is too long for the suffix, a random
 * .sluice-blocked-HEX. The new name in to (size bytes, NAME_MAX + 1 at
 * least); 0, or -errno. What sluice sets aside after a run takes this one
 * way (protected files, git's pointers, an am session, a nested
 * repository). */
int protect_watch_set_aside(int dir, const char *name, char *to, size_t size);

/* The same, into the folder to_dir (on the same file system), under a
 * name made from base: for what must leave the folder it lies in (git
 * warns of every name it does not know in its object store). */
int protect_watch_set_aside_at(int dir, const char *name, int to_dir, const char *base, char *to,
                               size_t size);

#endif
