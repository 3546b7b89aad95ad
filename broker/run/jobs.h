/* SPDX-License-Identifier: MIT */
/*
 * Background jobs and the private per-user directory (0700) their files and
 * the full-output files of cut runs live in. A job is started by a detached
 * monitor that runs the command through the launcher, waits until the LAST
 * process of its tree is gone (it is the tree's subreaper), then appends a
 * completion line to the job's output and writes its status.
 * Files per job ID: ID.json (what and who), ID.out (output), ID.status.
 * Not for: the verbs' option parsing and printing (cmd-jobs.c, cmd-run.c).
 */
#ifndef SLUICE_JOBS_H
#define SLUICE_JOBS_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "errors.h"
#include "core/run-settings.h"
#include "policy/broker-context.h"
#include "run/git-sweep.h"
#include "run/spawner.h"

#define JOB_ID_MAX 64

/*
 * The private directory (owned path in *ret): settings->jobs_dir, else
 * $XDG_RUNTIME_DIR/sluice/jobs, else /tmp/sluice-UID/jobs. Created 0700 when
 * missing; refused (-EPERM) when it is a symbolic link, not ours, or open to
 * others.
 */
int jobs_dir(const struct run_settings *s, char **ret, struct sluice_error *reterr);

/* mkdir(path, 0700) that accepts an existing directory, then checks that
 * it is private: a directory (not a symbolic link) of this user's, closed
 * to others (-EPERM). What the jobs directory and the tool caches' are. */
int jobs_private_dir(const char *path, struct sluice_error *reterr);

/* Create a new private file for a cut run's whole output in dir: an open
 * descriptor, its path in *ret_path. */
int jobs_spill_open(const char *dir, char **ret_path);

/* The launcher's report line of a job is kept up to this size. */
#define JOB_REPORT_MAX 4096
/* How long a job's start waits for its launcher's report. */
#define JOB_START_WAIT_MS 30000

/* How a job's launcher started it. */
enum job_launch {
	/* it reported starting it in the profile asked for (or a step before
	 * the launcher failed: the error's code says which) */
	JOB_LAUNCH_REPORTED = 0,
	JOB_LAUNCH_FAILED,      /* it failed, or said nothing: nothing runs */
	JOB_LAUNCH_UNAVAILABLE, /* the profile asked for could not be had: nothing runs */
};

struct job_started {
	char id[JOB_ID_MAX];
	pid_t pid;         /* the shell, also its process group */
	char *output_file; /* owned */
	enum job_launch launch;
	/* the launcher's report lines, NUL-terminated ("" when none came) */
	char report[JOB_REPORT_MAX];
};

/* The job's audit line, written as a foreground run's under [audit]
 * required: its request's start line (phase "start", start_id) was
 * written before the job started; the monitor writes the end (phase
 * "end", the same id) once the job's last process is gone, with how it
 * ended and its egress proxy's connections. Every pointer is borrowed
 * from the caller, which the monitor is a fork of, so each stays valid
 * there for the monitor's life. */
struct job_audit {
	struct broker_context *context;
	const struct run_request *req;
	const char *workdir;
	const struct policy_decision *decision;
	const char *start_id;
};

/*
 * Start req (stdout_fd, stderr_fd and report_fd are ignored) as a job in
 * dir, ending it after timeout_ms (0: never). sweep (begun, or NULL): the
 * monitor sweeps the repository once the job's last process is gone, and
 * says what it found in the completion line and the status file. audit
 * (or NULL: no line): the end of the job's audit line. With an allowlist
 * (spawn_wants_egress_audit()), the monitor holds the egress proxy's
 * audit channel, reads it once every process of the job (the proxy too)
 * is gone, and puts the records in the status file and the end line. Returns
 * when the launcher has reported starting the command (ret->report), as a
 * foreground run knows it started. -errno on failure, with reterr saying
 * which step; when the launcher did not start the command (ret->launch),
 * its process tree is ended, no job is left, and reterr's detail is the
 * whole message (the launcher's error line, or why its report is wrong).
 */
int jobs_start(const char *dir, const struct spawn_request *req, uint64_t timeout_ms,
               uint64_t kill_grace_ms, struct git_sweep *sweep, const struct job_audit *audit,
               struct job_started *ret, struct sluice_error *reterr);

enum job_state {
	JOB_RUNNING = 0,
	JOB_COMPLETED, /* exit code 0 */
	JOB_FAILED,    /* exit code != 0 */
	JOB_SIGNALLED,
	JOB_TIMED_OUT,
	JOB_KILLED, /* by sluice kill */
	JOB_LOST,   /* no status and no monitor: the machine rebooted, or worse */
};

/* "running", "completed", ... */
const char *job_state_name(enum job_state s);

struct job_info {
	char id[JOB_ID_MAX];
	char command[256];        /* cut with "..." */
	char workspace[PATH_MAX]; /* its workspace root (older jobs: its directory) */
	pid_t pid, monitor;
	uint64_t started_ms; /* wall clock, ms since the epoch */
	enum job_state state;
	int exit_code, signal;
	/* a finished job whose output file lacks some of its output (cut at
	 * its status's outputFileCap, the [broker] output_file_cap then) */
	bool truncated;
	uint64_t output_file_cap;
	/* a finished job with an allowlist: its status's "network" and, when
	 * some connections were not recorded, "networkDropped" (owned, a JSON
	 * object; NULL: none), egress_log_add_keys()'s keys */
	json_t *network;
};

/* Release what a job_info holds (jobs_read()'s network). */
void jobs_info_done(struct job_info *job);

/* Read the job called id in dir (jobs_info_done() then). -ENOENT when
 * there is none; -EINVAL for an id that is not a job name. */
int jobs_read(const char *dir, const char *id, struct job_info *ret);

/* Call fn for each job in dir (in no particular order; job is borrowed for
 * the call); stops at fn's first negative return and returns it. */
int jobs_foreach(const char *dir, int (*fn)(const struct job_info *job, void *userdata),
                 void *userdata);

/* End the job's whole tree (through its monitor, which records it as
 * killed) and wait up to wait_ms for the monitor to finish. -ESRCH when the
 * job is no longer running. */
int jobs_kill(const char *dir, const char *id, uint64_t wait_ms);

/* Remove the files of jobs that finished more than max_age_ms ago (or
 * ended without a status: no monitor alive, no output for as long), and
 * full-output files, routed hook requests (route-*) and private TMPDIRs
 * nothing holds any more as old, in the jobs directory dir. Returns the
 * number removed. What a request does on its way (the hook's routing). */
int jobs_cleanup(const char *dir, uint64_t max_age_ms);

/* jobs_cleanup(), and, as root, the private TMPDIRs of runs as [sandbox]
 * user (in /tmp, shared with everyone: a directory listing that may be
 * long) that nothing holds and that are as old. What listing the jobs
 * does (`sluice jobs`, the MCP jobs tool), not every request. */
int jobs_cleanup_all(const char *dir, uint64_t max_age_ms);

/* The path of the job's output file (owned), or NULL on allocation failure. */
char *jobs_output_path(const char *dir, const char *id);

/* Whether the job belongs to the workspace root (absolute): started there
 * or beneath it. */
bool jobs_in_workspace(const struct job_info *job, const char *root);

/* A job as the JSON object `sluice jobs --format json` lists (a new
 * reference; "truncated", with "outputFileCap" when it is; with its
 * network keys when it has them), or NULL on allocation failure. */
json_t *jobs_info_to_json(const struct job_info *job);

/* "output cut at 1MiB, the [broker] output_file_cap" (into buf, of size
 * bytes) for a job whose output file lacks some of its output; "" for
 * another. What the text a model reads of a job says of it. */
const char *jobs_cut_text(const struct job_info *job, char *buf, size_t size);

/* The offset where the last n lines of fd (size bytes long) begin; 0 when
 * it has fewer lines or cannot be read. */
off_t jobs_tail_offset(int fd, off_t size, uint64_t n);

#endif
