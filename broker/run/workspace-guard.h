/* SPDX-License-Identifier: MIT */
/*
 * Whether a directory may be a sandboxed command's workspace. The workspace
 * is writable in workspace-write, so a workspace that holds the user's own
 * files would let a command plant what the user runs later: a ~/.bashrc,
 * sluice's own configuration. Refused: `/`, the home directory and any
 * directory above it, and any directory that holds, or lies inside, one of
 * sluice's configuration directories. Also whether the extra writable
 * paths may be: none may hold a configuration directory not created yet.
 * Not for: the unrestricted mode (it confines nothing), or the working
 * directory beneath the workspace (broker/run/workdir.h).
 */
#ifndef SLUICE_WORKSPACE_GUARD_H
#define SLUICE_WORKSPACE_GUARD_H

#include <stddef.h>

#include "errors.h"

/*
 * root: the workspace's canonical absolute path (workdir_resolve()'s).
 * home: the user's home directory (NULL: none known); config_dirs: sluice's
 * configuration directories. Both may be spelt through symbolic links: they
 * are resolved here, one that does not exist yet to where it would be
 * created (through its deepest existing directory, or a dangling link).
 * Returns 0 when root may be a workspace, or -EPERM with reterr saying what
 * it would expose.
 */
int workspace_guard_check(const char *root, const char *home, const char *const *config_dirs,
                          size_t n_config_dirs, struct sluice_error *reterr);

/*
 * writable: the extra writable paths ([sandbox] writable). The launcher
 * keeps a configuration directory inside one read-only, but only one that
 * exists: a writable path that holds one of config_dirs that does not exist
 * yet is refused (-EPERM, reterr says which), as a command could create it.
 */
int workspace_guard_check_writable(const char *const *writable, size_t n_writable,
                                   const char *const *config_dirs, size_t n_config_dirs,
                                   struct sluice_error *reterr);

#endif
