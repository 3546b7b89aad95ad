/* SPDX-License-Identifier: MIT */
/*
 * One run's outcome (see run-outcome.h): made, failed, released.
 * Not for: the steps of a run (runner.c).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cleanup.h"
#include "fd-util.h"
#include "launch-spec.h"
#include "run/launch-report.h"
#include "run/protect-folders.h"
#include "run/run-outcome.h"
#include "run/run-tmpdir.h"
#include "strv.h"

void run_outcome_init(struct run_outcome *o, const struct run_settings *settings)
{
	*o = (struct run_outcome){ .settings = *settings };
	o->pump = (struct pump){
		.out_fd = -1,
		.err_fd = -1,
		.report_fd = -1,
		.end_fd = -1,
		.signal_fd = -1,
		.spill_fd = -1,
		.cancel_fd = -1,
	};
	o->result.settings = &o->settings;
	launcher_proc_init(&o->launcher_proc);
	o->tmpdir_hold = -1;
	o->network_hold = -1;
	o->tool_cache_hold = -1;
}

void run_outcome_done(struct run_outcome *o)
{
	launcher_proc_withdraw(&o->launcher_proc);
	/* the launcher is gone (a prepared one's too, which ran nothing): the
	 * folders it made go once the workspace is idle; a failure leaves
	 * them to the next run's tidy */
	(void)protect_folders_tidy(o->launcher, o->jobs_dir, o->root, &o->settings);
	policy_decision_done(&o->decision);
	o->egress_log = egress_log_free(o->egress_log);
	json_decref(o->network_asks);
	o->network_asks = NULL;
	free(o->root);
	free(o->workdir);
	free(o->launcher);
	/* a tmpfs covered it: the command never saw it, it may serve again (a
	 * shared one always does; what the launcher made instead goes) */
	if (o->tmpdir && !o->tmpdir_handed) {
		bool covered =
		        launch_report_enforced(o->result.sandbox_report, LAUNCH_PROT_TMPDIR_TMPFS);
		if (!o->tmpdir_fallback)
			(void)run_tmpdir_release(o->tmpdir, covered);
		else if (!covered)
			(void)run_tmpdir_remove(o->tmpdir_fallback);
	}
	free(o->tmpdir_fallback);
	o->tmpdir_hold = safe_close(o->tmpdir_hold);
	o->network_hold = safe_close(o->network_hold);
	free(o->network_holder);
	o->tool_cache_hold = safe_close(o->tool_cache_hold);
	free(o->tool_cache);
	free(o->tmpdir);
	free(o->jobs_dir);
	free(o->job.output_file);
	strv_free(o->env);
	strv_free(o->protect_loaded);
	outbuf_free(o->output);
	outbuf_free(o->out);
	outbuf_free(o->err);
	pump_done(&o->pump);
	protect_watch_done(&o->watch);
	git_later_done(&o->later);
	git_sweep_done(&o->sweep);
}

int run_outcome_fail(struct run_outcome *o, enum error_kind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	o->result.error = kind;
	vsnprintf(o->result.error_message, sizeof(o->result.error_message), fmt, ap);
	va_end(ap);
	return -1;
}

void run_outcome_forget_failure(struct run_outcome *o)
{
	o->result.error = ERROR_KIND_NONE;
	o->result.error_message[0] = '\0';
}

int run_outcome_jobs_dir(struct run_outcome *o, struct sluice_error *reterr)
{
	return o->jobs_dir ? 0 : jobs_dir(&o->settings, &o->jobs_dir, reterr);
}
