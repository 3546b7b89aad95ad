/* SPDX-License-Identifier: MIT */
/*
 * The workspace's network: one network namespace with its loopback up,
 * shared by the sandboxed runs and background jobs of one workspace, so
 * that a server one starts is reached by the next. It is held by a small
 * process, the holder (sluice-launch --hold-network, launcher/net-holder.h),
 * started here on first need with its socket in the private jobs
 * directory, one per workspace (named by its claimed key, workspace-key.h);
 * each launcher joins it (--network-holder).
 * Not for: the namespace's making or joining (the launcher).
 */
#ifndef SLUICE_WORKSPACE_NETWORK_H
#define SLUICE_WORKSPACE_NETWORK_H

#include <stdint.h>

#include "errors.h"

/* The holder of workspace's network, answering on its socket in jobs_dir:
 * found, or started with launcher (staying idle_ms once unused). Returns a
 * connection to it (>= 0), which keeps it until closed (keep it while the
 * run is prepared and runs), and the socket's path in *ret_path (owned);
 * -errno with reterr saying why (then the run makes its own network). */
int workspace_network_hold(const char *jobs_dir, const char *workspace, const char *launcher,
                           uint64_t idle_ms, char **ret_path, struct sluice_error *reterr);

/* Another connection to the holder at path (from workspace_network_hold(),
 * still held): a background job's monitor keeps one for the job's life.
 * The connection, or -errno. */
int workspace_network_attach(const char *path);

#endif
