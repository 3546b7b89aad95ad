/* SPDX-License-Identifier: MIT */
/*
 * Preparing and starting the launcher for one run (run-spawn.c).
 * Not for: deciding when (runner.c, run-warmup.c).
 */
#ifndef SLUICE_RUN_SPAWN_H
#define SLUICE_RUN_SPAWN_H

#include <stdbool.h>

#include "run/run-outcome.h"
#include "run/spawner.h"

/* Fill sr for o's run: the private TMPDIR (a sandboxed mode), the
 * environment and the launcher's path, each made once per outcome. Returns 0,
 * or run_outcome_fail()'s -1. */
int run_spawn_prepare(struct run_outcome *o, struct spawn_request *sr);

/* Pipes and the launcher, which becomes o->early_pid; with_command, it
 * waits for its command on o->command_fd. 0, or -errno with nothing left
 * open or running. */
int run_spawn_launch(struct run_outcome *o, struct spawn_request *sr, bool with_command);

#endif
