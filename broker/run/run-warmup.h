/* SPDX-License-Identifier: MIT */
/*
 * Warming up a run (run-warmup.c): the launcher started early, the overlap
 * with the plugin checks, the stack prefault.
 * Not for: whether a command runs (runner.c).
 */
#ifndef SLUICE_RUN_WARMUP_H
#define SLUICE_RUN_WARMUP_H

#include "policy/broker-context.h"
#include "run/run-outcome.h"

/* Start a launcher now, before the configuration is read: it is exec'd
 * while this process reads it, then waits for its options
 * (LAUNCHER_PROC_AWAITING_OPTIONS; run_warmup_start_launcher() sends
 * them). Best effort: -1 leaves nothing started and no error. */
int run_warmup_start_unconfigured(struct run_outcome *o);

/* Tell the launcher started unconfigured, while it waits for its options,
 * that they will plan the namespace layer, when o's settings (final by
 * now: the mode chosen and settled) do: it enters its namespaces while this
 * process prepares the rest. Best effort: a launcher that is gone is found
 * by the sending of its options. */
void run_warmup_namespace_ahead(struct run_outcome *o);

/* Start the launcher for o's run now, or configure the one started
 * unconfigured, waiting for its command (LAUNCHER_PROC_AWAITING_COMMAND).
 * Best effort: -1 leaves nothing started and no error. */
int run_warmup_start_launcher(struct run_outcome *o);

/* Just before the policies decide about o's command: the launcher
 * started, or the one started unconfigured configured, so that it builds
 * its sandbox while the command is parsed and checked; nothing when one
 * waits for its command already (run_warmup_start_launcher()). Best
 * effort: the run starts it after the decision otherwise, and reports a
 * failure then. */
void run_warmup_before_decision(struct run_outcome *o);

/* The stack pages a run uses faulted in now, between requests (a fresh
 * fork copies each on its first write), not while a request waits. */
void run_warmup_prefault_stack(void);

#endif
