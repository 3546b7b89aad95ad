/* SPDX-License-Identifier: MIT */
/*
 * Background jobs. The monitor is forked from the broker, leaves its
 * session, becomes a child subreaper and starts the command; because every
 * orphan of the command is re-parented to it, "no child left" (ECHILD) means
 * the job's last process is gone. Job files are written by the monitor only,
 * with O_EXCL/rename so readers never see half a file.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/close_range.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "run/jobs.h"
#include "run/launch-report.h"
#include "run/protect-watch.h"
#include "run/result.h"
#include "monotonic.h"
#include "run/run-tmpdir.h"
#include "run/tool-caches.h"
#include "run/workspace-network.h"
#include "parse-number.h"

#include "launch-spec.h"

static uint64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int jobs_private_dir(const char *path, struct sluice_error *reterr)
{
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return sluice_error_set(reterr, neg_errno(), "creating '%s'", path);
	struct stat st;
	if (lstat(path, &st) < 0)
		return sluice_error_set(reterr, neg_errno(), "'%s'", path);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		return sluice_error_set(reterr, -EPERM,
		                        "'%s' is not a private directory of this user (0700)",
		                        path);
	return 0;
}

int jobs_dir(const struct run_settings *s, char **ret, struct sluice_error *reterr)
{
	_cleanup_free_ char *base = NULL, *dir = NULL;
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int r;
	if (s->jobs_dir && s->jobs_dir[0]) {
		dir = strdup(s->jobs_dir);
		if (!dir)
			return -ENOMEM;
	} else {
		if (xdg && xdg[0] == '/')
			r = asprintf(&base, "%s/sluice", xdg);
		else
			r = asprintf(&base, "/tmp/sluice-%u", (unsigned)geteuid());
		if (r < 0 || asprintf(&dir, "%s/jobs", base) < 0)
			return -ENOMEM;
		r = jobs_private_dir(base, reterr);
		if (r < 0)
			return r;
	}
	r = jobs_private_dir(dir, reterr);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(dir);
	return 0;
}

int jobs_spill_open(const char *dir, char **ret_path)
{
	_cleanup_free_ char *path = NULL;
	if (asprintf(&path, "%s/run-%llu-%d.out", dir, (unsigned long long)wall_ms(),
	             (int)getpid()) < 0)
		return -ENOMEM;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return neg_errno();
	*ret_path = TAKE_PTR(path);
	return fd;
}

static bool valid_id(const char *id)
{
	size_t n = strlen(id);
	return n > 0 && n < JOB_ID_MAX && strspn(id, "0123456789-") == n;
}

static char *job_path(const char *dir, const char *id, const char *suffix)
{
	char *p = NULL;
	return asprintf(&p, "%s/%s%s", dir, id, suffix) < 0 ? NULL : p;
}

char *jobs_output_path(const char *dir, const char *id)
{
	return job_path(dir, id, ".out");
}

/* Write obj to dir/id+suffix through a temporary file and rename. */
static int write_json_file(const char *dir, const char *id, const char *suffix, json_t *obj)
{
	_cleanup_free_ char *path = job_path(dir, id, suffix);
	_cleanup_free_ char *tmp = job_path(dir, id, ".tmp");
	_cleanup_free_ char *text = json_dumps(obj, JSON_COMPACT);
	if (!path || !tmp || !text)
		return -ENOMEM;
	_cleanup_close_ int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return neg_errno();
	int r = write_full(fd, text, strlen(text));
	if (r < 0)
		return r;
	return rename(tmp, path) < 0 ? neg_errno() : 0;
}

/* Field 22 of /proc/PID/stat: the start time, to tell a recycled pid. */
static uint64_t proc_start_time(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* The completion line and the status file. */
struct job_end {
	enum job_state state;
	int exit_code, signal;
	uint64_t timeout_ms;
};

/* What the checks after the job found (either may be NULL): the lines a
 * model reads of a foreground run. */
static void write_notes(int log_fd, const struct protect_watch *watch,
                        const struct git_sweep *sweep)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
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

static void job_finish(const char *dir, const char *id, int log_fd, const struct job_end *e,
                       const struct git_sweep *sweep, const struct protect_watch *watch,
                       enum sandbox_mode mode)
{
	char line[256], limit[32];
	switch (e->state) {
	case JOB_COMPLETED:
		snprintf(line, sizeof(line), "\n[sluice: job %s completed]\n", id);
		break;
	case JOB_FAILED:
		snprintf(line, sizeof(line), "\n[sluice: job %s failed with exit code %d]\n", id,
		         e->exit_code);
		break;
	case JOB_SIGNALLED:
		snprintf(line, sizeof(line), "\n[sluice: job %s killed by signal %d (SIG%s)]\n", id,
		         e->signal, sigabbrev_np(e->signal) ? sigabbrev_np(e->signal) : "?");
		break;
	case JOB_TIMED_OUT:
		snprintf(line, sizeof(line),
		         "\n[sluice: job %s timed out after %s; it and everything it started were "
		         "killed]\n",
		         id, format_duration_ms(e->timeout_ms, limit, sizeof(limit)));
		break;
	default:
		snprintf(line, sizeof(line),
		         "\n[sluice: job %s killed by sluice kill, with everything it started]\n",
		         id);
		break;
	}
	/* Start on a line of its own, without an empty line before it. */
	struct stat sb;
	off_t size = fstat(log_fd, &sb) == 0 ? sb.st_size : 0;
	char last = '\n';
	if (size > 0)
		(void)pread(log_fd, &last, 1, size - 1);
	if (last != '\n')
		(void)write_full(log_fd, "\n", 1);
	/* the protected files renamed before the completion line, the sweep
	 * after it */
	write_notes(log_fd, watch, NULL);
	(void)write_full(log_fd, line + 1, strlen(line + 1));
	if (e->state != JOB_COMPLETED)
		write_denial_note(log_fd, size, mode);
	write_notes(log_fd, NULL, sweep);
	json_t *st = json_pack(
	        "{s:s, s:o, s:o, s:I}", "status", job_state_name(e->state), "exitCode",
	        e->state == JOB_COMPLETED || e->state == JOB_FAILED ? json_integer(e->exit_code)
	                                                            : json_null(),
	        "signal", e->signal ? json_integer(e->signal) : json_null(), "ended",
	        (json_int_t)wall_ms());
	if (st && sweep)
		json_object_set_new(st, "gitSweep", git_sweep_to_json(sweep));
	if (st)
		(void)write_json_file(dir, id, ".status", st);
	json_decref(st);
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

/* What the monitor tells the caller once its launcher has started the
 * command, or has not; then text up to end of file: the launcher's report
 * lines, after a line with the whole message when it did not start. */
struct monitor_msg {
	int32_t result; /* the shell's pid, or -errno */
	int32_t launch; /* enum job_launch */
};

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

/* The monitor: never returns. Reports the pid (or -errno) on report_fd. */
static void monitor_main(const char *dir, const char *id, const struct spawn_request *req,
                         uint64_t timeout_ms, uint64_t grace_ms, struct git_sweep *sweep,
                         int report_fd)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	(void)sigprocmask(SIG_BLOCK, &set, NULL);
	(void)setsid();
	/* Hold nothing of the caller's: a pipe kept open here would make
	 * whoever reads sluice's output wait for the job. */
	if (report_fd > 3)
		(void)close_range(3, (unsigned)report_fd - 1, 0);
	(void)close_range((unsigned)report_fd + 1, ~0U, 0);
	int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd >= 0) {
		(void)dup2(null_fd, STDIN_FILENO);
		(void)dup2(null_fd, STDOUT_FILENO);
		(void)dup2(null_fd, STDERR_FILENO);
	}
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
	_cleanup_free_ char *out_path = jobs_output_path(dir, id);
	int log_fd = -1;
	if (r >= 0)
		r = out_path ? 0 : -ENOMEM;
	if (r >= 0) {
		log_fd = open(out_path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
		if (log_fd < 0)
			r = neg_errno();
	}
	/* before the command can run; a watch that cannot start leaves the
	 * launcher's binds alone to hold */
	struct protect_watch watch;
	(void)protect_watch_begin(&watch, req->workspace, req->settings); /* a failure is said */
	/* The launcher's report, as a foreground run has it: the job has
	 * started only once it says so. */
	int rep[2] = { -1, -1 };
	if (r >= 0 && pipe2(rep, O_CLOEXEC) < 0)
		r = neg_errno();
	struct spawn_request child = *req;
	child.stdout_fd = log_fd;
	child.stderr_fd = log_fd;
	child.report_fd = rep[1];
	/* the job lives until its last process is gone, in its namespace too */
	child.wait_all = true;
	pid_t pid = -1;
	if (r >= 0)
		r = spawn_start(&child, &pid);
	/* only the launcher's copy is left: end of file once it execs or ends */
	safe_close(rep[1]);
	char report[JOB_REPORT_MAX];
	struct launch_failure failure = { 0 };
	report[0] = '\0';
	if (r >= 0)
		r = await_launch(rep[0], req, report, sizeof(report), &failure);
	safe_close(rep[0]);
	if (r >= 0) {
		json_t *meta =
		        json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:I, s:I, s:s}", "id", id,
		                  "command", req->command, "workspace", req->workspace, "directory",
		                  req->chdir, "pid", (int)pid, "monitor", (int)getpid(),
		                  "monitorStart", (json_int_t)proc_start_time(getpid()), "started",
		                  (json_int_t)wall_ms(), "output", out_path);
		r = meta ? write_json_file(dir, id, ".json", meta) : -ENOMEM;
		json_decref(meta);
	}
	if (r < 0) {
		/* A launcher that did not say it started the command may run it
		 * bare: nothing of it is left, and no job is listed. */
		int status = 0;
		if (pid > 0)
			(void)spawn_tree_kill(getpid(), pid, pid, &status, &(bool){ false }, 2000);
		if (failure.failed)
			take_launcher_stderr(log_fd, status, report, &failure);
		if (log_fd >= 0)
			(void)unlink(out_path);
	}
	struct monitor_msg msg = {
		.result = r < 0 ? r : (int32_t)pid,
		.launch = !failure.failed       ? JOB_LAUNCH_REPORTED
		          : failure.unavailable ? JOB_LAUNCH_UNAVAILABLE
		                                : JOB_LAUNCH_FAILED,
	};
	(void)write_full(report_fd, &msg, sizeof(msg));
	if (failure.failed) {
		(void)write_full(report_fd, failure.message, strlen(failure.message));
		(void)write_full(report_fd, "\n", 1);
	}
	(void)write_full(report_fd, report, strlen(report));
	close(report_fd);
	if (r < 0)
		_exit(1);

	uint64_t deadline = timeout_ms ? monotonic_ms() + timeout_ms : 0;
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
		if (deadline) {
			uint64_t now = monotonic_ms();
			uint64_t left = deadline > now ? deadline - now : 0;
			struct timespec ts = { (time_t)(left / 1000),
				               (long)(left % 1000) * 1000000 };
			sig = sigtimedwait(&set, &si, &ts);
			if (sig < 0 && errno == EAGAIN) {
				end.state = JOB_TIMED_OUT;
				monitor_kill_tree(pid, grace_ms, &set, &status, &reaped);
				break;
			}
		} else {
			sig = sigwaitinfo(&set, &si);
		}
		if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP) {
			end.state = JOB_KILLED;
			monitor_kill_tree(pid, grace_ms, &set, &status, &reaped);
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
	/* every process of the job is gone (or killed) */
	/* what failed is in watch and sweep, and said after the completion line */
	(void)protect_watch_end(&watch);
	/* no child left: the job's last process is gone, nothing it started
	 * can plant anything after the sweep */
	if (sweep)
		(void)git_sweep_run(sweep, dir);
	job_finish(dir, id, log_fd, &end, sweep, &watch, req->settings->sandbox_mode);
	protect_watch_done(&watch);
	if (req->tmpdir)
		(void)run_tmpdir_remove(req->tmpdir);
	_exit(0);
}

int jobs_start(const char *dir, const struct spawn_request *req, uint64_t timeout_ms,
               uint64_t kill_grace_ms, struct git_sweep *sweep, struct job_started *ret,
               struct sluice_error *reterr)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(ret->id, sizeof(ret->id), "%s-%d", stamp, (int)getpid());

	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return sluice_error_set(reterr, neg_errno(), "pipe");
	pid_t monitor = fork();
	if (monitor < 0) {
		int r = neg_errno();
		close(pipefd[0]);
		close(pipefd[1]);
		return sluice_error_set(reterr, r, "starting the job's monitor");
	}
	if (monitor == 0) {
		close(pipefd[0]);
		monitor_main(dir, ret->id, req, timeout_ms, kill_grace_ms, sweep, pipefd[1]);
	}
	close(pipefd[1]);
	struct monitor_msg msg = { 0 };
	/* the message line and the report after the header */
	char text[sizeof(((struct launch_failure *)NULL)->message) + JOB_REPORT_MAX];
	ssize_t n = read_full(pipefd[0], &msg, sizeof(msg));
	ssize_t len = n == (ssize_t)sizeof(msg) ? read_full(pipefd[0], text, sizeof(text) - 1) : 0;
	close(pipefd[0]);
	if (n != (ssize_t)sizeof(msg) || len < 0)
		return sluice_error_set(reterr, -EIO, "the job's monitor ended before the start");
	text[len] = '\0';
	char *report = text;
	ret->launch = msg.launch;
	if (msg.launch != JOB_LAUNCH_REPORTED) {
		report += strcspn(text, "\n");
		if (*report)
			*report++ = '\0';
	}
	size_t report_len = strnlen(report, sizeof(ret->report) - 1);
	memcpy(ret->report, report, report_len);
	ret->report[report_len] = '\0';
	if (msg.launch != JOB_LAUNCH_REPORTED)
		return sluice_error_set(reterr, msg.result < 0 ? msg.result : -EPROTO, "%s", text);
	if (msg.result < 0)
		return sluice_error_set(reterr, msg.result, "starting job %s", ret->id);
	ret->pid = (pid_t)msg.result;
	ret->output_file = jobs_output_path(dir, ret->id);
	return ret->output_file ? 0 : -ENOMEM;
}

const char *job_state_name(enum job_state s)
{
	static const char *const names[] = {
		[JOB_RUNNING] = "running",     [JOB_COMPLETED] = "completed",
		[JOB_FAILED] = "failed",       [JOB_SIGNALLED] = "signalled",
		[JOB_TIMED_OUT] = "timed_out", [JOB_KILLED] = "killed",
		[JOB_LOST] = "lost",
	};
	return (unsigned)s < ELEMENTSOF(names) ? names[s] : "lost";
}

static json_t *load_json(const char *dir, const char *id, const char *suffix)
{
	_cleanup_free_ char *path = job_path(dir, id, suffix);
	if (!path)
		return NULL;
	json_t *obj = json_load_file(path, 0, NULL);
	if (obj && !json_is_object(obj)) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

static enum job_state state_from_name(const char *name)
{
	for (int s = JOB_COMPLETED; s <= JOB_LOST; s++)
		if (strcmp(job_state_name((enum job_state)s), name) == 0)
			return (enum job_state)s;
	return JOB_LOST;
}

/* Whether the monitor recorded in meta is still that process. */
static bool monitor_alive(json_t *meta)
{
	pid_t monitor = (pid_t)json_integer_value(json_object_get(meta, "monitor"));
	uint64_t start = (uint64_t)json_integer_value(json_object_get(meta, "monitorStart"));
	return monitor > 0 && kill(monitor, 0) == 0 && proc_start_time(monitor) == start;
}

int jobs_read(const char *dir, const char *id, struct job_info *ret)
{
	if (!valid_id(id))
		return -EINVAL;
	json_t *meta = load_json(dir, id, ".json");
	if (!meta)
		return -ENOENT;
	*ret = (struct job_info){ 0 };
	snprintf(ret->id, sizeof(ret->id), "%s", id);
	const char *cmd = json_string_value(json_object_get(meta, "command"));
	int n = snprintf(ret->command, sizeof(ret->command), "%s", cmd ? cmd : "");
	if (n >= (int)sizeof(ret->command))
		memcpy(ret->command + sizeof(ret->command) - 4, "...", 4);
	/* a job from before the workspace was recorded: its directory */
	json_t *ws = json_object_get(meta, "workspace");
	const char *where = json_string_value(ws ? ws : json_object_get(meta, "directory"));
	snprintf(ret->workspace, sizeof(ret->workspace), "%s", where ? where : "");
	ret->pid = (pid_t)json_integer_value(json_object_get(meta, "pid"));
	ret->monitor = (pid_t)json_integer_value(json_object_get(meta, "monitor"));
	ret->started_ms = (uint64_t)json_integer_value(json_object_get(meta, "started"));
	json_t *st = load_json(dir, id, ".status");
	if (st) {
		const char *name = json_string_value(json_object_get(st, "status"));
		ret->state = state_from_name(name ? name : "");
		ret->exit_code = (int)json_integer_value(json_object_get(st, "exitCode"));
		ret->signal = (int)json_integer_value(json_object_get(st, "signal"));
		json_decref(st);
	} else {
		ret->state = monitor_alive(meta) ? JOB_RUNNING : JOB_LOST;
	}
	json_decref(meta);
	return 0;
}

int jobs_foreach(const char *dir, int (*fn)(const struct job_info *job, void *userdata),
                 void *userdata)
{
	DIR *d = opendir(dir);
	if (!d)
		return neg_errno();
	struct dirent *de;
	int r = 0;
	while (r >= 0 && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0 || len - 5 >= JOB_ID_MAX)
			continue;
		char id[JOB_ID_MAX];
		memcpy(id, de->d_name, len - 5);
		id[len - 5] = '\0';
		struct job_info job;
		if (jobs_read(dir, id, &job) < 0)
			continue;
		r = fn(&job, userdata);
	}
	closedir(d);
	return r;
}

int jobs_kill(const char *dir, const char *id, uint64_t wait_ms)
{
	if (!valid_id(id))
		return -EINVAL;
	json_t *meta = load_json(dir, id, ".json");
	if (!meta)
		return -ENOENT;
	_cleanup_free_ char *status_path = job_path(dir, id, ".status");
	bool alive = monitor_alive(meta) && status_path && access(status_path, F_OK) < 0;
	pid_t monitor = (pid_t)json_integer_value(json_object_get(meta, "monitor"));
	json_decref(meta);
	if (!alive)
		return -ESRCH;
	_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, monitor, 0);
	if (pidfd < 0)
		return neg_errno();
	if (syscall(SYS_pidfd_send_signal, pidfd, SIGTERM, NULL, 0) < 0)
		return neg_errno();
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	int n = poll(&pfd, 1, (int)(wait_ms > 600000 ? 600000 : wait_ms));
	if (n < 0)
		return neg_errno();
	return n == 0 ? -ETIMEDOUT : 0;
}

static void remove_job(const char *dir, const char *id)
{
	static const char *const suffixes[] = { ".out", ".json", ".status", ".tmp" };
	for (size_t i = 0; i < ELEMENTSOF(suffixes); i++) {
		_cleanup_free_ char *p = job_path(dir, id, suffixes[i]);
		if (p)
			(void)unlink(p);
	}
}

/* A TMPDIR younger than this is never taken for abandoned, whatever the
 * configured age: its run may not have held it yet. */
#define TMPDIR_MIN_AGE_MS (60 * 1000)

/* A private TMPDIR (a directory named prefix...) that no run or job holds
 * any more (its run was killed before it could remove it): removed once it
 * is old enough. 1 when it was. */
static int remove_abandoned_tmpdir(int dir_fd, const char *dir, const char *name,
                                   const char *prefix, const struct stat *st, uint64_t now,
                                   uint64_t max_age_ms)
{
	uint64_t mtime = (uint64_t)st->st_mtim.tv_sec * 1000;
	uint64_t age = max_age_ms > TMPDIR_MIN_AGE_MS ? max_age_ms : TMPDIR_MIN_AGE_MS;
	if (!S_ISDIR(st->st_mode) || strncmp(name, prefix, strlen(prefix)) != 0 ||
	    mtime + age > now || !run_tmpdir_abandoned(dir_fd, name))
		return 0;
	_cleanup_free_ char *path = NULL;
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return 0;
	return run_tmpdir_remove(path) == 0 ? 1 : 0;
}

/* remove_abandoned_tmpdir() on each entry of d, the open directory path,
 * named prefix...; closes d. The number removed. */
static int remove_abandoned_in(DIR *d, const char *path, const char *prefix, uint64_t now,
                               uint64_t max_age_ms)
{
	int removed = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct stat st;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			removed += remove_abandoned_tmpdir(dirfd(d), path, de->d_name, prefix, &st,
			                                   now, max_age_ms);
	}
	closedir(d);
	return removed;
}

/* The TMPDIRs launchers made in the shared mount point where no tmpfs
 * covered it (--tmpdir-fallback), in dir_fd/RUN_TMPDIR_SHARED: none while a
 * run holds the point (it holds it before its launcher makes one); else
 * each as above (nothing holds one itself), the point claimed throughout,
 * so that no run starts in it meanwhile (one that would makes a TMPDIR of
 * its own instead). */
static int remove_abandoned_fallbacks(int dir_fd, const char *dir, uint64_t now,
                                      uint64_t max_age_ms)
{
	_cleanup_free_ char *point = NULL;
	if (asprintf(&point, "%s/" RUN_TMPDIR_SHARED, dir) < 0)
		return 0;
	int fd = run_tmpdir_claim(dir_fd, RUN_TMPDIR_SHARED);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		safe_close(fd);
		return 0;
	}
	return remove_abandoned_in(d, point, RUN_TMPDIR_PREFIX, now, max_age_ms);
}

/* The TMPDIRs root made for commands run as [sandbox] user (in the shared
 * RUN_TMPDIR_USER_BASE, so only there and only as root): as above. Anyone
 * may name a directory there so; its removal runs as its owner. */
static int remove_abandoned_user_tmpdirs(uint64_t now, uint64_t max_age_ms)
{
	if (geteuid() != 0)
		return 0;
	DIR *d = opendir(RUN_TMPDIR_USER_BASE);
	if (!d)
		return 0;
	return remove_abandoned_in(d, RUN_TMPDIR_USER_BASE, RUN_TMPDIR_USER_PREFIX, now,
	                           max_age_ms);
}

/* A job that ended without a status (its monitor was killed, the machine
 * rebooted): no .status, no monitor alive, and no output for max_age_ms. */
static bool lost_long_ago(const char *dir, int dir_fd, const char *id, uint64_t now,
                          uint64_t max_age_ms)
{
	char name[JOB_ID_MAX + 8];
	struct stat st;
	snprintf(name, sizeof(name), "%s.status", id);
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return false; /* the status's age decides */
	snprintf(name, sizeof(name), "%s.out", id);
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (uint64_t)st.st_mtim.tv_sec * 1000 + max_age_ms > now)
		return false;
	struct job_info info;
	return jobs_read(dir, id, &info) == 0 && info.state == JOB_LOST;
}

int jobs_cleanup(const char *dir, uint64_t max_age_ms)
{
	DIR *d = opendir(dir);
	if (!d)
		return neg_errno();
	uint64_t now = wall_ms();
	int removed = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct stat st;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && strcmp(de->d_name, RUN_TMPDIR_SHARED) == 0) {
			removed += remove_abandoned_fallbacks(dirfd(d), dir, now, max_age_ms);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			removed += remove_abandoned_tmpdir(dirfd(d), dir, de->d_name,
			                                   RUN_TMPDIR_PREFIX, &st, now, max_age_ms);
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		uint64_t mtime = (uint64_t)st.st_mtim.tv_sec * 1000;
		if (mtime + max_age_ms > now)
			continue;
		size_t len = strlen(de->d_name);
		/* A job is old when its status is: it finished that long ago. */
		if (len > 7 && len - 7 < JOB_ID_MAX &&
		    strcmp(de->d_name + len - 7, ".status") == 0) {
			char id[JOB_ID_MAX];
			memcpy(id, de->d_name, len - 7);
			id[len - 7] = '\0';
			remove_job(dir, id);
			removed++;
		} else if (len > 5 && len - 5 < JOB_ID_MAX &&
		           strcmp(de->d_name + len - 5, ".json") == 0) {
			char id[JOB_ID_MAX];
			memcpy(id, de->d_name, len - 5);
			id[len - 5] = '\0';
			if (lost_long_ago(dir, dirfd(d), id, now, max_age_ms)) {
				remove_job(dir, id);
				removed++;
			}
		} else if ((strncmp(de->d_name, "run-", 4) == 0 && len > 4 &&
		            strcmp(de->d_name + len - 4, ".out") == 0) ||
		           strncmp(de->d_name, "route-", 6) == 0) {
			/* A cut run's full output, or a hook's routed request
			 * that was never run. */
			(void)unlinkat(dirfd(d), de->d_name, 0);
			removed++;
		}
	}
	closedir(d);
	return removed;
}

int jobs_cleanup_all(const char *dir, uint64_t max_age_ms)
{
	int removed = jobs_cleanup(dir, max_age_ms);
	return (removed < 0 ? 0 : removed) + remove_abandoned_user_tmpdirs(wall_ms(), max_age_ms);
}

bool jobs_in_workspace(const struct job_info *job, const char *root)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	return strncmp(job->workspace, root, n) == 0 &&
	       (job->workspace[n] == '\0' || job->workspace[n] == '/' ||
	        (n == 1 && root[0] == '/'));
}

json_t *jobs_info_to_json(const struct job_info *job)
{
	return json_pack("{s:s, s:s, s:i, s:s, s:s, s:I, s:o, s:o}", "id", job->id, "status",
	                 job_state_name(job->state), "pid", (int)job->pid, "command", job->command,
	                 "workspace", job->workspace, "started", (json_int_t)job->started_ms,
	                 "exitCode",
	                 job->state == JOB_COMPLETED || job->state == JOB_FAILED
	                         ? json_integer(job->exit_code)
	                         : json_null(),
	                 "signal", job->signal ? json_integer(job->signal) : json_null());
}

/* The block the tail is searched backwards in. */
#define JOBS_TAIL_BLOCK 65536

off_t jobs_tail_offset(int fd, off_t size, uint64_t n)
{
	char buf[JOBS_TAIL_BLOCK];
	off_t pos = size;
	uint64_t newlines = 0;
	bool skip_final = true; /* a final newline ends the last line, not starts one */
	while (pos > 0) {
		size_t want = pos > (off_t)sizeof(buf) ? sizeof(buf) : (size_t)pos;
		pos -= (off_t)want;
		if (pread(fd, buf, want, pos) != (ssize_t)want)
			return 0;
		for (size_t i = want; i > 0; i--) {
			if (buf[i - 1] != '\n')
				continue;
			if (skip_final && pos + (off_t)i == size) {
				skip_final = false;
				continue;
			}
			if (++newlines == n)
				return pos + (off_t)i;
		}
		skip_final = false;
	}
	return 0;
}
