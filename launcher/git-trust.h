/* SPDX-License-Identifier: MIT */
/*
 * Whether a repository outside the workspace may be trusted with writes
 * (git-trust.c): the checks git-paths.c makes before it makes one named
 * by a ".git" file writable.
 */
#ifndef SLUICE_LAUNCHER_GIT_TRUST_H
#define SLUICE_LAUNCHER_GIT_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct git_trust {
	const char *workspace; /* canonical */
	uid_t uid;             /* whom a repository outside must belong to */
	gid_t gid;             /* a group that may write the folders on its way */
	char *why;             /* why one was refused: the first reason, NUL-ended */
	size_t why_size;
};

/* Say why a repository outside stays read-only, unless a reason was given
 * already. */
__attribute__((format(printf, 2, 3))) void git_trust_note(const struct git_trust *t,
                                                          const char *fmt, ...);

/* Whether dir (canonical) is the caller's, and no folder from / to it can
 * have its entries renamed by someone else. */
bool git_trust_owned_safely(const struct git_trust *t, const char *dir);

/* Whether each of the n names exists in dir as git makes it (no symlink). */
bool git_trust_has_names(const struct git_trust *t, const char *dir, const char *const *names,
                         size_t n);

/* Whether gitdir (with a commondir naming common) is the worktree dotgit
 * as git registered it, both ways. */
bool git_trust_registered_worktree(const struct git_trust *t, const char *dotgit,
                                   const char *gitdir, const char *common);

/* Whether gitdir (no commondir) is the repository of a submodule checked
 * out in the workspace: its core.worktree names it. */
bool git_trust_registered_submodule(const struct git_trust *t, const char *gitdir);

#endif
