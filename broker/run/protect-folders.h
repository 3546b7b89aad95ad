/* SPDX-License-Identifier: MIT */
/*
 * The empty folders the launcher makes for the missing folder entries of
 * [sandbox] protect (.claude/, .vscode/, .idea/ ...: a mount needs a name
 * to cover): after a run, the launcher's tidier is asked to remove them
 * once the workspace has been idle [sandbox] protect_folders_idle, so that
 * runs leave no trace in the user's work tree, and an agent's runs in a
 * row neither make nor remove them each time. The tidier removes none that
 * a run still covers (launcher/protect-tidy.h says how).
 * Not for: making, holding or removing them (the launcher's
 * protected-paths.c and protect-tidy.c).
 */
#ifndef SLUICE_PROTECT_FOLDERS_H
#define SLUICE_PROTECT_FOLDERS_H

#include "core/run-settings.h"

/* The lock file of workspace's runs in jobs_dir, which a run's launcher
 * holds shared while it covers protected folders and a tidier takes
 * exclusively (--protect-lock), into buf. 0, or -errno. */
int protect_folders_runs_lock(const char *jobs_dir, const char *workspace, char *buf, size_t size);

/* After a run of workspace under s (workspace-write with a protect list;
 * nothing otherwise): unless a tidier of the workspace waits already (its
 * lock file in jobs_dir held), start one with launcher (detached.h), which
 * removes the folders at once with protect_folders_idle 0 (this waits for
 * it then), else in the background once that long has passed. 0, or
 * -errno when none could be started (the next run's end tries again). */
int protect_folders_tidy(const char *launcher, const char *jobs_dir, const char *workspace,
                         const struct run_settings *s);

#endif
