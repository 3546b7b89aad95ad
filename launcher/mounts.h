/* SPDX-License-Identifier: MIT */
/*
 * Step "mounts": inside the private mount namespace, the whole filesystem
 * read-only with one recursive call; the workspace (workspace-write), --rw
 * paths and the repository's gitdirs bound writable; what git would trust
 * later (git-paths.h) and --read-only paths bound read-only again inside
 * them; with --tmpdir, a private, size-capped tmpfs on /tmp (the TMPDIR
 * then); --hide paths covered by an empty, unreadable directory or file.
 * Not for: entering the namespace (namespaces.c) or Landlock's rules.
 */
#ifndef SLUICE_LAUNCHER_MOUNTS_H
#define SLUICE_LAUNCHER_MOUNTS_H

#include "errors.h"

/* The sandbox's private /tmp, a tmpfs of the run's own, and its TMPDIR. */
#define PRIVATE_TMP "/tmp"

struct launch_spec;
struct launch_state;

/* Nothing without a namespace (state->namespace). Sets PROT_MOUNT_NAMESPACE,
 * PROT_PRIVATE_TMP and PROT_TMPDIR_TMPFS, PROT_READ_ONLY_PATHS,
 * PROT_HIDDEN_PATHS when it covered them (else the Landlock step hides
 * them), and state->git_mounted, state->hidden_mounted and
 * state->private_tmp. */
int apply_mounts(const struct launch_spec *spec, struct launch_state *state,
                 struct sluice_error *err);

#endif
