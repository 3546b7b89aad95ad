/* SPDX-License-Identifier: MIT */
/*
 * One run's outcome: the result being filled and everything the run holds
 * until it is printed (the decision, paths, the private TMPDIR, output
 * buffers, a launcher started early). Every step of a run reads and fills
 * it; this file only makes, fails and releases it.
 * Not for: running anything (runner.c and the files it names).
 */
#ifndef SLUICE_RUN_OUTCOME_H
#define SLUICE_RUN_OUTCOME_H

#include <stdbool.h>
#include <sys/types.h>

#include "core/error-kind.h"
#include "core/run-settings.h"
#include "errors.h"
#include "policy/broker-context.h"
#include "run/git-later.h"
#include "run/git-sweep.h"
#include "run/protect-watch.h"
#include "run/jobs.h"
#include "run/launcher-proc.h"
#include "run/outbuf.h"
#include "run/pump.h"
#include "run/result.h"

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
	/* tmpdir is the shared mount point (run_tmpdir_share()): the name the
	 * launcher makes where no tmpfs covers it, or NULL */
	char *tmpdir_fallback;
	bool foreground; /* known to run in the foreground: its TMPDIR may be shared */
	/* The workspace's network holder's socket (workspace-network.h),
	 * LAUNCH_NETWORK_HOLDER_NONE when none could be had, or NULL when not
	 * wanted; and a connection that keeps the holder for the run, or -1. */
	char *network_holder;
	int network_hold;
	/* The workspace's tool caches' folder (tool-caches.h), or NULL when
	 * the run has none; and the descriptor that holds it, or -1. */
	char *tool_cache;
	int tool_cache_hold;
	char **env;
	/* The launcher: started early (run-warmup.c) or for the command, until
	 * the pump takes it; and its exec's status until the evaluation. */
	struct launcher_proc launcher_proc;
	struct outbuf *output, *out, *err;
	struct pump pump;
	struct job_started job;
	char audit_id[64];          /* the start line's id ([audit] required), or "" */
	struct protect_watch watch; /* protected files the run created */
	/* the entries settings.protect has after the configured ones (their
	 * protect_loader set): the files the workspace's direnv and mise
	 * configurations load (run/protect-loaded.h), and their names */
	char **protect_loaded;
	/* the post-run sweep, begun before the command started (sweeping) */
	struct git_sweep sweep;
	bool sweeping;
	/* what the run put in git's index or branch at a name that runs
	 * later, begun with the sweep (git-later.h) */
	struct git_later later;
	/* the egress proxy's records, read once the run is over (result.network) */
	struct egress_log *egress_log;
	/* the hosts the egress proxy asked about, and who answered
	 * (egress_asks_to_json()), for the audit line; NULL: none */
	json_t *network_asks;
};

/* Start an outcome with a copy of settings and no error. */
void run_outcome_init(struct run_outcome *o, const struct run_settings *settings);

/* Release what the outcome owns. */
void run_outcome_done(struct run_outcome *o);

/* Record an error in the result (replacing any). Returns -1: every step of
 * a run returns 0 to go on, or this -1 with the error in o->result, so that
 * a step ends with `return run_outcome_fail(o, ...)`. */
int run_outcome_fail(struct run_outcome *o, enum error_kind kind, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* Forget the error recorded (a best-effort step that failed: the run meets
 * the failure again later and reports it then). */
void run_outcome_forget_failure(struct run_outcome *o);

/* The jobs directory, looked up (and checked) once per outcome: the private
 * TMPDIR, a background job and a cut run's output file all live there.
 * 0, or -errno with reterr (may be NULL) saying why. */
int run_outcome_jobs_dir(struct run_outcome *o, struct sluice_error *reterr);

#endif
