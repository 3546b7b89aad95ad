/* SPDX-License-Identifier: MIT */
/*
 * Preparing what the launcher of one run is started with (run-spawn.c).
 * Not for: starting it (launcher-proc.h) or deciding when (runner.c,
 * run-warmup.c).
 */
#ifndef SLUICE_RUN_SPAWN_H
#define SLUICE_RUN_SPAWN_H

#include "run/run-outcome.h"
#include "run/spawner.h"

/* Fill sr for o's run: the private TMPDIR (a sandboxed mode), the
 * environment and the launcher's path, each made once per outcome. Returns 0,
 * or run_outcome_fail()'s -1. */
int run_spawn_prepare(struct run_outcome *o, struct spawn_request *sr);

#endif
