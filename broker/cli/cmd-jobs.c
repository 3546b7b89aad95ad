/* SPDX-License-Identifier: MIT */
/*
 * `sluice jobs`, `sluice logs JOB [--tail N]` and `sluice kill JOB`: the
 * background jobs of this user, read from the private jobs directory.
 * Not for: starting jobs (cmd-run.c through jobs.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "policy/broker-context.h"
#include "cleanup.h"
#include "core/error-kind.h"
#include "fd-util.h"
#include "run/jobs.h"
#include "run/tool-caches.h"
#include "log.h"
#include "parse-number.h"
#include "core/run-settings.h"
#include "cli/run-verbs.h"
#include "util/terminal-text.h"
#include "cli/verb-options.h"

/* The most lines `logs --tail` shows, and the block it copies with. */
#define LOGS_TAIL_MAX 1000000
#define LOGS_BLOCK 65536

enum { JOBS_OPT_FORMAT, JOBS_OPT_WORKSPACE };
static const struct verb_option jobs_options[] = {
	[JOBS_OPT_FORMAT] = VERB_OPTION_FORMAT,
	[JOBS_OPT_WORKSPACE] = { "workspace", 0, "DIR",
	                         "only the jobs started in workspace DIR or beneath it" },
};

const struct verb_spec jobs_spec = {
	.name = "jobs",
	.summary = "list background jobs",
	.args = "",
	.options = jobs_options,
	.n_options = ELEMENTSOF(jobs_options),
};

enum { LOGS_OPT_TAIL };
static const struct verb_option logs_options[] = {
	[LOGS_OPT_TAIL] = { "tail", 0, "N", "only the last N lines" },
};

const struct verb_spec logs_spec = {
	.name = "logs",
	.summary = "print a background job's output",
	.args = "JOB",
	.options = logs_options,
	.n_options = ELEMENTSOF(logs_options),
};

const struct verb_spec kill_spec = {
	.name = "kill",
	.summary = "end a background job's whole tree",
	.args = "JOB",
};

/* The settings (from the configuration) and the jobs directory they name;
 * a failure is logged for verb. The settings borrow from *ctx. */
static int open_jobs(const char *verb, struct run_settings *s, struct broker_context **ctx,
                     char **ret_dir)
{
	if (broker_context_open_or_log(NULL, s, ctx, verb) < 0)
		return -EINVAL;
	struct sluice_error err = { 0 };
	int r = jobs_dir(s, ret_dir, &err);
	if (r < 0) {
		log_sluice_error(&err, "%s: jobs directory", verb);
		return r;
	}
	/* Inside sluice's sandbox the jobs directory is covered (mode 0): an
	 * empty list, or "no job", would say what nobody in here can know. */
	if (access(*ret_dir, R_OK | X_OK) < 0) {
		r = neg_errno();
		log_error("%s: the jobs directory '%s' cannot be read (%s); inside sluice's "
		          "sandbox it is hidden, and the jobs' processes are out of sight: reach "
		          "the jobs from outside it (sluice jobs, logs, kill; or the MCP "
		          "server's job tools)",
		          verb, *ret_dir, strerror(-r));
	}
	return r;
}

/* The listing: where it goes, and the workspace it is limited to (NULL:
 * every job). */
struct job_listing {
	json_t *arr; /* NULL: text on stdout */
	const char *workspace;
};

static int print_job_text(const struct job_info *job)
{
	char status[64];
	int n;
	if (job->state == JOB_FAILED)
		n = snprintf(status, sizeof(status), "failed (exit %d)", job->exit_code);
	else if (job->state == JOB_SIGNALLED)
		n = snprintf(status, sizeof(status), "signalled (%d)", job->signal);
	else
		n = snprintf(status, sizeof(status), "%s", job_state_name(job->state));
	/* its output file stops at [broker] output_file_cap (sluice logs says
	 * where, at its end) */
	if (job->truncated && n > 0 && (size_t)n < sizeof(status))
		snprintf(status + n, sizeof(status) - (size_t)n, ", output cut");
	/* wide enough for the longest status: "failed (exit 255), output cut" */
	printf("%-24s %-29s %-8d ", job->id, status, (int)job->pid);
	/* one line per job, and nothing in a command that a terminal obeys */
	terminal_safe_write(stdout, job->command);
	putchar('\n');
	return 0;
}

static int list_job(const struct job_info *job, void *userdata)
{
	const struct job_listing *l = userdata;
	if (l->workspace && !jobs_in_workspace(job, l->workspace))
		return 0;
	if (!l->arr)
		return print_job_text(job);
	json_t *o = jobs_info_to_json(job);
	return o && json_array_append_new(l->arr, o) == 0 ? 0 : -ENOMEM;
}

int cmd_jobs(int argc, char **argv)
{
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse_or_help(&jobs_spec, argc, argv, &args);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	const char *format = args.values[JOBS_OPT_FORMAT];
	if (format && strcmp(format, "json") != 0 && strcmp(format, "text") != 0) {
		log_error("jobs: unknown format '%s' (text or json)", format);
		return EXIT_SLUICE_ERROR;
	}
	if (args.n_positionals > 0) {
		log_error("jobs: unexpected argument '%s'", args.positionals[0]);
		return EXIT_SLUICE_ERROR;
	}
	bool json = format && strcmp(format, "json") == 0;
	_cleanup_free_ char *workspace = NULL;
	if (args.values[JOBS_OPT_WORKSPACE]) {
		workspace = realpath(args.values[JOBS_OPT_WORKSPACE], NULL);
		if (!workspace) {
			log_error("jobs: workspace '%s': %s", args.values[JOBS_OPT_WORKSPACE],
			          strerror(errno));
			return EXIT_SLUICE_ERROR;
		}
	}
	struct run_settings s;
	_cleanup_(broker_context_freep) struct broker_context *ctx = NULL;
	_cleanup_free_ char *dir = NULL;
	if (open_jobs("jobs", &s, &ctx, &dir) < 0)
		return EXIT_SLUICE_ERROR;
	(void)jobs_cleanup_all(dir, s.jobs_max_age_ms);
	(void)tool_caches_tidy_due(dir, s.tool_caches_size);
	struct job_listing l = { .workspace = workspace };
	if (!json) {
		printf("%-24s %-18s %-8s %s\n", "JOB", "STATUS", "PID", "COMMAND");
		return jobs_foreach(dir, list_job, &l) < 0 ? EXIT_SLUICE_ERROR : 0;
	}
	l.arr = json_array();
	r = l.arr ? jobs_foreach(dir, list_job, &l) : -ENOMEM;
	if (r >= 0) {
		r = json_dumpf(l.arr, stdout, JSON_COMPACT);
		fputc('\n', stdout);
	}
	json_decref(l.arr);
	return r < 0 ? EXIT_SLUICE_ERROR : 0;
}

static int copy_out(int fd, off_t from)
{
	char buf[LOGS_BLOCK];
	if (lseek(fd, from, SEEK_SET) < 0)
		return neg_errno();
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0)
			return neg_errno();
		if (n == 0)
			return 0;
		int r = write_full(STDOUT_FILENO, buf, (size_t)n);
		if (r < 0)
			return r;
	}
}

int cmd_logs(int argc, char **argv)
{
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse_or_help(&logs_spec, argc, argv, &args);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	uint64_t tail = 0;
	const char *tail_arg = args.values[LOGS_OPT_TAIL];
	if (tail_arg && (parse_uint64(tail_arg, LOGS_TAIL_MAX, &tail) < 0 || tail == 0)) {
		log_error("logs: option '--tail' needs a number of lines from 1 to %d, not '%s'",
		          LOGS_TAIL_MAX, tail_arg);
		return EXIT_SLUICE_ERROR;
	}
	if (args.n_positionals != 1) {
		log_error("logs: name one job (see 'sluice jobs')");
		return EXIT_SLUICE_ERROR;
	}
	const char *id = args.positionals[0];
	struct run_settings s;
	_cleanup_(broker_context_freep) struct broker_context *ctx = NULL;
	_cleanup_free_ char *dir = NULL;
	if (open_jobs("logs", &s, &ctx, &dir) < 0)
		return EXIT_SLUICE_ERROR;
	_cleanup_(jobs_info_done) struct job_info job = { 0 };
	if (jobs_read(dir, id, &job) < 0) {
		log_error("logs: no job '%s' (see 'sluice jobs')", id);
		return EXIT_SLUICE_ERROR;
	}
	_cleanup_free_ char *path = jobs_output_path(dir, id);
	_cleanup_close_ int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		log_error("logs: cannot read the output of job '%s'", id);
		return EXIT_SLUICE_ERROR;
	}
	r = copy_out(fd, tail ? jobs_tail_offset(fd, st.st_size, tail) : 0);
	if (r < 0) {
		log_error("logs: %s", strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	return 0;
}

int cmd_kill(int argc, char **argv)
{
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse_or_help(&kill_spec, argc, argv, &args);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	if (args.n_positionals != 1) {
		log_error("kill: name one job (see 'sluice jobs')");
		return EXIT_SLUICE_ERROR;
	}
	const char *id = args.positionals[0];
	struct run_settings s;
	_cleanup_(broker_context_freep) struct broker_context *ctx = NULL;
	_cleanup_free_ char *dir = NULL;
	if (open_jobs("kill", &s, &ctx, &dir) < 0)
		return EXIT_SLUICE_ERROR;
	r = jobs_kill(dir, id, s.kill_grace_ms + 5000);
	if (r == -ENOENT || r == -EINVAL) {
		log_error("kill: no job '%s' (see 'sluice jobs')", id);
		return EXIT_SLUICE_ERROR;
	}
	if (r == -ESRCH) {
		log_error("kill: job '%s' is not running", id);
		return 1;
	}
	if (r < 0) {
		log_error("kill: job '%s': %s", id, strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	printf("job %s killed, with everything it started\n", id);
	return 0;
}
