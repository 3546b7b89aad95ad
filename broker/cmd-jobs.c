/* SPDX-License-Identifier: MIT */
/*
 * `sluice jobs`, `sluice logs JOB [--tail N]` and `sluice kill JOB`: the
 * background jobs of this user, read from the private jobs directory.
 * Not for: starting jobs (cmd-run.c through jobs.c).
 */
#include "config.h"

#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "broker-context.h"
#include "cleanup.h"
#include "error-kind.h"
#include "fd-util.h"
#include "jobs.h"
#include "log.h"
#include "parse-number.h"
#include "run-settings.h"
#include "run-verbs.h"

/* The most lines `logs --tail` shows, and the block it copies with. */
#define LOGS_TAIL_MAX 1000000
#define LOGS_BLOCK 65536

/* The settings (from the configuration) and the jobs directory they name;
 * a failure is logged for verb. The settings borrow from *ctx. */
static int open_jobs(const char *verb, struct run_settings *s, struct broker_context **ctx,
                     char **ret_dir)
{
	if (broker_context_open_or_log(NULL, s, ctx, verb) < 0)
		return -EINVAL;
	struct sluice_error err = { 0 };
	int r = jobs_dir(s, ret_dir, &err);
	if (r < 0)
		log_sluice_error(&err, "%s: jobs directory", verb);
	return r;
}

static int print_job_text(const struct job_info *job, void *userdata)
{
	(void)userdata;
	char status[48];
	if (job->state == JOB_FAILED)
		snprintf(status, sizeof(status), "failed (exit %d)", job->exit_code);
	else if (job->state == JOB_SIGNALLED)
		snprintf(status, sizeof(status), "signalled (%d)", job->signal);
	else
		snprintf(status, sizeof(status), "%s", job_state_name(job->state));
	printf("%-24s %-18s %-8d %s\n", job->id, status, (int)job->pid, job->command);
	return 0;
}

static int add_job_json(const struct job_info *job, void *userdata)
{
	json_t *o = jobs_info_to_json(job);
	return o && json_array_append_new(userdata, o) == 0 ? 0 : -ENOMEM;
}

int cmd_jobs(int argc, char **argv)
{
	bool json = argc == 3 && strcmp(argv[1], "--format") == 0 && strcmp(argv[2], "json") == 0;
	if (argc > 1 && !json) {
		fprintf(stderr, "Usage: sluice jobs [--format json]\n");
		return strcmp(argv[1], "--help") == 0 ? 0 : EXIT_SLUICE_ERROR;
	}
	struct run_settings s;
	_cleanup_(broker_context_freep) struct broker_context *ctx = NULL;
	_cleanup_free_ char *dir = NULL;
	if (open_jobs("jobs", &s, &ctx, &dir) < 0)
		return EXIT_SLUICE_ERROR;
	(void)jobs_cleanup(dir, s.jobs_max_age_ms);
	if (!json) {
		printf("%-24s %-18s %-8s %s\n", "JOB", "STATUS", "PID", "COMMAND");
		return jobs_foreach(dir, print_job_text, NULL) < 0 ? EXIT_SLUICE_ERROR : 0;
	}
	json_t *arr = json_array();
	int r = arr ? jobs_foreach(dir, add_job_json, arr) : -ENOMEM;
	if (r >= 0) {
		r = json_dumpf(arr, stdout, JSON_COMPACT);
		fputc('\n', stdout);
	}
	json_decref(arr);
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
	static const struct option options[] = {
		{ "tail", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	uint64_t tail = 0;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0) {
		if (c == 't' && parse_uint64(optarg, LOGS_TAIL_MAX, &tail) == 0 && tail > 0)
			continue;
		if (c == 'h') {
			printf("Usage: sluice logs JOB [--tail N]\n");
			return 0;
		}
		log_error("logs: bad option '%s' (usage: sluice logs JOB [--tail N])",
		          argv[optind - 1]);
		return EXIT_SLUICE_ERROR;
	}
	if (optind != argc - 1) {
		log_error("logs: name one job (see 'sluice jobs')");
		return EXIT_SLUICE_ERROR;
	}
	const char *id = argv[optind];
	struct run_settings s;
	_cleanup_(broker_context_freep) struct broker_context *ctx = NULL;
	_cleanup_free_ char *dir = NULL;
	if (open_jobs("logs", &s, &ctx, &dir) < 0)
		return EXIT_SLUICE_ERROR;
	struct job_info job;
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
	int r = copy_out(fd, tail ? jobs_tail_offset(fd, st.st_size, tail) : 0);
	if (r < 0) {
		log_error("logs: %s", strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	return 0;
}

int cmd_kill(int argc, char **argv)
{
	if (argc != 2 || strcmp(argv[1], "--help") == 0) {
		fprintf(argc == 2 ? stdout : stderr, "Usage: sluice kill JOB\n");
		return argc == 2 ? 0 : EXIT_SLUICE_ERROR;
	}
	struct run_settings s;
	_cleanup_(broker_context_freep) struct broker_context *ctx = NULL;
	_cleanup_free_ char *dir = NULL;
	if (open_jobs("kill", &s, &ctx, &dir) < 0)
		return EXIT_SLUICE_ERROR;
	int r = jobs_kill(dir, argv[1], s.kill_grace_ms + 5000);
	if (r == -ENOENT || r == -EINVAL) {
		log_error("kill: no job '%s' (see 'sluice jobs')", argv[1]);
		return EXIT_SLUICE_ERROR;
	}
	if (r == -ESRCH) {
		log_error("kill: job '%s' is not running", argv[1]);
		return 1;
	}
	if (r < 0) {
		log_error("kill: job '%s': %s", argv[1], strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	printf("job %s killed, with everything it started\n", argv[1]);
	return 0;
}
