/* SPDX-License-Identifier: MIT */
/*
 * One run, top to bottom as the order of checks: limits, working directory,
 * policy, spawn, then the watch or the background job, then the evaluation
 * of how it ended. Shared by `sluice run` and the MCP server.
 * Not for: the mechanics (pump.c, spawner.c, jobs.c, result.c do those).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "run/environment.h"
#include "fd-util.h"
#include "monotonic.h"
#include "parse-number.h"
#include "run/run-tmpdir.h"
#include "run/runner.h"
#include "run/spawner.h"
#include "strv.h"
#include "run/workdir.h"

#include "launch-spec.h"

extern char **environ;

/* The sandbox modes the interface names; the launcher's profile names. */
static const char *const sandbox_modes[] = { "unrestricted", "workspace-write", "restricted" };

/* The mode's strictness: its index in sandbox_modes[], or -1. */
static int sandbox_strictness(const char *mode)
{
	for (size_t i = 0; i < ELEMENTSOF(sandbox_modes); i++)
		if (strcmp(sandbox_modes[i], mode) == 0)
			return (int)i;
	return -1;
}

bool runner_known_sandbox_mode(const char *mode)
{
	return sandbox_strictness(mode) >= 0;
}

int runner_choose_sandbox(struct run_settings *s, const char *mode, struct sluice_error *reterr)
{
	int wanted = sandbox_strictness(mode);
	if (wanted < 0)
		return sluice_error_set(reterr, -EINVAL,
		                        "the sandbox mode must be one of unrestricted, "
		                        "workspace-write, restricted, not '%s'",
		                        mode);
	/* The configured mode is the administrator's floor: a caller may only
	 * ask for more protection, never less. */
	if (wanted < sandbox_strictness(s->sandbox_mode))
		return sluice_error_set(reterr, -EPERM,
		                        "the sandbox mode '%s' is looser than the configured '%s'; "
		                        "a request may only make it stricter",
		                        mode, s->sandbox_mode);
	s->sandbox_mode = sandbox_modes[wanted];
	return 0;
}

void run_outcome_init(struct run_outcome *o, const struct run_settings *settings)
{
	*o = (struct run_outcome){ .settings = *settings };
	o->pump = (struct pump){
		.out_fd = -1,
		.err_fd = -1,
		.report_fd = -1,
		.signal_fd = -1,
		.spill_fd = -1,
		.cancel_fd = -1,
	};
	o->result.settings = &o->settings;
	o->command_fd = o->out_r = o->err_r = o->rep_r = -1;
	o->tmpdir_hold = -1;
}

static void withdraw_launcher(struct run_outcome *o);

void run_outcome_done(struct run_outcome *o)
{
	withdraw_launcher(o);
	policy_decision_done(&o->decision);
	free(o->root);
	free(o->workdir);
	free(o->launcher);
	if (o->tmpdir && !o->tmpdir_handed)
		(void)run_tmpdir_remove(o->tmpdir);
	o->tmpdir_hold = safe_close(o->tmpdir_hold);
	free(o->tmpdir);
	free(o->jobs_dir);
	free(o->job.output_file);
	strv_free(o->env);
	outbuf_free(o->output);
	outbuf_free(o->out);
	outbuf_free(o->err);
	pump_done(&o->pump);
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

#define fail run_outcome_fail

/* The timeout that applies, checked against the configured maximum. */
static int apply_limits(const struct run_request *req, const struct runner_options *opt,
                        struct run_outcome *o)
{
	const struct run_settings *s = &o->settings;
	uint64_t t = run_settings_mode_timeout(s, req->mode);
	if (req->has_timeout) {
		char max[32];
		if (req->timeout_ms > s->max_timeout_ms)
			return fail(o, ERROR_KIND_INVALID_REQUEST,
			            "%s is more than the configured maximum of %s",
			            opt->timeout_source ? opt->timeout_source
			                                : "field 'timeout_ms'",
			            format_duration_ms(s->max_timeout_ms, max, sizeof(max)));
		t = req->timeout_ms;
	}
	o->result.timeout_ms = t;
	o->result.mode = req->mode;
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
		return fail(o, ERROR_KIND_OUTSIDE_WORKSPACE, "%s", err.detail);
	if (r == -ENOENT || r == -ENOTDIR)
		return fail(o, ERROR_KIND_INVALID_WORKING_DIR, "%s", err.detail);
	if (r < 0)
		return fail(o, ERROR_KIND_INVALID_WORKING_DIR, "%s: %s", err.detail, strerror(-r));
	return 0;
}

/* The policies decide before the command is sent anywhere (overlap: what
 * may run meanwhile); with no context to ask, or a context that cannot
 * decide, nothing runs (fail closed). */
static int decide(const struct run_request *req, const struct runner_options *opt,
                  const struct decide_overlap *overlap, struct run_outcome *o)
{
	if (!opt->context)
		return fail(o, ERROR_KIND_PERMISSION_DENIED,
		            "no policy context, so the command was refused");
	struct sluice_error err = { 0 };
	int r = broker_context_decide(opt->context, req, o->workdir, ASK_APPROVER, opt->asker,
	                              overlap, &o->decision, &err);
	if (r == -ENOEXEC)
		return fail(o, ERROR_KIND_CONFIG_ERROR, "%s", err.detail);
	if (r < 0)
		return fail(o, ERROR_KIND_PERMISSION_DENIED,
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
		return fail(o, ERROR_KIND_PERMISSION_DENIED,
		            "policy %s asks for approval, and it was not given: %s",
		            why ? why->plugin : "?",
		            o->decision.approval_note ? o->decision.approval_note
		                                      : "nobody answered yes");
	return fail(o, ERROR_KIND_PERMISSION_DENIED, "denied by policy %s",
	            why ? why->plugin : "?");
}

/* The jobs directory, looked up (and checked) once per outcome: the private
 * TMPDIR, a background job and a cut run's output file all live there.
 * 0, or -errno with reterr (may be NULL) saying why. */
static int outcome_jobs_dir(struct run_outcome *o, struct sluice_error *reterr)
{
	return o->jobs_dir ? 0 : jobs_dir(&o->settings, &o->jobs_dir, reterr);
}

/* A sandboxed command may write nowhere outside the workspace but here, so
 * mktemp and compilers' scratch files keep working. */
static int prepare_tmpdir(struct run_outcome *o)
{
	if (o->tmpdir || strcmp(o->settings.sandbox_mode, "unrestricted") == 0)
		return 0;
	struct sluice_error err = { 0 };
	int r = outcome_jobs_dir(o, &err);
	if (r >= 0)
		r = run_tmpdir_create(o->jobs_dir, o->settings.user, &o->tmpdir, &err);
	if (r >= 0) {
		o->tmpdir_hold = run_tmpdir_hold(o->tmpdir);
		r = o->tmpdir_hold < 0 ? sluice_error_set(&err, o->tmpdir_hold, "holding it") : 0;
	}
	if (r < 0 && o->tmpdir) { /* undone: a later attempt makes and holds its own */
		(void)run_tmpdir_remove(o->tmpdir);
		free(o->tmpdir);
		o->tmpdir = NULL;
		o->tmpdir_hold = -1;
	}
	if (r < 0)
		return fail(o, ERROR_KIND_COMMAND_FAILED, "the private TMPDIR: %s: %s", err.detail,
		            strerror(-r));
	return 0;
}

static int prepare_spawn(struct run_outcome *o, struct spawn_request *sr)
{
	const struct run_settings *s = &o->settings;
	if (prepare_tmpdir(o) < 0)
		return -1;
	int r = o->env ? 0
	               : environment_build(environ, s->env_drop, s->n_env_drop, s->env_set,
	                                   s->n_env_set, &o->env);
	if (r < 0)
		return fail(o, ERROR_KIND_COMMAND_FAILED, "building the environment: %s",
		            strerror(-r));
	r = o->launcher ? 0 : spawn_find_launcher(&o->launcher);
	if (r < 0)
		return fail(
		        o, ERROR_KIND_COMMAND_FAILED,
		        "sluice-launch was not found (set SLUICE_LAUNCH or install it next to sluice)");
	*sr = (struct spawn_request){
		.launcher = o->launcher,
		.settings = s,
		.workspace = o->root,
		.chdir = o->workdir,
		.tmpdir = o->tmpdir,
		.command = o->decision.command,
		.env = o->env,
		.stdout_fd = -1,
		.stderr_fd = -1,
		.report_fd = -1,
		.command_fd = -1,
	};
	return 0;
}

static int start_background(const struct run_request *req, struct run_outcome *o,
                            const struct spawn_request *sr)
{
	struct sluice_error err = { 0 };
	int r = outcome_jobs_dir(o, &err);
	if (r < 0)
		return fail(o, ERROR_KIND_COMMAND_FAILED, "the jobs directory: %s: %s", err.detail,
		            strerror(-r));
	uint64_t timeout = req->has_timeout ? req->timeout_ms : o->settings.background_timeout_ms;
	r = jobs_start(o->jobs_dir, sr, timeout, o->settings.kill_grace_ms, &o->job, &err);
	if (r < 0)
		return fail(o, ERROR_KIND_COMMAND_FAILED, "%s: %s", err.detail, strerror(-r));
	o->tmpdir_handed = true;
	o->result.ran = true;
	o->result.pid = o->job.pid;
	o->result.job_id = o->job.id;
	o->result.output_file = o->job.output_file;
	return 0;
}

static int spill_open(void *userdata, char **ret_path)
{
	struct run_outcome *o = userdata;
	int r = outcome_jobs_dir(o, NULL);
	if (r < 0)
		return r;
	return jobs_spill_open(o->jobs_dir, ret_path);
}

/* The launcher's own failure: exit 125 before it reported, its message on
 * stderr ("sluice-launch: <step>: ..."). */
static void launcher_failed(struct run_outcome *o)
{
	size_t len;
	const char *text = outbuf_data(o->err, &len);
	/* the buffer is not NUL-terminated: the first line ends at '\n' or len */
	const char *nl = len > 0 ? memchr(text, '\n', len) : NULL;
	_cleanup_free_ char *line = strndup(text, nl ? (size_t)(nl - text) : len);
	const char *msg =
	        line && line[0] ? line : "sluice-launch failed before running the command";
	if (strncmp(msg, "sluice-launch: " LAUNCH_STEP_FEATURES ": ",
	            strlen("sluice-launch: " LAUNCH_STEP_FEATURES ": ")) == 0)
		fail(o, ERROR_KIND_SANDBOX_UNAVAILABLE, "%s", msg);
	else
		fail(o, ERROR_KIND_COMMAND_FAILED, "%s", msg);
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
	if (p->interrupted_by) {
		r->interrupted_by = p->interrupted_by;
		fail(o, ERROR_KIND_COMMAND_FAILED, "sluice run was interrupted by signal %d",
		     p->interrupted_by);
		take_killed_shell(r, p);
		return;
	}
	if (p->cancelled) {
		fail(o, ERROR_KIND_COMMAND_FAILED,
		     "the run was cancelled by its caller; the command's process tree was ended");
		take_killed_shell(r, p);
		return;
	}
	if (p->timed_out) {
		char limit[32];
		fail(o, ERROR_KIND_TIMEOUT, "the command timed out after %s (%s mode)",
		     format_duration_ms(r->timeout_ms, limit, sizeof(limit)),
		     run_mode_name(r->mode));
		r->timed_out = true;
		take_killed_shell(r, p);
		return;
	}
	bool reported = p->report_len > 0 && strstr(p->report, "\"error\"") == NULL;
	int status = p->status;
	if (!reported && WIFEXITED(status) && WEXITSTATUS(status) == 125) {
		launcher_failed(o);
		return;
	}
	if (p->report_len > 0 && !reported) {
		fail(o, ERROR_KIND_COMMAND_FAILED, "could not execute the shell '%s'",
		     o->settings.shell);
		return;
	}
	take_shell_status(r, status);
}

/* Pipes and the launcher, which becomes o->early_pid; with_command, it
 * waits for its command on o->command_fd. 0, or -errno with nothing left
 * open or running. */
static int launch(struct run_outcome *o, struct spawn_request *sr, bool with_command)
{
	int r = spawn_become_subreaper();
	_cleanup_close_ int out_w = -1, err_w = -1, rep_w = -1, cmd_r = -1;
	_cleanup_close_ int out_r = -1, err_r = -1, rep_r = -1, cmd_w = -1;
	int fds[2];
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (out_r = fds[0], out_w = fds[1], 0);
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (err_r = fds[0], err_w = fds[1], 0);
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (rep_r = fds[0], rep_w = fds[1], 0);
	if (r >= 0 && with_command)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (cmd_r = fds[0], cmd_w = fds[1], 0);
	/* Room for the whole message, so that sending it never waits for a
	 * slow launcher before the pump and its timeout start (best effort, as
	 * the pump widens its pipes). */
	if (r >= 0 && with_command)
		(void)fcntl(cmd_w, F_SETPIPE_SZ, LAUNCH_COMMAND_MESSAGE_MAX);
	sr->stdout_fd = out_w;
	sr->stderr_fd = err_w;
	sr->report_fd = rep_w;
	sr->command_fd = cmd_r;
	pid_t pid = -1;
	if (r >= 0)
		r = spawn_start(sr, &pid);
	if (r < 0)
		return r;
	/* Only the child keeps the write ends: EOF then means it is done. */
	o->early_pid = pid;
	o->out_r = TAKE_FD(out_r);
	o->err_r = TAKE_FD(err_r);
	o->rep_r = TAKE_FD(rep_r);
	o->command_fd = TAKE_FD(cmd_w);
	return 0;
}

/* A best-effort step failed: the run meets the failure again later and
 * reports it then, so it is not kept now. */
static void forget_failure(struct run_outcome *o)
{
	o->result.error = ERROR_KIND_NONE;
	o->result.error_message[0] = '\0';
}

/* Start the launcher waiting for its command (best effort). */
static int launch_waiting(struct run_outcome *o)
{
	struct spawn_request sr;
	if (prepare_spawn(o, &sr) < 0 || launch(o, &sr, true) < 0) {
		forget_failure(o);
		return -1;
	}
	return 0;
}

/* The launcher is exec'd and builds its sandbox while the plugins check
 * (called once their child has forked, so that the two overlap): only a
 * command they allow is then sent to it. When this fails, the launcher
 * starts after the decision as usual, and reports the failure then. */
static void launch_early(void *userdata)
{
	struct run_outcome *o = userdata;
	if (o->early_pid <= 0) /* else runner_prepare() started it */
		(void)launch_waiting(o);
}

/* A launcher started early for a command that will not run: closing its
 * pipe makes it exit without running anything; it is reaped here. */
static void withdraw_launcher(struct run_outcome *o)
{
	o->command_fd = safe_close(o->command_fd);
	o->out_r = safe_close(o->out_r);
	o->err_r = safe_close(o->err_r);
	o->rep_r = safe_close(o->rep_r);
	if (o->early_pid > 0)
		while (waitpid(o->early_pid, NULL, 0) < 0 && errno == EINTR)
			;
	o->early_pid = 0;
}

static int run_foreground(const struct runner_options *opt, struct run_outcome *o,
                          struct spawn_request *sr)
{
	const struct run_settings *s = &o->settings;
	o->output = outbuf_new(s->output_cap, s->output_head, s->output_tail);
	o->out = outbuf_new(s->output_cap, s->output_head, s->output_tail);
	o->err = outbuf_new(s->output_cap, s->output_head, s->output_tail);
	if (!o->output || !o->out || !o->err)
		return fail(o, ERROR_KIND_CONFIG_ERROR,
		            "the output caps do not fit: head + tail must not exceed the cap");
	o->result.output = o->output;
	o->result.out = o->out;
	o->result.err = o->err;

	/* Signals are blocked before the command can start, so that nothing it
	 * starts outlives an interrupted broker. */
	int sigfd = pump_block_signals();
	int r = sigfd;
	if (r >= 0 && o->early_pid <= 0)
		r = launch(o, sr, false);
	if (r < 0) {
		safe_close(sigfd);
		return fail(o, ERROR_KIND_COMMAND_FAILED, "starting '%s': %s", o->launcher,
		            strerror(-r));
	}
	pid_t pid = o->early_pid;
	o->early_pid = 0; /* the pump owns it now */
	uint64_t start = monotonic_ms();
	if (o->command_fd >= 0) {
		/* -EPIPE: the launcher is gone; its status and stderr say why */
		(void)spawn_send_command(o->command_fd, o->workdir, o->decision.command);
		o->command_fd = -1;
	}
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
	o->pump = (struct pump){
		.out_fd = TAKE_FD(o->out_r),
		.err_fd = TAKE_FD(o->err_r),
		.report_fd = TAKE_FD(o->rep_r),
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
		.progress = opt->progress,
		.progress_interval_ms = opt->progress_interval_ms,
		.progress_userdata = opt->progress_userdata,
	};
	r = pump_run(&o->pump);
	safe_close(sigfd);
	if (r < 0)
		return fail(o, ERROR_KIND_COMMAND_FAILED, "watching the command: %s", strerror(-r));
	evaluate(o);
	return 0;
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
	return fail(o, ERROR_KIND_COMMAND_FAILED,
	            "the run was cancelled by its caller before it started");
}

static int execute(const struct run_request *req, const struct runner_options *opt,
                   struct run_outcome *o)
{
	struct spawn_request sr;
	if (apply_limits(req, opt, o) < 0 || resolve_directory(req, opt, o) < 0)
		return -1;
	struct decide_overlap overlap = { .fn = launch_early, .userdata = o };
	bool foreground = req->mode != RUN_MODE_BACKGROUND;
	if (decide(req, opt, foreground ? &overlap : NULL, o) < 0 || check_cancelled(opt, o) < 0 ||
	    prepare_spawn(o, &sr) < 0) {
		withdraw_launcher(o);
		return -1;
	}
	if (req->mode == RUN_MODE_BACKGROUND) {
		withdraw_launcher(o); /* a prepared one: a job starts its own */
		return start_background(req, o, &sr);
	}
	return run_foreground(opt, o, &sr);
}

/* One audit line per request, whatever happened to it. A line that cannot
 * be written is reported; the command has already run. */
static void audit(const struct run_request *req, const struct runner_options *opt,
                  struct run_outcome *o)
{
	if (!opt->context)
		return;
	const struct run_result *r = &o->result;
	struct audit_outcome outcome = {
		.error_kind = r->error != ERROR_KIND_NONE ? error_kind_name(r->error) : NULL,
		.exit_code = r->has_exit_code ? r->exit_code : -1,
		.signal = r->signal,
		.duration_ms = r->duration_ms,
	};
	struct sluice_error err = { 0 };
	int ret = broker_context_audit(opt->context, req, o->workdir,
	                               o->decision.command ? &o->decision : NULL, &outcome, &err);
	if (ret < 0)
		o->result.audit_failed = true;
}

/* Idle time before a request: the stack pages a run uses are faulted in
 * now (a fresh fork copies each on its first write), not while it waits. */
static void prefault_stack(void)
{
	volatile char pages[128 * 1024];
	for (size_t i = 0; i < sizeof(pages); i += 4096)
		pages[i] = 0;
}

int runner_prepare(const struct runner_options *opt, struct run_outcome *o)
{
	/* The policy child first: it must not inherit the launcher's pipes. */
	broker_context_prepare(opt->context);
	prefault_stack();
	struct run_request none = { .mode = RUN_MODE_DEFAULT };
	if (resolve_directory(&none, opt, o) < 0) {
		forget_failure(o);
		return -1;
	}
	return launch_waiting(o);
}

int runner_execute(const struct run_request *req, const struct runner_options *opt,
                   struct run_outcome *o)
{
	(void)execute(req, opt, o);
	audit(req, opt, o);
	return o->result.error == ERROR_KIND_NONE ? 0 : -1;
}
