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

#include "core/error-kind.h"
#include "run/jobs.h"
#include "run/outbuf.h"
#include "run/pump.h"
#include "core/request.h"
#include "run/result.h"
#include "policy/broker-context.h"
#include "core/run-settings.h"

/*
 * One run's result and everything it borrows from. Initialise with
 * run_outcome_init(), release with run_outcome_done(); do not move it in
 * between (result points into it).
 */
struct run_outcome {
	struct run_settings settings; /* the copy the run used; result.settings points here */
	struct run_result result;     /* what to print: result_to_json(), result_write_text() */

	/* private: */
	struct policy_decision decision;
	char *root, *workdir, *launcher, *jobs_dir;
	char *tmpdir;       /* the private TMPDIR of a sandboxed run, or NULL */
	int tmpdir_hold;    /* run_tmpdir_hold()'s descriptor while it is in use, or -1 */
	bool tmpdir_handed; /* a background job's monitor removes it instead */
	char **env;
	/* A launcher started before the decision (see runner.c), waiting for
	 * its command on command_fd; 0 and -1 when there is none. */
	pid_t early_pid;
	int command_fd, out_r, err_r, rep_r;
	struct outbuf *output, *out, *err;
	struct pump pump;
	struct job_started job;
};

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

/* Start an outcome with a copy of settings and no error. */
void run_outcome_init(struct run_outcome *o, const struct run_settings *settings);

/* Release what the outcome owns. */
void run_outcome_done(struct run_outcome *o);

/* Record an error in the result (replacing any); returns -1 so that
 * callers can `return run_outcome_fail(...)`. */
int run_outcome_fail(struct run_outcome *o, enum error_kind kind, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* Whether mode is one of the interface's sandbox modes. */
bool runner_known_sandbox_mode(const char *mode);

/* Switch s to the sandbox mode a caller asked for (--sandbox). Returns 0;
 * -EINVAL for an unknown mode; -EPERM for a mode looser than the configured
 * one (the configuration is the floor). reterr says which. */
int runner_choose_sandbox(struct run_settings *s, const char *mode, struct sluice_error *reterr);

/*
 * Before the request is known (a server getting ready for its next call):
 * fork the policy child ahead (broker_context_prepare()) and start the
 * launcher for the workspace root under o->settings, waiting for its
 * command, so that runner_execute() on the same o need not wait for either.
 * Best effort: -1 leaves nothing prepared and no error in o->result.
 * run_outcome_done() withdraws a launcher that was never used.
 */
int runner_prepare(const struct runner_options *opt, struct run_outcome *o);

/*
 * Run req under o->settings: limits, working directory, run_check_policy(),
 * then the foreground watch or a background job. Fills o->result in every
 * case; returns 0 when the command ran (whatever its exit code), -1 when the
 * result holds an error. Blocks until a foreground command is over; blocks
 * SIGCHLD/SIGINT/SIGTERM/SIGHUP and makes the process a child subreaper, so
 * one process runs one foreground command at a time.
 */
int runner_execute(const struct run_request *req, const struct runner_options *opt,
                   struct run_outcome *o);

#endif
