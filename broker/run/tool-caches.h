/* SPDX-License-Identifier: MIT */
/*
 * The tools' caches of a sandboxed workspace: one folder per workspace in
 * TOOL_CACHES_DIR beside the jobs directory (0700, this user's), named by
 * the workspace's claimed key (workspace-key.h, as its network holder's
 * socket is), made by the broker, writable in the sandbox (a --rw path),
 * handed to the tools by their own variables (XDG_CACHE_HOME,
 * npm_config_cache, GOCACHE ...), kept across the workspace's runs and
 * jobs, and tidied whole: the least recently used go once all of them pass
 * [sandbox] tool_caches_size, never one a run or job holds.
 * Not for: the TMPDIR (run-tmpdir.h), which goes with its run.
 */
#ifndef SLUICE_TOOL_CACHES_H
#define SLUICE_TOOL_CACHES_H

#include <stddef.h>
#include <stdint.h>

#include "errors.h"

/* The folder of every workspace's, beside the jobs directory. */
#define TOOL_CACHES_DIR "caches"
/* Its stamp: the time of the last tidy, which a run repeats at most once
 * in this interval (the tidy walks the caches; a run must not each time). */
#define TOOL_CACHES_STAMP ".tidied"
#define TOOL_CACHES_TIDY_INTERVAL_MS (10 * 60 * 1000)

/* The folder of every workspace's caches for the jobs directory jobs_dir
 * (owned, in *ret): TOOL_CACHES_DIR in the folder that holds jobs_dir. */
int tool_caches_root(const char *jobs_dir, char **ret);

/* The workspace's folder (absolute root workspace), made when missing,
 * marked as used now, and held (the descriptor in *ret_hold, close-on-exec)
 * so that no tidy removes it while the run or job lasts: its path in
 * *ret_path (owned). -errno with reterr saying why. */
int tool_caches_open(const char *jobs_dir, const char *workspace, char **ret_path, int *ret_hold,
                     struct sluice_error *reterr);

/* Hold the folder at path for as long as the descriptor returned is open
 * (a background job's monitor: the job may outlast its run). -errno. */
int tool_caches_hold(const char *path);

/* The variables that hand the folder at path to the tools, "NAME=VALUE"
 * each, appended to *env (*n of them there, room for TOOL_CACHES_VARS
 * more); the strings are owned by the caller. -ENOMEM. */
#define TOOL_CACHES_VARS 16
int tool_caches_environment(const char *path, char **env, size_t *n);

/* The folders under the home (relative to it) that hold a tool's cache
 * and nothing else, which no variable moves without losing the tool's
 * other files: writable in the sandbox through an overlay whose layer lies
 * in the workspace's folder (the launcher's --overlay), the folder itself
 * unchanged. *n is set to their number. */
const char *const *tool_caches_overlaid(size_t *n);

/* Remove the least recently used workspaces' folders that no run or job
 * holds until all of them (of jobs_dir) take at most max_bytes. The number
 * removed, or -errno when the folder cannot be read. */
int tool_caches_tidy(const char *jobs_dir, uint64_t max_bytes);

/* tool_caches_tidy(), unless one ran less than TOOL_CACHES_TIDY_INTERVAL_MS
 * ago (the stamp): what a run does, at the cost of one stat mostly. */
int tool_caches_tidy_due(const char *jobs_dir, uint64_t max_bytes);

#endif
