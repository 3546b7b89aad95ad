/* SPDX-License-Identifier: MIT */
/*
 * The paths of a workspace's git repository that must stay writable, and
 * those inside them that git run later, outside the sandbox, would trust
 * and that must therefore stay read-only: hooks, config, the file that
 * redirects to another repository (commondir), the worktree's ".git" file,
 * submodules' and linked worktrees' repositories, and a core.hooksPath
 * folder inside the workspace. In mount order.
 * Not for: mounting (mounts.c) or deciding whether to protect at all.
 */
#ifndef SLUICE_LAUNCHER_GIT_PATHS_H
#define SLUICE_LAUNCHER_GIT_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "errors.h"

/* More is refused (a repository with that much to protect is unusual). */
#define GIT_PATHS_MAX 24

enum git_path_access {
	GIT_PATH_WRITABLE,  /* bound onto itself, writable: it cannot be renamed or removed */
	GIT_PATH_READ_ONLY, /* bound onto itself, read-only */
};

struct git_path {
	char *path; /* absolute */
	enum git_path_access access;
};

struct git_paths {
	struct git_path items[GIT_PATHS_MAX];
	size_t n;
	/* ".git" is neither a directory nor a file (a symlink, say): nothing
	 * listed; the caller must keep the whole of it read-only another way */
	bool unsupported;
};

/* Find what to protect in the repository of workspace (an absolute,
 * canonical directory). So that nothing can be created where git would
 * look later, missing pieces are made first, as git itself would have
 * them: an empty hooks folder, an empty config, a "commondir" file saying
 * "." (this repository is its own common directory), an empty
 * config.worktree when extensions.worktreeConfig is on, the core.hooksPath
 * folder when it lies inside the workspace; owned like the repository.
 * A workspace without ".git" gives nothing. Returns 0 or -errno. */
int git_paths_find(const char *workspace, struct git_paths *ret, struct sluice_error *err);

/* Only the folder core.hooksPath names, when it lies inside workspace
 * (made if missing), in *ret (NULL when none): for Landlock, which keeps
 * it read-only where there are no mounts. */
int git_paths_hooks_path(const char *workspace, char **ret, struct sluice_error *err);

void git_paths_done(struct git_paths *paths);

#endif
