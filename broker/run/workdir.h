/* SPDX-License-Identifier: MIT */
/*
 * The working directory of a run: the workspace root plus a relative
 * directory, resolved by the kernel (openat2 RESOLVE_BENEATH) so that no
 * absolute path, `..` or symbolic link leads out of the root.
 * Not for: sandboxing (the launcher confines what the command may touch).
 */
#ifndef SLUICE_WORKDIR_H
#define SLUICE_WORKDIR_H

#include "errors.h"

/*
 * Resolve directory (NULL or "" for the root itself) beneath root. On
 * success *ret_path receives the directory's absolute path (owned; the
 * kernel's name for the opened directory) and *ret_root the root's.
 * Errors, with reterr->detail saying which:
 *   -EXDEV    the directory is absolute, has a `..`, or resolves outside root
 *             (the interface's outside_workspace);
 *   -ENOENT   it does not exist;  -ENOTDIR  it is not a directory
 *             (both invalid_working_dir; also for a bad root);
 *   -ENOSYS   openat2 is missing (kernel before 5.6), or /proc is;
 *   other -errno from the file system.
 */
int workdir_resolve(const char *root, const char *directory, char **ret_root, char **ret_path,
                    struct sluice_error *reterr);

#endif
