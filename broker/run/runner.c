/* SPDX-License-Identifier: MIT */
/*
 * One run, top to bottom as the order of checks: limits, working directory,
 * policy, spawn, then the watch or the background job, then the evaluation
 * of how it ended. Shared by `sluice run` and the MCP server. Each step
 * returns 0 to go on, or run_outcome_fail()'s -1 with the error in the
 * result.
 * Not for: the mechanics (run-spawn.c, launcher-proc.c, pump.c, spawner.c,
 * jobs.c, result.c do those) or the warm-up (run-warmup.c).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "monotonic.h"
#include "parse-number.h"
#include "run/egress-asks.h"
#include "run/egress-log.h"
#include "run/launch-report.h"
#include "run/launcher-proc.h"
#include "run/protect-loaded.h"
#include "run/run-spawn.h"
#include "run/run-warmup.h"
#include "run/runner.h"
#include "run/workdir.h"
#include "run/workspace-guard.h"
#include "strv.h"

#include "launch-spec.h"

/* The timeout that applies, checked against the configured maximum. */
static int apply_limits(const struct run_request *req, const struct runner_options *opt,
                        struct run_outcome *o)
{
	const struct run_settings *s = &o->settings;
	uint64_t t = run_settings_mode_timeout(s, req->mode);
	if (req->has_timeout) {
		char max[32];
		if (req->timeout_ms > s->max_timeout_ms)
			return run_outcome_fail(
			        o, ERROR_KIND_INVALID_REQUEST,
			        "%s is more than the configured maximum of %s",
			        opt->timeout_source ? opt->timeout_source : "field 'timeout_ms'",
			        format_duration_ms(s->max_timeout_ms, max, sizeof(max)));
		t = req->timeout_ms;
	}
	o->result.timeout_ms = t;
	o->result.mode = req->mode;
	return 0;
}

/* In a sandboxed mode the workspace is writable (or readable, with the
 * user's secrets hidden): one that holds the user's own files is refused. */
static int check_workspace(struct run_outcome *o)
{
	const struct run_settings *s = &o->settings;
	if (s->sandbox_mode == SANDBOX_MODE_UNRESTRICTED)
		return 0;
	const char *home = getenv("HOME");
	if (!home || *home != '/') {
		const struct passwd *pw = getpwuid(geteuid());
		home = pw ? pw->pw_dir : NULL;
	}
	struct sluice_error err = { 0 };
	if (workspace_guard_check(o->root, home, s->config_dirs, s->n_config_dirs, &err) < 0)
		return run_outcome_fail(o, ERROR_KIND_INVALID_WORKING_DIR, "%s", err.detail);
	if (workspace_guard_check_writable(s->writable, s->n_writable, s->config_dirs,
	                                   s->n_config_dirs, &err) < 0)
		return run_outcome_fail(o, ERROR_KIND_CONFIG_ERROR, "%s", err.detail);
	return 0;
}

/* workspace-write: the files the workspace's protected direnv and mise
 * configurations load, protected with them (protect-loaded.h), read again
 * for each resolution of the workspace. One that cannot be read refuses
 * the run: what it loads would be left writable. */
static int protect_loaded(struct run_outcome *o)
{
	struct run_settings *s = &o->settings;
	/* the configuration is read into the settings after the outcome is
	 * made: the entries added last time are the ones with a loader */
	while (s->n_protect > 0 && s->protect_loader[s->n_protect - 1])
		s->protect_loader[--s->n_protect] = NULL;
	o->protect_loaded = strv_free(o->protect_loaded);
	if (s->sandbox_mode != SANDBOX_MODE_WORKSPACE_WRITE)
		return 0;
	struct sluice_error err = { 0 };
	if (protect_loaded_add(s, o->root, &o->protect_loaded, &err) < 0)
		return run_outcome_fail(o, ERROR_KIND_CONFIG_ERROR,
		                        "the files the workspace's direnv or mise configuration "
		                        "loads could not all be protected, so the command was "
		                        "refused: %s",
		                        err.detail);
	return 0;
}

static int resolve_directory(const struct run_request *req, const struct runner_options *opt,
                             struct run_outcome *o)
{
	struct sluice_error err = { 0 };
	free(o->root); /* a prepared run resolved the root already */
	free(o->workdir);
	o->root = o->workdir = NULL;
	int r = workdir_resolve(opt->workspace_root ? opt->workspace_root : ".", req->directory,
	                        &o->root, &o->workdir, &err);
	if (r == -EXDEV)
		return run_outcome_fail(o, ERROR_KIND_OUTSIDE_WORKSPACE, "%s", err.detail);
	if (r == -ENOENT || r == -ENOTDIR || r == -ENOSYS)
		return run_outcome_fail(o, ERROR_KIND_INVALID_WORKING_DIR, "%s", err.detail);
	if (r < 0)
		return run_outcome_fail(o, ERROR_KIND_INVALID_WORKING_DIR, "%s: %s", err.detail,
		                        strerror(-r));
	return check_workspace(o) < 0 ? -1 : protect_loaded(o);
}

/* The wall time since *since as the result's step name (stepsUs), and
 * now the start of the next step. */
static void step_done(struct run_outcome *o, const char *name, uint64_t *since)
{
	uint64_t now = monotonic_us();
	struct run_result *r = &o->result;
	if (r->n_steps < ELEMENTSOF(r->steps))
		r->steps[r->n_steps++] = (struct run_step_time){ .name = name, .us = now - *since };
	*since = now;
}

/* The policies decide before the command is sent anywhere; with no
 * context to ask, or a context that cannot decide, nothing runs (fail
 * closed). */
static int decide(const struct run_request *req, const struct runner_options *opt,
                  struct run_outcome *o)
{
	if (!opt->context)
		return run_outcome_fail(o, ERROR_KIND_PERMISSION_DENIED,
		                        "no policy context, so the command was refused");
	/* The launcher of a foreground run starts first, to build its sandbox
	 * beside the decision: before the policy chain and the parser are made
	 * for a first decision, before the parse and the checks; and before
	 * the policy child is forked, which would otherwise take this CPU and
	 * run its checks first while the other CPU idles. A command refused
	 * after it (by a plugin, or by a configuration that cannot be armed)
	 * never reaches the launcher. A background job starts its own. */
	if (o->foreground)
		run_warmup_before_decision(o);
	struct sluice_error err = { 0 };
	int r = broker_context_decide(opt->context, req, o->workdir, ASK_APPROVER, opt->asker,
	                              &o->decision, &err);
	if (r == -ENOEXEC)
		return run_outcome_fail(o, ERROR_KIND_CONFIG_ERROR, "%s", err.detail);
	if (r < 0)
		return run_outcome_fail(
		        o, ERROR_KIND_PERMISSION_DENIED,
		        "the policies could not decide, so the command was refused: %s: %s",
		        err.detail, strerror(-r));
	o->result.display = o->decision.display;
	o->result.policy = &o->decision.verdict;
	if (o->decision.allowed)
		return 0;
	/* The rule's message is in the result's policy reasons: the error names
	 * the plugin and, for an ask, who did not approve it, not the reason
	 * again. */
	const struct verdict_reason *why = verdict_main_reason(&o->decision.verdict);
	o->result.approval_note = o->decision.approval_note;
	if (o->decision.verdict.kind == VERDICT_ASK)
		return run_outcome_fail(o, ERROR_KIND_PERMISSION_DENIED,
		                        "policy %s asks for approval, and it was not given: %s",
		                        why ? why->plugin : "?",
		                        o->decision.approval_note ? o->decision.approval_note
		                                                  : "nobody answered yes");
	return run_outcome_fail(o, ERROR_KIND_PERMISSION_DENIED, "denied by policy %s",
	                        why ? why->plugin : "?");
}

static int start_background(const struct run_request *req, const struct runner_options *opt,
                            struct run_outcome *o, const struct spawn_request *sr)
{
	/* The job's monitor removes its TMPDIR: never the point runs share. */
	if (o->tmpdir_fallback)
		return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED,
		                        "a background job cannot have the shared TMPDIR '%s'",
		                        o->tmpdir);
	struct sluice_error err = { 0 };
	int r = run_outcome_jobs_dir(o, &err);
	if (r < 0)
		return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED, "the jobs directory: %s: %s",
		                        err.detail, strerror(-r));
	uint64_t timeout = req->has_timeout ? req->timeout_ms : o->settings.background_timeout_ms;
	/* the monitor is a fork of this process: what these point to lives
	 * on there */
	struct job_audit audit = {
		.context = opt->context,
		.req = req,
		.workdir = o->workdir,
		.decision = &o->decision,
		.start_id = o->audit_id,
	};
	r = jobs_start(o->jobs_dir, sr, timeout, o->settings.kill_grace_ms,
	               o->sweeping ? &o->sweep : NULL, o->audit_id[0] ? &audit : NULL, &o->job,
	               &err);
	/* the sandbox the launcher reported, as in the foreground */
	if (o->job.report[0])
		o->result.sandbox_report = o->job.report;
	if (r < 0 && o->job.launch != JOB_LAUNCH_REPORTED)
		return run_outcome_fail(o,
		                        o->job.launch == JOB_LAUNCH_UNAVAILABLE
		                                ? ERROR_KIND_SANDBOX_UNAVAILABLE
		                                : ERROR_KIND_COMMAND_FAILED,
		                        "%s", err.detail);
	if (r < 0)
		return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED, "%s: %s", err.detail,
		                        strerror(-r));
	o->tmpdir_handed = true;
	o->result.ran = true;
	o->result.pid = o->job.pid;
	o->result.job_id = o->job.id;
	o->result.output_file = o->job.output_file;
	return 0;
}

/* Before the command can start: note the time and the repository the
 * post-run sweep looks at (git-sweep.h). Sandboxed runs only: an
 * unrestricted command could write anything anywhere, a sweep would
 * promise what it cannot keep. */
static int begin_sweep(struct run_outcome *o)
{
	const struct run_settings *s = &o->settings;
	if (!s->git_sweep || s->sandbox_mode == SANDBOX_MODE_UNRESTRICTED)
		return 0;
	int r = git_sweep_begin(&o->sweep, o->root);
	if (r < 0)
		return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED,
		                        "preparing the repository's sweep: %s", strerror(-r));
	o->sweep.roots_config_writable = s->git_writable;
	o->sweeping = true;
	return 0;
}

/* With the sweep, in the foreground: the index and refs as they are (a few
 * stat(2)s), for the check of what git restores later (git-later.h). A
 * background job's repository is read-only (spawner.h). */
static int begin_later(struct run_outcome *o)
{
	if (!o->sweeping || !o->foreground)
		return 0;
	if (git_later_begin(&o->later, &o->sweep, &o->settings) < 0)
		return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED,
		                        "preparing the check of git's index: %s", strerror(ENOMEM));
	return 0;
}

/* Whether the command could have written anything that outlasts the run:
 * false only for a restricted run with no writable path but its TMPDIR
 * (no [sandbox] writable, no git_writable, no tool caches), which the
 * launcher reports it kept so: every mount read-only (mount-namespace) and
 * /tmp a tmpfs of the run's own (private-tmp), gone with its mount
 * namespace. Such a run can have planted nothing in any gitdir, nested
 * repository or todo list for the sweep to find (docs/running.md, "The
 * sweep", argues it); a best-effort sandbox that kept less is swept. */
static bool run_could_leave_files(const struct run_outcome *o)
{
	const struct run_settings *s = &o->settings;
	if (s->sandbox_mode != SANDBOX_MODE_RESTRICTED || s->n_writable > 0 || s->git_writable ||
	    o->tool_cache)
		return true;
	const char *report = o->result.sandbox_report;
	return !launch_report_enforced(report, LAUNCH_PROT_MOUNT_NAMESPACE) ||
	       !launch_report_enforced(report, LAUNCH_PROT_PRIVATE_TMP);
}

/* After the run's last process is gone (as far as the pump knows: the
 * survivors it left are listed in the result): the sweep, its quarantine
 * folder in the jobs directory; none when the run could leave nothing
 * behind. */
static void end_sweep(struct run_outcome *o)
{
	if (!o->sweeping)
		return;
	if (!run_could_leave_files(o)) {
		o->sweeping = false;
		return;
	}
	const char *dir = run_outcome_jobs_dir(o, NULL) == 0 ? o->jobs_dir : NULL;
	(void)git_sweep_run(&o->sweep, dir);
	o->result.git_sweep = &o->sweep;
}

/* After the sweep (the repository's config then holds nothing the run
 * added, and the work tree no file it planted): what it put in git's
 * index or branch at a name that runs later (git-later.h), taken out
 * and noted in the sweep's items. */
static void end_later(struct run_outcome *o)
{
	if (!o->sweeping || !o->later.active)
		return;
	/* a failure is in the sweep's error, said with it */
	(void)git_later_end(&o->later, &o->watch, &o->sweep);
}

static int spill_open(void *userdata, char **ret_path)
{
	struct run_outcome *o = userdata;
	int r = run_outcome_jobs_dir(o, NULL);
	if (r < 0)
		return r;
	return jobs_spill_open(o->jobs_dir, ret_path);
}

/* The launcher's own failure (exit 125 before the program ran): what its
 * report's error line says, else the first line of its stderr. */
static void launcher_failed(struct run_outcome *o, const struct launch_failure *f)
{
	if (f->failed) {
		run_outcome_fail(o,
		                 f->unavailable ? ERROR_KIND_SANDBOX_UNAVAILABLE
		                                : ERROR_KIND_COMMAND_FAILED,
		                 "%s", f->message);
		return;
	}
	size_t len;
	const char *text = outbuf_data(o->err, &len);
	/* the buffer is not NUL-terminated: the first line ends at '\n' or len */
	const char *nl = len > 0 ? memchr(text, '\n', len) : NULL;
	_cleanup_free_ char *line = strndup(text, nl ? (size_t)(nl - text) : len);
	run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED, "%s",
	                 line && line[0] ? line
	                                 : "sluice-launch failed before running the command");
}

/* The shell ran and ended with this wait status. */
static void take_shell_status(struct run_result *r, int status)
{
	r->ran = true;
	if (WIFSIGNALED(status)) {
		r->signal = WTERMSIG(status);
	} else {
		r->has_exit_code = true;
		r->exit_code = WEXITSTATUS(status);
	}
}

/* How the shell of a run sluice ended (timeout, signal, cancel) ended: its
 * own status when it had exited before the kill (the drain window), else
 * the signal the kill ended it with (the contract's `signal`). */
static void take_killed_shell(struct run_result *r, const struct pump *p)
{
	if (p->ended_before_kill)
		take_shell_status(r, p->status);
	else if (p->reaped && WIFSIGNALED(p->status))
		r->signal = WTERMSIG(p->status);
}

/* The launcher reports, last thing before it execs the shell, the sandbox
 * it built: without that report nothing says that the command ran at all,
 * nor in which sandbox (a launcher that exits 0 at once, a stand-in that
 * runs it bare), and a report of another profile is not the sandbox the
 * result would name. Either is a failure, whatever the exit status. */
static int check_reported_sandbox(struct run_outcome *o)
{
	struct launch_failure f;
	if (launch_report_check_start(o->pump.report, o->pump.report_len,
	                              sandbox_mode_name(o->settings.sandbox_mode), o->launcher,
	                              &f) == 0)
		return 0;
	return run_outcome_fail(
	        o, f.unavailable ? ERROR_KIND_SANDBOX_UNAVAILABLE : ERROR_KIND_COMMAND_FAILED, "%s",
	        f.message);
}

static void evaluate(struct run_outcome *o)
{
	struct pump *p = &o->pump;
	struct run_result *r = &o->result;
	r->duration_ms = p->duration_ms;
	r->sandbox_report = p->report;
	r->background_pids = p->survivors;
	r->n_background_pids = p->n_survivors;
	r->kill_failed = p->kill_failed;
	r->output_file = p->spill_path;
	r->output_file_cut = p->spill_cut;
	r->output_file_error = p->spill_error;
	struct stat spilled;
	if (p->spill_error && p->spill_path &&
	    (stat(p->spill_path, &spilled) < 0 || spilled.st_size == 0)) {
		/* an empty file named as "the whole output" would mislead */
		(void)unlink(p->spill_path);
		r->output_file = NULL;
	}
	if (p->interrupted_by) {
		r->interrupted_by = p->interrupted_by;
		run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED,
		                 "sluice run was interrupted by signal %d", p->interrupted_by);
		take_killed_shell(r, p);
		return;
	}
	if (p->cancelled) {
		run_outcome_fail(
		        o, ERROR_KIND_COMMAND_FAILED,
		        "the run was cancelled by its caller; the command's process tree was ended");
		take_killed_shell(r, p);
		return;
	}
	if (p->timed_out) {
		char limit[32];
		run_outcome_fail(o, ERROR_KIND_TIMEOUT, "the command timed out after %s (%s mode)",
		                 format_duration_ms(r->timeout_ms, limit, sizeof(limit)),
		                 run_mode_name(r->mode));
		r->timed_out = true;
		take_killed_shell(r, p);
		return;
	}
	struct launch_failure launcher;
	launch_report_failure(p->report, p->report_len, &launcher);
	bool reported = p->report_len > 0 && !launcher.failed;
	int status = p->status;
	if (!reported && WIFEXITED(status) && WEXITSTATUS(status) == 125) {
		/* a launcher started early whose exec failed after its options
		 * were sent: named as one that could not start at all */
		int e = launcher_proc_exec_status(&o->launcher_proc);
		if (e < 0) {
			run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED, "starting '%s': %s",
			                 o->launcher, strerror(-e));
			return;
		}
		launcher_failed(o, &launcher);
		return;
	}
	if (p->report_len > 0 && !reported) {
		run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED, "could not execute the shell '%s'",
		                 o->settings.shell);
		return;
	}
	if (check_reported_sandbox(o) < 0)
		return;
	take_shell_status(r, status);
}

/* The run's output buffers (combined, stdout, stderr), each within the
 * settings' caps, into o and its result. */
static int open_outputs(struct run_outcome *o)
{
	const struct run_settings *s = &o->settings;
	o->output = outbuf_new(s->output_cap, s->output_head, s->output_tail);
	o->out = outbuf_new(s->output_cap, s->output_head, s->output_tail);
	o->err = outbuf_new(s->output_cap, s->output_head, s->output_tail);
	if (!o->output || !o->out || !o->err)
		return run_outcome_fail(
		        o, ERROR_KIND_CONFIG_ERROR,
		        "the output caps do not fit: head + tail must not exceed the cap");
	o->result.output = o->output;
	o->result.out = o->out;
	o->result.err = o->err;
	return 0;
}

/* Once the run is over (the launcher's monitor killed and reaped the proxy
 * before it exited): the proxy's records, in the result and the audit
 * line. A channel that cannot be read leaves the key out rather than say
 * "no connection". */
static void read_egress_log(struct run_outcome *o, int fd)
{
	if (fd < 0 || !spawn_wants_egress_audit(&o->settings))
		return;
	if (egress_log_read(fd, &o->egress_log) == 0)
		o->result.network = o->egress_log;
}

/* The pump's watch over the egress proxy's questions (pump.h). */
static size_t asks_fds(void *userdata, int fds[])
{
	return egress_asks_fds(userdata, fds);
}

static void asks_ready(void *userdata, int fd)
{
	egress_asks_ready(userdata, fd);
}

static void asks_end(void *userdata)
{
	egress_asks_stop(userdata);
}

/* The launcher started with the command's request, or the one started
 * early configured with it; one that waits for its command already is
 * left as it is. 0, or -errno. */
static int launcher_ready(struct launcher_proc *lp, struct spawn_request *sr)
{
	enum launcher_proc_state state = launcher_proc_state(lp);
	if (state == LAUNCHER_PROC_AWAITING_OPTIONS)
		return launcher_proc_configure(lp, sr);
	if (state == LAUNCHER_PROC_NONE)
		return launcher_proc_start_with_command(lp, sr);
	return 0;
}

/* The questions about hosts not on the list (on the launcher's ask
 * channel, fd), answered while the command runs and never past its
 * timeout, from start. */
static void asks_begin(struct egress_asks *asks, const struct runner_options *opt,
                       const struct run_outcome *o, int fd, uint64_t start)
{
	egress_asks_init(asks, fd, opt->context ? broker_context_config(opt->context) : NULL,
	                 opt->asker, o->decision.command, o->workdir,
	                 o->result.timeout_ms ? start + o->result.timeout_ms : 0);
}

/* Once the command's processes are gone (r: how the pump went): the
 * protected files it made, the result, the sweep, the proxy's records. */
static int after_command(struct run_outcome *o, int r, int egress_audit, uint64_t *t)
{
	/* what is left running could make one again: checked once all is
	 * gone, and at each run after */
	(void)protect_watch_end(&o->watch); /* what failed is in the watch, and said */
	o->result.protect_watch = &o->watch;
	step_done(o, "watch-end", t);
	if (r < 0)
		return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED, "watching the command: %s",
		                        strerror(-r));
	evaluate(o);
	step_done(o, "evaluate", t);
	end_sweep(o);
	if (o->sweeping)
		step_done(o, "sweep", t);
	end_later(o);
	if (o->sweeping && o->later.active)
		step_done(o, "git-later", t);
	read_egress_log(o, egress_audit);
	return 0;
}

/* Before the command can run: the protected paths' watch, then the nested
 * repositories on the way to the names it found (git-later.h); a failure
 * of either is said in the result (without memory for the nested ones:
 * in the sweep's error, after the run). */
static void begin_watch(struct run_outcome *o, uint64_t *t)
{
	(void)protect_watch_begin(&o->watch, o->root, &o->settings);
	step_done(o, "watch-begin", t);
	if (git_later_nested_begin(&o->later, &o->watch) < 0)
		o->later.nested_over = true;
	if (o->later.n_nested > 0)
		step_done(o, "git-later-nested", t);
}

static int run_foreground(const struct runner_options *opt, struct run_outcome *o,
                          struct spawn_request *sr)
{
	const struct run_settings *s = &o->settings;
	uint64_t t = monotonic_us();
	int r = open_outputs(o);
	if (r < 0)
		return r;

	/* Signals are blocked before the command can start, so that nothing it
	 * starts outlives an interrupted broker. */
	int sigfd = pump_block_signals();
	r = sigfd;
	/* before the command can run (an early launcher waits for it) */
	begin_watch(o, &t);
	struct launcher_proc *lp = &o->launcher_proc;
	if (r >= 0)
		r = launcher_ready(lp, sr);
	if (r < 0) {
		safe_close(sigfd);
		return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED, "starting '%s': %s",
		                        o->launcher, strerror(-r));
	}
	uint64_t start = monotonic_ms();
	/* -EPIPE: the launcher is gone; its status and stderr say why */
	(void)launcher_proc_send_command(lp, o->workdir, o->decision.command);
	int out_fd, err_fd, report_fd, end_fd;
	pid_t pid = launcher_proc_hand_over(lp, &out_fd, &err_fd, &report_fd, &end_fd);
	_cleanup_close_ int egress_audit = launcher_proc_take_egress_audit(lp);
	struct egress_asks asks;
	asks_begin(&asks, opt, o, launcher_proc_take_egress_ask(lp), start);
	/* The policy child may still be exiting: it must not be taken for
	 * part of the command's tree, nor reaped by the wait for any child
	 * below (its own reap comes first). */
	broker_context_reap(opt->context);
	/* An early launcher may have failed a step before signals were
	 * blocked, its SIGCHLD then lost: ask once. */
	int status = 0;
	bool reaped = false;
	(void)spawn_reap(pid, &status, &reaped);
	o->result.pid = pid;
	step_done(o, "send", &t);
	o->pump = (struct pump){
		.out_fd = out_fd,
		.err_fd = err_fd,
		.report_fd = report_fd,
		.end_fd = end_fd,
		.signal_fd = sigfd,
		.pid = pid,
		.status = status,
		.reaped = reaped,
		.start_ms = start,
		.timeout_ms = o->result.timeout_ms,
		.kill_grace_ms = s->kill_grace_ms,
		.drain_window_ms = s->drain_window_ms,
		.kill_survivors = s->background_survivors == SURVIVORS_KILL,
		.combined = o->output,
		.out = o->out,
		.err = o->err,
		.spill_cap = s->output_file_cap,
		.spill_open = spill_open,
		.spill_userdata = o,
		.spill_fd = -1,
		.cancel_fd = opt->cancel_fd,
		.watch_fds = asks_fds,
		.watch_ready = asks_ready,
		.watch_end = asks_end,
		.watch_userdata = &asks,
		.progress = opt->progress,
		.progress_interval_ms = opt->progress_interval_ms,
		.progress_userdata = opt->progress_userdata,
	};
	r = pump_run(&o->pump);
	safe_close(sigfd);
	o->network_asks = egress_asks_to_json(&asks);
	egress_asks_done(&asks);
	step_done(o, "command", &t);
	return after_command(o, r, egress_audit, &t);
}

/* The caller cancelled while the policies or an approver decided (the pump
 * watches the descriptor only once the command runs): nothing starts. */
static int check_cancelled(const struct runner_options *opt, struct run_outcome *o)
{
	struct pollfd p = { .fd = opt->cancel_fd, .events = POLLIN };
	int n;
	if (opt->cancel_fd < 0)
		return 0;
	while ((n = poll(&p, 1, 0)) < 0 && errno == EINTR)
		;
	if (n <= 0)
		return 0;
	return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED,
	                        "the run was cancelled by its caller before it started");
}

/* [audit] required = yes: the request's line is begun before the command
 * runs; a line that cannot be written means it does not run. A background
 * job's line is begun so too, required or not: its monitor ends it when
 * the job ends (one that cannot be begun, not required, runs with its one
 * line written after the start, as before). */
static int audit_start(const struct run_request *req, const struct runner_options *opt,
                       struct run_outcome *o)
{
	struct sluice_error err = { 0 };
	bool background = req->mode == RUN_MODE_BACKGROUND;
	if (broker_context_audit_start(opt->context, req, o->workdir, &o->decision, background,
	                               o->audit_id, sizeof(o->audit_id), &err) < 0 &&
	    broker_context_audit_required(opt->context))
		return run_outcome_fail(o, ERROR_KIND_CONFIG_ERROR,
		                        "the audit log is required and the request's line could "
		                        "not be written, so the command was refused: %s: %s",
		                        err.detail, strerror(-err.code));
	return 0;
}

static int execute(const struct run_request *req, const struct runner_options *opt,
                   struct run_outcome *o)
{
	struct spawn_request sr;
	uint64_t t = monotonic_us();
	if (apply_limits(req, opt, o) < 0 || resolve_directory(req, opt, o) < 0)
		return -1;
	step_done(o, "workspace", &t);
	o->foreground = req->mode != RUN_MODE_BACKGROUND;
	int r = decide(req, opt, o);
	step_done(o, "decide", &t);
	if (r >= 0 && check_cancelled(opt, o) >= 0 && run_spawn_prepare(o, &sr) >= 0) {
		step_done(o, "prepare", &t);
		r = begin_sweep(o);
		if (o->sweeping)
			step_done(o, "sweep-begin", &t);
		if (r >= 0)
			r = begin_later(o);
		if (o->later.active)
			step_done(o, "git-later-begin", &t);
	} else {
		r = -1;
	}
	if (r >= 0) {
		r = audit_start(req, opt, o);
		step_done(o, "audit-start", &t);
	}
	if (r < 0) {
		launcher_proc_withdraw(&o->launcher_proc);
		return -1;
	}
	if (req->mode == RUN_MODE_BACKGROUND) {
		/* a prepared one: a job starts its own */
		launcher_proc_withdraw(&o->launcher_proc);
		return start_background(req, opt, o, &sr);
	}
	return run_foreground(opt, o, &sr);
}

/* One audit line per request, whatever happened to it (with a start line,
 * its end). A line that cannot be written is reported; the command has
 * already run. */
static void audit(const struct run_request *req, const struct runner_options *opt,
                  struct run_outcome *o)
{
	if (!opt->context)
		return;
	const struct run_result *r = &o->result;
	/* a job that started: its monitor ends its line when it ends */
	if (r->job_id && o->audit_id[0])
		return;
	struct audit_outcome outcome = {
		.start_id = o->audit_id[0] ? o->audit_id : NULL,
		.error_kind = r->error != ERROR_KIND_NONE ? error_kind_name(r->error) : NULL,
		.exit_code = r->has_exit_code ? r->exit_code : -1,
		.signal = r->signal,
		.duration_ms = r->duration_ms,
		.swept = r->git_sweep ? r->git_sweep->n_found : 0,
		.quarantine = r->git_sweep ? r->git_sweep->quarantine : NULL,
	};
	_cleanup_(json_decrefp) json_t *network = r->network ? json_object() : NULL;
	if (network)
		egress_log_add_keys(network, r->network);
	if (network && o->network_asks)
		json_object_set(network, "networkAsks", o->network_asks);
	outcome.network = network;
	struct sluice_error err = { 0 };
	int ret = broker_context_audit(opt->context, req, o->workdir,
	                               o->decision.command ? &o->decision : NULL, &outcome, &err);
	if (ret < 0)
		o->result.audit_failed = true;
}

/* RUNNER_BEGIN_BEFORE_REQUEST. */
static int begin_before_request(const struct runner_options *opt, struct run_outcome *o)
{
	/* The policy child first: it must not inherit the launcher's pipes. */
	broker_context_prepare(opt->context);
	run_warmup_prefault_stack();
	struct run_request none = { .mode = RUN_MODE_DEFAULT };
	if (resolve_directory(&none, opt, o) < 0) {
		run_outcome_forget_failure(o);
		return -1;
	}
	return run_warmup_start_launcher(o);
}

int runner_begin(const struct runner_options *opt, struct run_outcome *o, enum runner_begin_at at)
{
	switch (at) {
	case RUNNER_BEGIN_UNCONFIGURED:
		return run_warmup_start_unconfigured(o);
	case RUNNER_BEGIN_MODE_FINAL:
		run_warmup_namespace_ahead(o);
		return 0;
	case RUNNER_BEGIN_BEFORE_REQUEST:
		return begin_before_request(opt, o);
	}
	return -1;
}

int runner_execute(const struct run_request *req, const struct runner_options *opt,
                   struct run_outcome *o)
{
	(void)execute(req, opt, o);
	uint64_t t = monotonic_us();
	audit(req, opt, o);
	step_done(o, "audit", &t);
	return o->result.error == ERROR_KIND_NONE ? 0 : -1;
}
