/* SPDX-License-Identifier: MIT */
/*
 * The sandbox's /dev: a small read-only tmpfs holding the devices a
 * command without a terminal needs (null, zero, full, random, urandom,
 * and tty, which opens to nothing after setsid), each a bind of the
 * host's node, and the usual links to /proc/self/fd; no pts, no shm, no
 * disks: another session's terminal (/dev/pts/N) cannot be read.
 * Not for: Landlock's device rules (landlock.c), or deciding whether to
 * do it (mounts.c).
 */
#ifndef SLUICE_LAUNCHER_DEV_H
#define SLUICE_LAUNCHER_DEV_H

#include "errors.h"

/* The tmpfs holds empty files, folders and links only. */
#define DEV_TMPFS_SIZE (64 * 1024)

/* In the private mount namespace: copy the host's nodes, attach tmpfs (a
 * detached mount, from fsmount) on /dev, fill it, and make it read-only.
 * A node the host lacks is left out. Returns 0 or -errno. */
int dev_populate(int tmpfs, struct sluice_error *err);

/* Once /dev is in place: each of descriptors 0-2 that is one of its nodes
 * (the broker's /dev/null as the command's stdin) opened again from it.
 * Opened outside, the host's node is reached through /proc/self/fd/N,
 * which no mount covers: a command run as root, the node's owner, could
 * chmod or touch the host's /dev/null. Through the sandbox's read-only
 * /dev: EROFS. Returns 0 or -errno. */
int dev_reopen_standard(struct sluice_error *err);

#endif
