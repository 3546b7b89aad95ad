/* SPDX-License-Identifier: MIT */
/*
 * Preparing and starting the launcher for one run (run-spawn.c).
 * Not for: deciding when (runner.c, run-warmup.c).
 */
#ifndef SLUICE_RUN_SPAWN_H
#define SLUICE_RUN_SPAWN_H

#include "run/run-outcome.h"
#include "run/spawner.h"

/* Fill sr for o's run: the private TMPDIR (a sandboxed mode), the
 * environment and the launcher's path, each made once per outcome. Returns 0,
 * or run_outcome_fail()'s -1. */
int run_spawn_prepare(struct run_outcome *o, struct spawn_request *sr);

/* How run_spawn_launch() starts the launcher. */
enum run_spawn_flags {
	RUN_SPAWN_COMMAND = 1 << 0, /* it waits for its command on o->command_fd */
	/* it waits for its options on o->spec_fd (run_spawn_configure()), then
	 * for its command: sr needs only the launcher's path */
	RUN_SPAWN_UNCONFIGURED = 1 << 1,
};

/* Pipes and the launcher, which becomes o->early_pid, started as flags (an
 * OR of enum run_spawn_flags) say. 0, or -errno with nothing left open or
 * running. */
int run_spawn_launch(struct run_outcome *o, struct spawn_request *sr, unsigned flags);

/* Send a launcher started RUN_SPAWN_UNCONFIGURED its options and
 * environment for sr (filled by run_spawn_prepare()). 0, or -errno with the
 * launcher withdrawn (nothing of it left). */
int run_spawn_configure(struct run_outcome *o, struct spawn_request *sr);

#endif
