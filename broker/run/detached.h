/* SPDX-License-Identifier: MIT */
/*
 * Starting one of the launcher's helpers that stay in the background (the
 * workspace's network holder, the protected folders' tidier): programs
 * whose first process exits once the helper is on its way, the helper
 * forked apart in its own session.
 *
 * The helper must not become this process's descendant: sluice is a child
 * subreaper and kills its own children after each run (and would take a
 * child left alive for a survivor of the run). It is started with the
 * subreaper setting off for the moment of the start, so that once its
 * first process exits, the helper belongs to the next subreaper up or to
 * init.
 * Not for: the launcher of a run (spawner.h).
 */
#ifndef SLUICE_DETACHED_H
#define SLUICE_DETACHED_H

#include "errors.h"

/* Run argv (argv[0] the program's path) with the default signal mask,
 * /dev/null for stdin and stdout and a pipe for stderr, and wait for its
 * first process: 0 when it exits 0; else -errno with err saying "starting
 * WHAT" (the fork or exec failed) or "WHAT could not start: " with the
 * first line of what it wrote. */
int detached_start(char *const argv[], const char *what, struct sluice_error *err);

#endif
