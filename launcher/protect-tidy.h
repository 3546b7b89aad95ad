/* SPDX-License-Identifier: MIT */
/*
 * The tidier of the protected folders (--tidy-protected): the empty
 * folders the launcher made for the missing folder entries of --protect
 * (protected-paths.c marks them with LAUNCH_MADE_XATTR) are removed once
 * no run covers them, so that runs leave no trace in the user's work tree.
 *
 * Removing one that a run still covers would detach that run's read-only
 * bind (the kernel lets a folder that is a mount point in another mount
 * namespace go, and takes the mount with it): its command could then make
 * the folder and fill it. Each launcher holds the workspace's runs' lock
 * (--protect-lock, in sluice's jobs directory) and the folder that holds
 * the folder entries (the workspace, for the defaults; runs of another
 * user or jobs directory share it) locked shared (flock(2)) from before it
 * looks at them until its run ends (protected-paths.c), so a folder is
 * removed only under both locks taken exclusively without waiting (no run
 * covers it), when it carries the mark and is empty (rmdir(2) removes
 * nothing else).
 *
 * sluice starts one after a run (broker/run/protect-folders.h), with the
 * wait [sandbox] protect_folders_idle, so that an agent's runs in a row
 * neither make nor remove them each time; the lock file it names is held
 * while the tidier waits, so that the runs that end meanwhile start no
 * other, and let go of before it removes, so that a run still going on
 * then starts the next one when it ends.
 * Not for: making and holding the folders (protected-paths.c).
 */
#ifndef SLUICE_LAUNCHER_PROTECT_TIDY_H
#define SLUICE_LAUNCHER_PROTECT_TIDY_H

#include "errors.h"
#include "options.h"

/* Take spec->tidy_lock without waiting (0 at once when another holds
 * it); with spec->tidy_after_ms 0, remove now and return 0; else fork a
 * tidier apart from the caller (its own session, /dev/null for its
 * streams, no other descriptor) that waits, lets go of the lock, removes
 * and ends, and return 0 in the caller. -errno with err set when the lock
 * cannot be opened or the fork fails. */
int protect_tidy(const struct launch_spec *spec, struct sluice_error *err);

#endif
