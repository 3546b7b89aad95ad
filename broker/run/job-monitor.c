/* SPDX-License-Identifier: MIT */
/*
 * The monitor of a background job. Forked by jobs_start(), it leaves its
 * session, becomes a child subreaper and starts the command; because every
 * orphan of the command is re-parented to it, "no child left" (ECHILD)
 * means the job's last process is gone. It alone writes the job's files,
 * with O_EXCL/rename so readers never see half a file, and the end of the
 * job's audit line. The command's stdout and stderr are a pipe, which a
 * thread of the monitor reads into the output file up to its cap
 * (job-output.c), to its end before the end lines. It holds the egress
 * proxy's audit channel, which the command never does (the launcher
 * closes it before anything of the command's runs), and reads it once the
 * proxy is gone with the rest.
 * Not for: starting it and reading what it wrote (jobs.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/close_range.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "launch-spec.h"
#include "monotonic.h"
#include "parse-number.h"
#include "core/error-kind.h"
#include "run/egress-log.h"
#include "run/job-files.h"
#include "run/job-monitor.h"
#include "run/job-output.h"
#include "run/jobs.h"
#include "run/launch-report.h"
#include "run/protect-folders.h"
#include "run/protect-watch.h"
#include "run/result.h"
#include "run/run-tmpdir.h"
#include "run/tool-caches.h"
#include "run/workspace-network.h"
#include "strv.h"

/* The completion line and the status file. */
struct job_end {
	enum job_state state;
	int exit_code, signal;
	uint64_t timeout_ms;
	bool protected_made; /* killed: it made a protected file while it ran */
};

/* How often a job's workspace is looked at for a protected file it made
 * (protect-watch.h) while it runs. A job outlives the check at its end
 * while the user's own tools run (lefthook on a git commit, an agent's
 * start reading .mcp.json); one it made is renamed at the next look, and
 * the job ended then, since one that made it again at once would keep it
 * there nearly always. */
#define PROTECT_LOOK_MS 200

/* The start of the command, as the monitor knows it. */
struct monitor_start {
	int log_fd;        /* the job's output file, or -1 */
	int egress_audit;  /* the egress proxy's audit channel (an allowlist), or -1 */
	uint64_t start_ms; /* monotonic, when its launcher was started */
	pid_t pid;         /* the launcher, then the shell; or -1 */
	struct protect_watch watch;
	char report[JOB_REPORT_MAX]; /* the launcher's report lines */
	struct launch_failure failure;
	/* the command's stdout and stderr, a pipe read into log_fd */
	struct job_output output;
};

/* What the checks after the job found (any may be NULL): the lines a
 * model reads of a foreground run; and where its output was cut. */
static void write_notes(int log_fd, const struct job_output *output,
                        const struct protect_watch *watch, const struct git_sweep *sweep)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	if (output)
		job_output_write_note(output, f);
	protect_watch_write_text(watch, f);
	git_sweep_write_text(sweep, f);
	if (fclose(f) == 0 && len > 0)
		(void)write_full(log_fd, text, len);
	free(text);
}

/* How much of the end of a job's output is looked at for a denial. */
#define JOB_DENIAL_WINDOW (64 * 1024)

/* A job that did not complete, whose output (its last JOB_DENIAL_WINDOW
 * bytes, as far as size) looks like the sandbox of mode refused something:
 * the note a foreground run's text has, after the completion line, so
 * that a job that said "started" and then died on "listen EACCES" says
 * why to whoever reads its output. */
static void write_denial_note(int log_fd, off_t size, enum sandbox_mode mode)
{
	if (!sandbox_mode_forbids(mode) || size <= 0)
		return;
	size_t n = size > JOB_DENIAL_WINDOW ? JOB_DENIAL_WINDOW : (size_t)size;
	_cleanup_free_ char *tail = malloc(n);
	ssize_t got = tail ? pread(log_fd, tail, n, size - (off_t)n) : -1;
	if (got <= 0 || !result_looks_like_denial(tail, (size_t)got))
		return;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	(void)result_write_denial_note(f, mode);
	if (fclose(f) == 0 && len > 0)
		(void)write_full(log_fd, text, len);
	free(text);
}

/* The completion line of a job that ended as e says, into line. */
static void format_end_line(const char *id, const struct job_end *e, char *line, size_t size)
{
	char limit[32];
	switch (e->state) {
	case JOB_COMPLETED:
		snprintf(line, size, "\n[sluice: job %s completed]\n", id);
		break;
	case JOB_FAILED:
		snprintf(line, size, "\n[sluice: job %s failed with exit code %d]\n", id,
		         e->exit_code);
		break;
	case JOB_SIGNALLED:
		snprintf(line, size, "\n[sluice: job %s killed by signal %d (SIG%s)]\n", id,
		         e->signal, sigabbrev_np(e->signal) ? sigabbrev_np(e->signal) : "?");
		break;
	case JOB_TIMED_OUT:
		snprintf(line, size,
		         "\n[sluice: job %s timed out after %s; it and everything it started were "
		         "killed]\n",
		         id, format_duration_ms(e->timeout_ms, limit, sizeof(limit)));
		break;
	default:
		snprintf(
		        line, size,
		        e->protected_made
		                ? "\n[sluice: job %s ended by sluice, with everything it started: it "
		                  "made a protected file while it ran (above)]\n"
		                : "\n[sluice: job %s killed by sluice kill, with everything it "
		                  "started]\n",
		        id);
		break;
	}
}

/* ID.status: how it ended, how much it wrote and whether the file holds
 * all of it, what the sweep and the proxy recorded. */
static void write_status(const char *dir, const char *id, const struct job_end *e,
                         const struct job_output *output, const struct git_sweep *sweep,
                         const struct egress_log *network)
{
	json_t *st = json_pack(
	        "{s:s, s:o, s:o, s:I, s:b, s:I, s:I}", "status", job_state_name(e->state),
	        "exitCode",
	        e->state == JOB_COMPLETED || e->state == JOB_FAILED ? json_integer(e->exit_code)
	                                                            : json_null(),
	        "signal", e->signal ? json_integer(e->signal) : json_null(), "ended",
	        (json_int_t)job_files_wall_ms(), "truncated", job_output_truncated(output),
	        "outputBytes", (json_int_t)output->produced, "outputFileCap",
	        (json_int_t)output->cap);
	if (st && sweep)
		json_object_set_new(st, "gitSweep", git_sweep_to_json(sweep));
	if (st && network)
		egress_log_add_keys(st, network);
	if (st)
		(void)job_files_write_json(dir, id, ".status", st);
	json_decref(st);
}

/* The job's end, after its output (read to its end): where the output was
 * cut and the protected files renamed, the completion line, a denial
 * note, the sweep's; then its status. */
static void job_finish(const char *dir, const char *id, const struct monitor_start *ms,
                       const struct job_end *e, const struct git_sweep *sweep,
                       const struct egress_log *network, enum sandbox_mode mode)
{
	char line[256];
	format_end_line(id, e, line, sizeof(line));
	/* Start on a line of its own, without an empty line before it. */
	struct stat sb;
	off_t size = fstat(ms->log_fd, &sb) == 0 ? sb.st_size : 0;
	char last = '\n';
	if (size > 0)
		(void)pread(ms->log_fd, &last, 1, size - 1);
	if (last != '\n')
		(void)write_full(ms->log_fd, "\n", 1);
	/* the cut and the protected files renamed before the completion line,
	 * the sweep after it */
	write_notes(ms->log_fd, &ms->output, &ms->watch, NULL);
	(void)write_full(ms->log_fd, line + 1, strlen(line + 1));
	if (e->state != JOB_COMPLETED)
		write_denial_note(ms->log_fd, size, mode);
	write_notes(ms->log_fd, NULL, NULL, sweep);
	write_status(dir, id, e, &ms->output, sweep, network);
}

/* SIGTERM to the tree, the grace period, then SIGKILL until nothing lives. */
static void monitor_kill_tree(pid_t pid, uint64_t grace_ms, const sigset_t *set, int *status,
                              bool *reaped)
{
	(void)spawn_tree_signal(getpid(), pid, SIGTERM);
	uint64_t deadline = monotonic_ms() + grace_ms;
	for (;;) {
		if (!spawn_reap(pid, status, reaped))
			break;
		uint64_t now = monotonic_ms();
		if (now >= deadline)
			break;
		uint64_t wait = deadline - now < 20 ? deadline - now : 20;
		struct timespec ts = { 0, (long)wait * 1000000 };
		siginfo_t si;
		(void)sigtimedwait(set, &si, &ts);
	}
	(void)spawn_tree_kill(getpid(), pid, pid, status, reaped, 2000);
}

/* Read the launcher's report lines from fd until end of file (its exec
 * closed it, or it ended) into buf (NUL-terminated; what does not fit is
 * read and dropped), for at most wait_ms. -ETIMEDOUT when it did not end. */
static int read_launch_report(int fd, uint64_t wait_ms, char *buf, size_t size)
{
	size_t len = 0;
	uint64_t deadline = monotonic_ms() + wait_ms;
	buf[0] = '\0';
	for (;;) {
		uint64_t now = monotonic_ms();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = now < deadline ? poll(&p, 1, (int)(deadline - now)) : 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return neg_errno();
		if (n == 0)
			return -ETIMEDOUT;
		char drop[512];
		bool keep = len + 1 < size;
		ssize_t got =
		        read(fd, keep ? buf + len : drop, keep ? size - 1 - len : sizeof(drop));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? neg_errno() : 0;
		if (keep) {
			len += (size_t)got;
			buf[len] = '\0';
		}
	}
}

/* Whether the job's launcher started the command, as a foreground run
 * knows it (launch_report_check_start()): its report read from rep_fd into
 * report. 0 when it did; else -EPROTO (-ETIMEDOUT when nothing ended the
 * report in JOB_START_WAIT_MS) and *failure says why. */
static int await_launch(int rep_fd, const struct spawn_request *req, char *report, size_t size,
                        struct launch_failure *failure)
{
	int r = read_launch_report(rep_fd, JOB_START_WAIT_MS, report, size);
	if (r < 0) {
		char limit[32];
		*failure = (struct launch_failure){ .failed = true };
		snprintf(failure->message, sizeof(failure->message),
		         "the launcher '%s' did not report starting the command within %s: %s",
		         req->launcher, format_duration_ms(JOB_START_WAIT_MS, limit, sizeof(limit)),
		         strerror(-r));
		return r;
	}
	if (launch_report_check_start(report, strlen(report),
	                              sandbox_mode_name(req->settings->sandbox_mode), req->launcher,
	                              failure) < 0)
		return -EPROTO;
	return 0;
}

/* A launcher that exited LAUNCH_EXIT_FAILURE without an error line (one
 * started without --report-fd's support, a step before it): the first line
 * of its stderr, which is the job's output, is what it said. */
static void take_launcher_stderr(int log_fd, int status, const char *report,
                                 struct launch_failure *failure)
{
	char line[sizeof(failure->message)];
	if (report[0] || !WIFEXITED(status) || WEXITSTATUS(status) != LAUNCH_EXIT_FAILURE)
		return;
	ssize_t n = log_fd >= 0 ? pread(log_fd, line, sizeof(line) - 1, 0) : -1;
	if (n <= 0)
		return;
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	if (line[0])
		snprintf(failure->message, sizeof(failure->message), "%s", line);
}

/* Leave the caller: its signals blocked into set (waited for instead),
 * a session of its own, none of its descriptors but report_fd, stdio on
 * /dev/null. */
static void monitor_detach(int report_fd, sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
	(void)sigprocmask(SIG_BLOCK, set, NULL);
	(void)setsid();
	/* Hold nothing of the caller's: a pipe kept open here would make
	 * whoever reads sluice's output wait for the job. */
	if (report_fd > 3)
		(void)close_range(3, (unsigned)report_fd - 1, 0);
	(void)close_range((unsigned)report_fd + 1, ~0U, 0);
	/* The caller's syslog connection went with its descriptors: forgotten
	 * now, before anything here is opened, so that glibc's reconnection
	 * after a failed send never closes a number that names another file
	 * by then (the job's audit line may go to syslog). */
	closelog();
	int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd >= 0) {
		(void)dup2(null_fd, STDIN_FILENO);
		(void)dup2(null_fd, STDOUT_FILENO);
		(void)dup2(null_fd, STDERR_FILENO);
	}
}

/* Start req's launcher with a pipe as its stdout and stderr, read into
 * the job's output file from then on (ms->output), and wait for its
 * report (ms->pid, ms->report, ms->failure). */
static int monitor_launch(const struct spawn_request *req, struct monitor_start *ms)
{
	/* The launcher's report, as a foreground run has it: the job has
	 * started only once it says so. */
	int rep[2] = { -1, -1 };
	int r = pipe2(rep, O_CLOEXEC) < 0 ? neg_errno() : 0;
	/* Never the file itself: the command would reach the file, outside
	 * the workspace, through /proc/self/fd/1 (its mode, times, xattrs),
	 * and write it past any cap. */
	int out[2] = { -1, -1 };
	if (r >= 0)
		r = job_output_pipe(out);
	/* made here, so that only this process and the launcher (which hands
	 * it to the proxy alone) ever hold it */
	if (r >= 0 && spawn_wants_egress_audit(req->settings))
		r = ms->egress_audit = egress_log_channel_open();
	struct spawn_request child = *req;
	child.stdout_fd = out[1];
	child.stderr_fd = out[1];
	child.report_fd = rep[1];
	child.egress_audit_fd = ms->egress_audit;
	ms->start_ms = monotonic_ms();
	/* the job lives until its last process is gone, in its namespace too */
	child.wait_all = true;
	child.git_read_only = true;
	if (r >= 0)
		r = spawn_start(&child, &ms->pid);
	/* only the launcher's copies are left: end of file once it execs or
	 * ends (the report), once the job's last process is gone (the output) */
	safe_close(rep[1]);
	safe_close(out[1]);
	if (r >= 0)
		r = job_output_start(&ms->output, out[0], ms->log_fd,
		                     req->settings->output_file_cap,
		                     req->settings->drain_window_ms);
	else
		safe_close(out[0]);
	if (r >= 0)
		r = await_launch(rep[0], req, ms->report, sizeof(ms->report), &ms->failure);
	safe_close(rep[0]);
	return r;
}

/* ID.json: what the job runs, where, and who watches it. */
static int write_meta(const char *dir, const char *id, const struct spawn_request *req, pid_t pid,
                      const char *out_path)
{
	json_t *meta = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:I, s:I, s:s}", "id", id,
	                         "command", req->command, "workspace", req->workspace, "directory",
	                         req->chdir, "pid", (int)pid, "monitor", (int)getpid(),
	                         "monitorStart", (json_int_t)job_files_proc_start_time(getpid()),
	                         "started", (json_int_t)job_files_wall_ms(), "output", out_path);
	int r = meta ? job_files_write_json(dir, id, ".json", meta) : -ENOMEM;
	json_decref(meta);
	return r;
}

/* Everything before the command is the job's: its TMPDIR and network
 * held, the subreaper, the output file, the protected paths' watch, the
 * launcher started and its report read, ID.json written. On a failure
 * nothing of it is left running, and no job is listed. */
static int monitor_start_command(const char *dir, const char *id, const struct spawn_request *req,
                                 const char *out_path, struct monitor_start *ms)
{
	/* The TMPDIR is this process's now: held (until it exits) before the
	 * caller, which holds it too, hears of the job and lets go. */
	int hold = req->tmpdir ? run_tmpdir_hold(req->tmpdir) : 0;
	/* So is the workspace's network (its launcher holds it too, once it
	 * has joined): a job is one of its users until its last process. */
	if (req->network_holder && req->network_holder[0] == '/')
		(void)workspace_network_attach(req->network_holder);
	/* and its tool caches, which no tidy removes while it runs */
	if (req->tool_cache)
		(void)tool_caches_hold(req->tool_cache);
	int r = hold < 0 ? hold : spawn_become_subreaper();
	if (r >= 0)
		r = out_path ? 0 : -ENOMEM;
	if (r >= 0) {
		ms->log_fd = open(out_path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
		if (ms->log_fd < 0)
			r = neg_errno();
	}
	/* before the command can run; a watch that cannot start leaves the
	 * launcher's binds alone to hold */
	(void)protect_watch_begin(&ms->watch, req->workspace,
	                          req->settings); /* a failure is said */
	if (r >= 0)
		r = monitor_launch(req, ms);
	if (r >= 0)
		r = write_meta(dir, id, req, ms->pid, out_path);
	if (r < 0) {
		/* A launcher that did not say it started the command may run it
		 * bare: nothing of it is left, and no job is listed. */
		int status = 0;
		if (ms->pid > 0)
			(void)spawn_tree_kill(getpid(), ms->pid, ms->pid, &status, &(bool){ false },
			                      2000);
		/* what it wrote is in the file once the pipe is read to its end */
		job_output_finish(&ms->output);
		if (ms->failure.failed)
			take_launcher_stderr(ms->log_fd, status, ms->report, &ms->failure);
		if (ms->log_fd >= 0)
			(void)unlink(out_path);
	}
	return r;
}

/* Tell jobs_start() how the start went (r: 0, or -errno), then close
 * report_fd. */
static void monitor_report(int report_fd, int r, const struct monitor_start *ms)
{
	const struct launch_failure *failure = &ms->failure;
	struct job_monitor_msg msg = {
		.result = r < 0 ? r : (int32_t)ms->pid,
		.launch = !failure->failed       ? JOB_LAUNCH_REPORTED
		          : failure->unavailable ? JOB_LAUNCH_UNAVAILABLE
		                                 : JOB_LAUNCH_FAILED,
	};
	(void)write_full(report_fd, &msg, sizeof(msg));
	if (failure->failed) {
		(void)write_full(report_fd, failure->message, strlen(failure->message));
		(void)write_full(report_fd, "\n", 1);
	}
	(void)write_full(report_fd, ms->report, strlen(ms->report));
	close(report_fd);
}

/* Wait until the last process of the job is gone (the shell pid's status
 * kept), the timeout ends it, a signal in set asks for its end, or it
 * makes a protected file (watch, when active, looked at every
 * PROTECT_LOOK_MS): how it ended. */
static struct job_end monitor_wait(pid_t pid, uint64_t timeout_ms, uint64_t grace_ms,
                                   const sigset_t *set, struct protect_watch *watch)
{
	uint64_t deadline = timeout_ms ? monotonic_ms() + timeout_ms : 0;
	bool looking = watch && watch->active;
	struct job_end end = { .state = JOB_RUNNING, .timeout_ms = timeout_ms };
	int status = 0;
	bool reaped = false;
	for (;;) {
		int st;
		pid_t w;
		while ((w = waitpid(-1, &st, WNOHANG)) > 0)
			if (w == pid) {
				status = st;
				reaped = true;
			}
		if (w < 0 && errno == ECHILD)
			break; /* the last process of the job is gone */
		siginfo_t si;
		int sig;
		if (deadline || looking) {
			uint64_t now = monotonic_ms();
			uint64_t left = !deadline        ? PROTECT_LOOK_MS
			                : deadline > now ? deadline - now
			                                 : 0;
			/* the deadline first when it is nearer than the next look */
			bool look = looking && (!deadline || left > PROTECT_LOOK_MS);
			if (look)
				left = PROTECT_LOOK_MS;
			struct timespec ts = { (time_t)(left / 1000),
				               (long)(left % 1000) * 1000000 };
			sig = sigtimedwait(set, &si, &ts);
			if (sig < 0 && errno == EAGAIN && look) {
				if (protect_watch_end(watch) <= 0)
					continue;
				end.state = JOB_KILLED;
				end.protected_made = true;
				monitor_kill_tree(pid, grace_ms, set, &status, &reaped);
				break;
			}
			if (sig < 0 && errno == EAGAIN) {
				end.state = JOB_TIMED_OUT;
				monitor_kill_tree(pid, grace_ms, set, &status, &reaped);
				break;
			}
		} else {
			sig = sigwaitinfo(set, &si);
		}
		if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP) {
			end.state = JOB_KILLED;
			monitor_kill_tree(pid, grace_ms, set, &status, &reaped);
			break;
		}
	}
	if (end.state == JOB_RUNNING) {
		if (reaped && WIFSIGNALED(status)) {
			end.state = JOB_SIGNALLED;
			end.signal = WTERMSIG(status);
		} else {
			end.exit_code = reaped ? WEXITSTATUS(status) : 0;
			end.state = end.exit_code == 0 ? JOB_COMPLETED : JOB_FAILED;
		}
	}
	return end;
}

/* Once every process of the job is gone, the proxy too: its records, or
 * NULL when it had none (no allowlist) or the channel cannot be read (the
 * key is then left out rather than say "no connection"). */
static struct egress_log *read_network(const struct spawn_request *req, int egress_audit)
{
	struct egress_log *log = NULL;
	if (egress_audit < 0 || !spawn_wants_egress_audit(req->settings))
		return NULL;
	return egress_log_read(egress_audit, &log) == 0 ? log : NULL;
}

/* The end of the job's audit line: the same id as its start, how it
 * ended, what the sweep did, the proxy's records. A line that cannot be
 * written is lost: the job has run, and nobody is left to tell. */
static void write_audit_end(const struct job_audit *audit, const struct job_end *e,
                            uint64_t duration_ms, const struct git_sweep *sweep,
                            const struct egress_log *network)
{
	if (!audit)
		return;
	bool exited = e->state == JOB_COMPLETED || e->state == JOB_FAILED;
	struct audit_outcome outcome = {
		.start_id = audit->start_id,
		.error_kind =
		        e->state == JOB_TIMED_OUT ? error_kind_name(ERROR_KIND_TIMEOUT) : NULL,
		.exit_code = exited ? e->exit_code : -1,
		.signal = e->signal,
		.duration_ms = duration_ms,
		.swept = sweep ? sweep->n_found : 0,
		.quarantine = sweep ? sweep->quarantine : NULL,
	};
	_cleanup_(json_decrefp) json_t *keys = network ? json_object() : NULL;
	if (keys)
		egress_log_add_keys(keys, network);
	outcome.network = keys;
	struct sluice_error err = { 0 };
	(void)broker_context_audit(audit->context, audit->req, audit->workdir, audit->decision,
	                           &outcome, &err);
}

_Noreturn void job_monitor_run(const char *dir, const char *id, const struct spawn_request *req,
                               uint64_t timeout_ms, uint64_t grace_ms, struct git_sweep *sweep,
                               const struct job_audit *audit, int report_fd)
{
	sigset_t set;
	monitor_detach(report_fd, &set);
	/* the caller's log descriptor was closed with the rest */
	if (audit)
		broker_context_reopen_audit(audit->context);
	_cleanup_free_ char *out_path = jobs_output_path(dir, id);
	struct monitor_start ms = { .log_fd = -1, .egress_audit = -1, .pid = -1 };
	/* its repository is read-only (child.git_read_only), and so are the
	 * gitdirs of the nested ones in the work tree: what it planted there
	 * would act on the user's git status before the sweep at its end */
	_cleanup_strv_free_ char **nested = NULL;
	struct spawn_request job = *req;
	int r = 0;
	if (sweep && req->settings->sandbox_mode == SANDBOX_MODE_WORKSPACE_WRITE &&
	    !req->settings->git_writable)
		r = git_sweep_nested_gitdirs(sweep, &nested);
	job.read_only = nested;
	if (r < 0) {
		/* fail closed: a gitdir left off the list would be writable */
		ms.failure.failed = true;
		snprintf(ms.failure.message, sizeof(ms.failure.message),
		         "sluice: the gitdirs of the nested repositories could not all be kept "
		         "read-only for a background job (%s): run it in the foreground",
		         strerror(-r));
	} else {
		r = monitor_start_command(dir, id, &job, out_path, &ms);
	}
	monitor_report(report_fd, r, &ms);
	if (r < 0)
		_exit(1);

	struct job_end end = monitor_wait(ms.pid, timeout_ms, grace_ms, &set, &ms.watch);
	uint64_t duration_ms = monotonic_ms() - ms.start_ms;
	/* nothing of the job writes its pipe any more: its output is read to
	 * the end before anything is written after it */
	job_output_finish(&ms.output);
	/* every process of the job is gone (or killed), its proxy with them:
	 * nothing writes the channel any more */
	struct egress_log *network = read_network(req, ms.egress_audit);
	/* what failed is in watch and sweep, and said after the completion line */
	(void)protect_watch_end(&ms.watch);
	/* no child left: the job's last process is gone, nothing it started
	 * can plant anything after the sweep */
	if (sweep)
		(void)git_sweep_run(sweep, dir);
	/* a failure leaves them to the next run's tidy */
	(void)protect_folders_tidy(req->launcher, dir, req->workspace, req->settings);
	job_finish(dir, id, &ms, &end, sweep, network, req->settings->sandbox_mode);
	write_audit_end(audit, &end, duration_ms, sweep, network);
	egress_log_free(network);
	protect_watch_done(&ms.watch);
	if (req->tmpdir)
		(void)run_tmpdir_remove(req->tmpdir);
	_exit(0);
}
