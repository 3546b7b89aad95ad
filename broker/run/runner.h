/* SPDX-License-Identifier: MIT */
/*
 * The run pipeline as one library call, shared by `sluice run` and the MCP
 * server: limits, working directory, the policy seam, spawn through the
 * launcher, the watch (timeout, cancellation, progress) and the result.
 * Not for: reading requests or options (the callers), or printing results.
 */
#ifndef SLUICE_RUNNER_H
#define SLUICE_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/request.h"
#include "core/run-settings.h"
#include "policy/broker-context.h"
#include "run/pump.h"
#include "run/run-outcome.h"

/* What the caller adds to a run besides the request and the settings. */
struct runner_options {
	/* The configuration, policies and audit log (borrowed; required: with
	 * none, every command is refused). */
	struct broker_context *context;
	const char *workspace_root; /* NULL: the current directory */
	/* How the timeout override is named in a refusal; NULL: "field 'timeout_ms'". */
	const char *timeout_source;
	/* Readable or hung up: cancel the run (its whole tree is ended, the
	 * result says cancelled). Borrowed; -1 for none. */
	int cancel_fd;
	pump_progress_fn progress; /* NULL: no progress calls */
	uint64_t progress_interval_ms;
	void *progress_userdata;
	/* Asked about an ask verdict before the configured approver (the MCP
	 * server's client, through elicitation); NULL: only the approver. */
	const struct approval_asker *asker;
};

/* A runner_options with no cancel descriptor and no progress. */
#define RUNNER_OPTIONS_INIT     \
	{                       \
		.cancel_fd = -1 \
	}

/* The moments before runner_execute() at which a run starts its helper
 * processes ahead of need (runner_begin()). */
enum runner_begin_at {
	/* Before the configuration is read (a foreground `sluice run`): the
	 * launcher exec'd while it is read, waiting for its options. */
	RUNNER_BEGIN_UNCONFIGURED,
	/* o->settings final (the sandbox mode chosen and settled): a launcher
	 * waiting for its options enters its namespaces when they will plan
	 * them, while the request is read. */
	RUNNER_BEGIN_MODE_FINAL,
	/* Before the request is known (a server getting ready for its next
	 * call): the policy child forked ahead (broker_context_prepare()) and
	 * the launcher started for the workspace root, waiting for its
	 * command. */
	RUNNER_BEGIN_BEFORE_REQUEST,
};

/*
 * Start what o's run can start at moment `at`, so that runner_execute() on
 * the same o need not wait for it; the one place, with runner_execute()
 * (which starts the launcher before the policies decide, when none was),
 * where a run starts its helper processes. opt is read only
 * RUNNER_BEGIN_BEFORE_REQUEST (may be NULL otherwise). Best effort: -1
 * leaves nothing started and no error in o->result. run_outcome_done()
 * withdraws a launcher that was never used.
 */
int runner_begin(const struct runner_options *opt, struct run_outcome *o, enum runner_begin_at at);

/*
 * Run req under o->settings: limits, working directory, the policy decision,
 * then the foreground watch or a background job. Fills o->result in every
 * case; returns 0 when the command ran (whatever its exit code), -1 when the
 * result holds an error. Blocks until a foreground command is over; blocks
 * SIGCHLD/SIGINT/SIGTERM/SIGHUP and makes the process a child subreaper, so
 * one process runs one foreground command at a time.
 */
int runner_execute(const struct run_request *req, const struct runner_options *opt,
                   struct run_outcome *o);

#endif
