/* SPDX-License-Identifier: MIT */
/*
 * Running one command for the model oracle: `bash -c COMMAND` inside
 * `sluice-launch --profile restricted`, in an empty scratch workspace, with a
 * PATH on which every program is the oracle's stub (oracle-stub.c) and with
 * bash tracing itself (BASH_ENV turns on set -x into a file), so that what
 * ran can be read back (oracle-trace.h).
 * Not for: judging what ran (oracle-compare.h).
 */
#ifndef SLUICE_ORACLE_RUN_H
#define SLUICE_ORACLE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "oracle/oracle-trace.h"

struct oracle_runner;

struct oracle_runner_config {
	const char *launcher; /* sluice-launch */
	const char *stub;     /* the stub program */
	const char *bash;     /* the bash that runs the commands (default /bin/bash) */
	uint64_t timeout_ms;  /* per command; then its processes are killed */
};

/* Set up a scratch area in $TMPDIR: the stub directory (each of
 * extra_names linked to the stub), the BASH_ENV prelude, an empty
 * workspace. 0, or -errno with a message on stderr. */
int oracle_runner_new(const struct oracle_runner_config *cfg, char *const *extra_names,
                      struct oracle_runner **ret);
/* Removes the scratch area. Accepts NULL; returns NULL. */
struct oracle_runner *oracle_runner_free(struct oracle_runner *r);
static inline void oracle_runner_freep(struct oracle_runner **r)
{
	oracle_runner_free(*r);
}

/* Make every name in names (if it is not there yet) a stub. 0 or -errno. */
int oracle_runner_add_names(struct oracle_runner *r, char *const *names);

/* The same for every run of name bytes ([A-Za-z0-9._+-]) in text: whatever
 * a command names literally, even where the model does not see a command,
 * is then a stub that records it, not a program that is not found. */
int oracle_runner_add_words(struct oracle_runner *r, const char *text);

/* What the run of command recorded (appended to out). *timed_out: it was
 * killed at the timeout. Returns 0 (whatever the command's own status), or
 * -errno when it could not be run. Not thread-safe; one command at a time
 * per runner (and per process: the process becomes a child subreaper). */
int oracle_runner_run(struct oracle_runner *r, const char *command, struct oracle_records *out,
                      bool *timed_out);

#endif
