/* SPDX-License-Identifier: MIT */
/*
 * Background jobs: the private directory, a job's start (its monitor,
 * job-monitor.c, forked and heard from), reading, listing and killing
 * jobs, and the tidy of old ones and of abandoned TMPDIRs. Job files are
 * written by the monitor only (job-files.c), so readers never see half a
 * file.
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "parse-number.h"
#include "run/job-files.h"
#include "run/job-monitor.h"
#include "run/jobs.h"
#include "run/launch-report.h"
#include "run/run-tmpdir.h"

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
	if (asprintf(&path, "%s/run-%llu-%d.out", dir, (unsigned long long)job_files_wall_ms(),
	             (int)getpid()) < 0)
		return -ENOMEM;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return neg_errno();
	*ret_path = TAKE_PTR(path);
	return fd;
}

char *jobs_output_path(const char *dir, const char *id)
{
	return job_files_path(dir, id, ".out");
}

int jobs_start(const char *dir, const struct spawn_request *req, uint64_t timeout_ms,
               uint64_t kill_grace_ms, struct git_sweep *sweep, const struct job_audit *audit,
               struct job_started *ret, struct sluice_error *reterr)
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
		job_monitor_run(dir, ret->id, req, timeout_ms, kill_grace_ms, sweep, audit,
		                pipefd[1]);
	}
	close(pipefd[1]);
	struct job_monitor_msg msg = { 0 };
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
	return monitor > 0 && kill(monitor, 0) == 0 && job_files_proc_start_time(monitor) == start;
}

/* The network keys of a job's status (a new object), or NULL: none. */
static json_t *network_keys(json_t *status)
{
	json_t *network = json_object_get(status, "network");
	if (!json_is_array(network))
		return NULL;
	json_t *keys = json_object();
	json_t *dropped = json_object_get(status, "networkDropped");
	if (keys)
		json_object_set(keys, "network", network);
	if (keys && json_is_integer(dropped))
		json_object_set(keys, "networkDropped", dropped);
	return keys;
}

void jobs_info_done(struct job_info *job)
{
	json_decref(job->network);
	job->network = NULL;
}

int jobs_read(const char *dir, const char *id, struct job_info *ret)
{
	if (!job_files_valid_id(id))
		return -EINVAL;
	json_t *meta = job_files_load_json(dir, id, ".json");
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
	json_t *st = job_files_load_json(dir, id, ".status");
	if (st) {
		const char *name = json_string_value(json_object_get(st, "status"));
		ret->state = state_from_name(name ? name : "");
		ret->exit_code = (int)json_integer_value(json_object_get(st, "exitCode"));
		ret->signal = (int)json_integer_value(json_object_get(st, "signal"));
		ret->truncated = json_is_true(json_object_get(st, "truncated"));
		ret->output_file_cap =
		        (uint64_t)json_integer_value(json_object_get(st, "outputFileCap"));
		ret->network = network_keys(st);
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
		jobs_info_done(&job);
	}
	closedir(d);
	return r;
}

int jobs_kill(const char *dir, const char *id, uint64_t wait_ms)
{
	if (!job_files_valid_id(id))
		return -EINVAL;
	json_t *meta = job_files_load_json(dir, id, ".json");
	if (!meta)
		return -ENOENT;
	_cleanup_free_ char *status_path = job_files_path(dir, id, ".status");
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
		_cleanup_free_ char *p = job_files_path(dir, id, suffixes[i]);
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
	if (jobs_read(dir, id, &info) < 0)
		return false;
	jobs_info_done(&info);
	return info.state == JOB_LOST;
}

int jobs_cleanup(const char *dir, uint64_t max_age_ms)
{
	DIR *d = opendir(dir);
	if (!d)
		return neg_errno();
	uint64_t now = job_files_wall_ms();
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
	return (removed < 0 ? 0 : removed) +
	       remove_abandoned_user_tmpdirs(job_files_wall_ms(), max_age_ms);
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
	json_t *o = json_pack("{s:s, s:s, s:i, s:s, s:s, s:I, s:o, s:o}", "id", job->id, "status",
	                      job_state_name(job->state), "pid", (int)job->pid, "command",
	                      job->command, "workspace", job->workspace, "started",
	                      (json_int_t)job->started_ms, "exitCode",
	                      job->state == JOB_COMPLETED || job->state == JOB_FAILED
	                              ? json_integer(job->exit_code)
	                              : json_null(),
	                      "signal", job->signal ? json_integer(job->signal) : json_null());
	if (o)
		json_object_set_new(o, "truncated", json_boolean(job->truncated));
	if (o && job->truncated)
		json_object_set_new(o, "outputFileCap",
		                    json_integer((json_int_t)job->output_file_cap));
	if (o && job->network)
		(void)json_object_update(o, job->network);
	return o;
}

const char *jobs_cut_text(const struct job_info *job, char *buf, size_t size)
{
	char cap[32];
	if (!job->truncated)
		snprintf(buf, size, "%s", "");
	else if (job->output_file_cap)
		snprintf(buf, size, "output cut at %s, the [broker] output_file_cap",
		         format_size(job->output_file_cap, cap, sizeof(cap)));
	else
		snprintf(buf, size, "output cut at the [broker] output_file_cap");
	return buf;
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
