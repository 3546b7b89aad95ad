/* SPDX-License-Identifier: MIT */
/*
 * Reading a repository's index file for its gitlinks (mode 160000: a
 * submodule or a nested repository added with `git add`), which the
 * user's `git status` enters: the sweep looks at each one's repository,
 * found where git finds it (git_index_gitlink_gitdir()).
 * Versions 2 to 4 of the format; a malformed index is read as far as it
 * goes (git refuses it too). Never follows a symbolic link.
 * Not for: writing an index, or any other entry than a gitlink.
 */
#ifndef SLUICE_GIT_INDEX_H
#define SLUICE_GIT_INDEX_H

#include <stddef.h>

/* Called with each gitlink's path, relative to the work tree. */
typedef void (*git_index_gitlink_fn)(const char *path, void *userdata);

/* Each gitlink of the file "index" in the gitdir open as gitdir_fd, whose
 * object names are hash_len bytes long (git_index_hash_length()). */
void git_index_each_gitlink(int gitdir_fd, size_t hash_len, git_index_gitlink_fn fn,
                            void *userdata);

/* The object names' length of the repository whose config file is in the
 * gitdir open as fd: 32 bytes for extensions.objectFormat = sha256, else
 * 20. */
size_t git_index_hash_length(int fd);

/* The gitdir of the gitlink at rel (as the index gives it) in the work
 * tree worktree, where git finds it: rel/.git a folder (or a symlink, which
 * git follows), or a file whose "gitdir: " line names it; the real path
 * (malloc'd), or NULL (none, a path through "..", out of memory). */
char *git_index_gitlink_gitdir(const char *worktree, const char *rel);

#endif
