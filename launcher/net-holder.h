/* SPDX-License-Identifier: MIT */
/*
 * sluice-launch --hold-network SOCKET: the holder of one workspace's
 * network namespace. It makes a network namespace with its loopback up
 * (inside a user namespace of its own when it lacks CAP_SYS_ADMIN), listens
 * on SOCKET, goes to the background, and answers each connection of its
 * own user with its namespaces' descriptors (net-join.h). Each connection
 * counts as a user of the namespace until it closes; once none is left for
 * the idle time, the holder removes SOCKET and exits.
 * Not for: starting it (the broker's workspace-network.c), or joining it.
 */
#ifndef SLUICE_LAUNCHER_NET_HOLDER_H
#define SLUICE_LAUNCHER_NET_HOLDER_H

#include <stdint.h>

#include "errors.h"

/* Make the namespaces and listen on path (which must not exist); then fork:
 * the caller's process returns 0 (exit with it: the holder is ready), the
 * holder serves and never returns. -errno with a detail when the holder
 * cannot be made, nothing left behind. idle_ms: how long the holder stays
 * without a connection. */
int net_holder_start(const char *path, uint64_t idle_ms, struct sluice_error *err);

#endif
