/* SPDX-License-Identifier: MIT */
/*
 * Joining a workspace's network namespace, held by its holder
 * (net-holder.h): connect to the holder's socket, check that the holder is
 * this user's, take its user and network namespaces' descriptors, and setns
 * into them. The connection stays open for the run's life (close-on-exec,
 * so the program never has it): the holder counts it, and does not leave
 * while a run of its workspace is alive.
 * Not for: making the mount, IPC and PID namespaces that follow
 * (namespaces.c), or the holder itself.
 */
#ifndef SLUICE_LAUNCHER_NET_JOIN_H
#define SLUICE_LAUNCHER_NET_JOIN_H

#include <stdbool.h>

#include "errors.h"

/* Join the network namespace of the holder listening on path: its user
 * namespace first when it is not this process's own (*ret_user true: this
 * process now has every capability in it), then its network namespace.
 * Returns the connection's descriptor (>= 0), or -errno with a detail.
 * *ret_entered is true once a setns(2) succeeded: this process is then no
 * longer where it was, and a failure is fatal. Needs a single-threaded
 * caller that shares no file-system attributes (setns(2)'s rules). */
int net_join(const char *path, bool *ret_user, bool *ret_entered, struct sluice_error *err);

#endif
