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

void protect_watch_done(struct protect_watch *w);

#endif
