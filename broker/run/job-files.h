/* SPDX-License-Identifier: MIT */
/*
 * A job's files in the jobs directory (ID.json, ID.out, ID.status): their
 * paths, written whole through a rename so that a reader never sees half
 * of one, and read back; with the two clocks a job's files record (the
 * wall clock, a process's start time).
 * Shared by jobs.c (start, read, kill, tidy) and job-monitor.c (the
 * monitor that writes them); not for the rest of the broker (jobs.h).
 */
#ifndef SLUICE_JOB_FILES_H
#define SLUICE_JOB_FILES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The wall clock, in ms since the epoch. */
uint64_t job_files_wall_ms(void);

/* Whether id reads as a job's ID (digits and '-', below JOB_ID_MAX). */
bool job_files_valid_id(const char *id);

/* dir/id+suffix (owned), or NULL out of memory. */
char *job_files_path(const char *dir, const char *id, const char *suffix);

/* Write obj to dir/id+suffix through a temporary file and rename. 0 or
 * -errno. */
int job_files_write_json(const char *dir, const char *id, const char *suffix, json_t *obj);

/* The object in dir/id+suffix (a new reference), or NULL: missing, or not
 * a JSON object. */
json_t *job_files_load_json(const char *dir, const char *id, const char *suffix);

/* Field 22 of /proc/PID/stat: the start time, to tell a recycled pid (0
 * when it cannot be read). */
uint64_t job_files_proc_start_time(pid_t pid);

#endif
