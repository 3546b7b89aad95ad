/* SPDX-License-Identifier: MIT */
/*
 * A background job's monitor: the process jobs_start() forks, which leaves
 * the session, becomes the child subreaper of the command's tree, starts
 * it through the launcher, tells jobs_start() whether it started, and once
 * the last process of the tree is gone (or the timeout or `sluice kill`
 * ended it) writes the completion line, the status file and the end of
 * the job's audit line, with its egress proxy's records.
 * Not for: reading or listing jobs (jobs.c).
 */
#ifndef SLUICE_JOB_MONITOR_H
#define SLUICE_JOB_MONITOR_H

#include <stdint.h>

#include "run/git-sweep.h"
#include "run/jobs.h"
#include "run/spawner.h"

/* What the monitor tells jobs_start() on its report descriptor once its
 * launcher has started the command, or has not; then text up to end of
 * file: the launcher's report lines, after a line with the whole message
 * when it did not start. */
struct job_monitor_msg {
	int32_t result; /* the shell's pid, or -errno */
	int32_t launch; /* enum job_launch */
};

/* The monitor of job id in dir, in the child jobs_start() forked: runs req
 * (ending it after timeout_ms, 0: never; SIGTERM, then SIGKILL after
 * grace_ms), reports on report_fd as struct job_monitor_msg says, sweeps
 * the repository once the last process is gone (sweep, or NULL), writes
 * the end of the job's audit line (audit, or NULL). Never returns. */
_Noreturn void job_monitor_run(const char *dir, const char *id, const struct spawn_request *req,
                               uint64_t timeout_ms, uint64_t grace_ms, struct git_sweep *sweep,
                               const struct job_audit *audit, int report_fd);

#endif
