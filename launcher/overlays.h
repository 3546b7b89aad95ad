/* SPDX-License-Identifier: MIT */
/*
 * Step "overlays": the --overlay folders (tools' caches under the home
 * that hold nothing else: cargo's registry, Maven's repository ...)
 * writable in the sandbox through an overlay, whose upper layer lies in
 * the --overlay-state folder (the workspace's tool caches). What the
 * command writes there stays for the workspace's later runs, and never
 * reaches the folder itself, which the overlay reads through.
 * Not for: the caches tools are told about by a variable (the broker's
 * tool-caches.c hands those a folder of their own).
 */
#ifndef SLUICE_LAUNCHER_OVERLAYS_H
#define SLUICE_LAUNCHER_OVERLAYS_H

#include "errors.h"

struct launch_spec;
struct launch_state;

/* With the mount namespace, each --overlay folder that exists as a folder
 * overlaid in place (state->overlaid); one that does not exist, holds or
 * lies in a --hide or --cover path, or whose overlay cannot be made stays
 * read-only, as without a namespace: best effort, never an error but out
 * of memory. After "mounts" (everything else read-only, and the state
 * folder, a --rw path, bound into the private /tmp), before "privileges"
 * (it needs CAP_SYS_ADMIN in the namespace) and "landlock" (which grants
 * write on each overlaid folder). */
int apply_overlays(const struct launch_spec *spec, struct launch_state *state,
                   struct sluice_error *err);

#endif
