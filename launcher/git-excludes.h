/* SPDX-License-Identifier: MIT */
/*
 * Step "git-excludes": the protected paths of the workspace (--protect)
 * ignored by the git the command runs. They are read-only mount points
 * (the empty folders made where they were missing among them), so a git
 * that treats them as untracked fails to remove them: `git stash -u` and
 * `git clean -d` stopped with "Device or resource busy" after stashing.
 * Ignored, they are left alone, as they would be read-only anyway.
 * Not for: what git outside the sandbox does (nothing here reaches it: the
 * file lies in the run's own /tmp and the setting is in the command's
 * environment only), or keeping the paths read-only (mounts.c).
 */
#ifndef SLUICE_LAUNCHER_GIT_EXCLUDES_H
#define SLUICE_LAUNCHER_GIT_EXCLUDES_H

#include "errors.h"

struct launch_spec;
struct launch_state;

/* The file PRIVATE_TMP/GIT_EXCLUDES_FILE holds the user's own excludes
 * file (core.excludesFile, else git's default), then one anchored pattern
 * for each --protect path; core.excludesFile names it through
 * GIT_CONFIG_COUNT/KEY/VALUE in the environment, after any the caller set.
 * Only in the workspace-write profile with --protect paths and a private
 * /tmp. */
#define GIT_EXCLUDES_FILE ".sluice-git-excludes"

int apply_git_excludes(const struct launch_spec *spec, struct launch_state *state,
                       struct sluice_error *err);

#endif
