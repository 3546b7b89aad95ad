/* SPDX-License-Identifier: MIT */
/*
 * The run's own network namespace: made new, with only its loopback, which
 * is brought up. Abstract unix socket names belong to the network
 * namespace, so a name the program binds is its own, in both directions.
 * Not for: the user, mount, IPC and PID namespaces (namespaces.c), or the
 * socket rules (seccomp, Landlock), which hold whatever namespace is had.
 */
#ifndef SLUICE_LAUNCHER_NET_NAMESPACE_H
#define SLUICE_LAUNCHER_NET_NAMESPACE_H

#include <stdbool.h>

#include "errors.h"

/* Enter a new network namespace and bring its loopback up. Needs
 * CAP_SYS_ADMIN and CAP_NET_ADMIN in the current user namespace (root, or
 * just after namespaces_enter() made one). Returns 0; -errno with a detail
 * when unshare(2) fails (*ret_entered false: nothing changed) or the
 * loopback stays down (*ret_entered true: the process is in a namespace
 * without a usable loopback). Kept apart so that a caller can put a run in
 * a network namespace of another making instead. */
int net_namespace_enter(bool *ret_entered, struct sluice_error *err);

#endif
