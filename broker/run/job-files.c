/* SPDX-License-Identifier: MIT */
/*
 * A job's files: paths, whole writes through a rename, reads of the JSON
 * ones, and the clocks they record. Nothing here decides what a job is
 * (jobs.c) or writes when (job-monitor.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "run/job-files.h"
#include "run/jobs.h"

uint64_t job_files_wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

bool job_files_valid_id(const char *id)
{
	size_t n = strlen(id);
	return n > 0 && n < JOB_ID_MAX && strspn(id, "0123456789-") == n;
}

char *job_files_path(const char *dir, const char *id, const char *suffix)
{
	char *p = NULL;
	return asprintf(&p, "%s/%s%s", dir, id, suffix) < 0 ? NULL : p;
}

int job_files_write_json(const char *dir, const char *id, const char *suffix, json_t *obj)
{
	_cleanup_free_ char *path = job_files_path(dir, id, suffix);
	_cleanup_free_ char *tmp = job_files_path(dir, id, ".tmp");
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

json_t *job_files_load_json(const char *dir, const char *id, const char *suffix)
{
	_cleanup_free_ char *path = job_files_path(dir, id, suffix);
	if (!path)
		return NULL;
	json_t *obj = json_load_file(path, 0, NULL);
	if (obj && !json_is_object(obj)) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

uint64_t job_files_proc_start_time(pid_t pid)
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
