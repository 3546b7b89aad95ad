/* SPDX-License-Identifier: MIT */
/*
 * The paths of a workspace's git repository that must stay writable, and
 * those inside them that git run later, outside the sandbox, would trust
 * and that must therefore stay read-only: hooks, config, the file that
 * redirects to another repository (commondir), the worktree's ".git" file,
 * submodules' and linked worktrees' repositories, a core.hooksPath folder
 * inside the workspace, the files git's configuration includes, and the
 * targets of the hooks that are symbolic links. In mount order.
 * A repository outside the workspace is made writable only when git
 * registered it as this workspace's (both ways), it belongs to the caller,
 * and no one else can rename a folder on its way; nothing is ever made
 * outside the workspace.
 * Not for: mounting (mounts.c) or deciding whether to protect at all.
 */
#ifndef SLUICE_LAUNCHER_GIT_PATHS_H
#define SLUICE_LAUNCHER_GIT_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "errors.h"

/* More is refused (a repository with that much to protect is unusual):
 * 8 linked worktrees take up to 6 each (the gitdir, its commondir, gitdir,
 * config.worktree, index, HEAD), the common directory 9, which leaves
 * room for the files git's configuration includes and the hooks'
 * targets (these only as room is left). */
#define GIT_PATHS_MAX 80

enum git_path_access {
	GIT_PATH_WRITABLE,  /* bound onto itself, writable: it cannot be renamed or removed */
	GIT_PATH_READ_ONLY, /* bound onto itself, read-only (where it lies in a writable path) */
	/* a file git would read that does not exist, outside the workspace
	 * (nothing is made there): the caller must refuse to run when it lies
	 * in a writable path, where the command could create it */
	GIT_PATH_ABSENT,
};

struct git_path {
	char *path; /* absolute; canonical but for GIT_PATH_ABSENT */
	enum git_path_access access;
};

struct git_paths {
	struct git_path items[GIT_PATHS_MAX];
	size_t n;
	/* ".git" is neither a directory nor a file (a symlink, say): nothing
	 * listed but its target when that lies in the workspace; the caller
	 * must keep the whole of it read-only another way */
	bool unsupported;
	/* Why a repository outside the workspace that ".git" names was left
	 * read-only ("" when none was): git commands that write it fail. */
	char outside_read_only[512];
};

/* Find what to protect in the repository of workspace (an absolute,
 * canonical directory). So that nothing can be created where git would
 * look later, missing pieces inside the workspace are made first, as git
 * itself would have them: an empty hooks folder, an empty config, a
 * "commondir" file saying "." (this repository is its own common
 * directory; written to a temporary file renamed into place, so that it is
 * whole or absent), an empty config.worktree when
 * extensions.worktreeConfig is on, the core.hooksPath folders, and empty
 * files for includes that do not exist; owned like the repository.
 * A workspace without ".git" gives nothing. Returns 0 or -errno. */
int git_paths_find(const char *workspace, struct git_paths *ret, struct sluice_error *err);

/* Only what lies in the workspace outside ".git" and must stay read-only
 * (core.hooksPath folders and included files, made if missing, and the
 * target of a symlinked ".git"): for Landlock, which keeps them read-only
 * where there are no mounts. */
int git_paths_keep(const char *workspace, struct git_paths *ret, struct sluice_error *err);

void git_paths_done(struct git_paths *paths);

#endif
