/* SPDX-License-Identifier: MIT */
/*
 * The client side of the workspace's network holder (launcher/net-holder.h),
 * shared by the broker, which finds or starts a holder and keeps a
 * connection to it, and the launcher, which joins its namespaces: connect,
 * check that the holder is this user's, read its answer; and the lock file
 * beside its socket, which a starter and a leaving holder take.
 * Not for: checking or entering the namespaces received (launcher/net-join.c).
 */
#ifndef SLUICE_NET_HOLDER_CLIENT_H
#define SLUICE_NET_HOLDER_CLIENT_H

#include <stdbool.h>

#include "errors.h"

/* Connect to the holder listening on path, check that its process (the one
 * at the other end now: SO_PEERCRED) runs as this user, and read its
 * answer. fds: where its user and network namespaces' descriptors go
 * (owned by the caller, close-on-exec), or NULL: they are closed here.
 * Returns the connection (>= 0, close-on-exec; the holder counts it until
 * it is closed), or -errno with a detail: -ENOENT or -ECONNREFUSED when no
 * holder listens there, -EPERM for another user's, -EPROTO for an answer
 * that is not the holder's. */
int net_holder_connect(const char *path, int fds[2], struct sluice_error *err);

/* Take the lock file lock_path (made 0600 when missing; a symbolic link is
 * refused), waiting for it when wait, and check that the file locked is
 * still the one at lock_path: a holder leaving removes it while it holds
 * it, and whoever was waiting on the removed file then tries again with the
 * new one. Returns the locked descriptor (the lock lasts until it is
 * closed), or -errno: -EWOULDBLOCK when !wait and someone holds it. */
int net_holder_lock(const char *lock_path, bool wait, struct sluice_error *err);

#endif
