/* SPDX-License-Identifier: MIT */
/*
 * The audit log: one JSON line per request -- time, user, working directory,
 * command, verdict, reasons, approval (and who answered, how), exit code,
 * duration -- appended to
 * [audit] file (created 0600, opened O_APPEND, written with one write(2) so
 * that lines never interleave) and/or sent to syslog. Open it before running
 * the command: with [audit] required = yes a log that cannot be opened
 * refuses the command, and so does a start line that cannot be written
 * (the request's line begun before the command runs, so that a broker
 * killed meanwhile still leaves it).
 * Not for: diagnostics (log.c).
 */
#ifndef SLUICE_AUDIT_H
#define SLUICE_AUDIT_H

#include <stdint.h>

#include "config/broker-config.h"
#include "errors.h"
#include "policy/verdict.h"

struct audit;

struct audit_record {
	/* With [audit] required = yes a request that runs has two lines: "start"
	 * before the command runs (none written: it does not run) and "end"
	 * after, with the same id; otherwise one line, phase and id NULL. */
	const char *phase;
	const char *id;
	const char *command;
	const char *description; /* may be NULL */
	const char *cwd;         /* may be NULL */
	const struct verdict *verdict;
	const char *approval;      /* "not needed", "approved", "refused", ... (may be NULL) */
	const char *approval_by;   /* who answered an ask: "mcp-client", "program", ... or NULL */
	const char *approval_note; /* how it was answered (may be NULL) */
	const char *error_kind;    /* the interface's error kind, or NULL */
	int exit_code;             /* -1: none (not run, or killed) */
	int signal;                /* 0: none */
	uint64_t duration_ms;
	const char *via; /* the door it came in by when not run or mcp: "hook codex", ... */
	/* what the post-run sweep disabled in the repository (0: nothing) and
	 * where it kept the copies (may be NULL) */
	size_t swept;
	const char *quarantine;
	/* a run with an allowlist: the keys of its egress proxy's
	 * connections, "network" and, when some were not recorded,
	 * "networkDropped" (an object whose keys are copied into the line;
	 * borrowed; NULL: none) */
	json_t *network;
};

/*
 * Open the audit destinations cfg names into *ret (NULL when none is
 * configured: writing to it then does nothing). Returns 0, or -errno with
 * reterr naming the file (-ELOOP for a symlink, -EINVAL for a file that is
 * not regular). The caller refuses the command on failure when
 * cfg->audit_required.
 */
int audit_open(const struct broker_config *cfg, struct audit **ret, struct sluice_error *reterr);

/* Write one line for rec; a NULL audit does nothing. Returns 0 or -errno
 * with reterr. */
int audit_write(struct audit *a, const struct audit_record *rec, struct sluice_error *reterr);

/* In a process that closed the descriptors it inherited (a server's
 * worker): open the log file again. The old descriptor is forgotten, never
 * closed, since its number may name another file by now. NULL does
 * nothing. 0, or -errno with reterr (no file then). */
int audit_reopen(struct audit *a, struct sluice_error *reterr);

/* Close; accepts NULL; returns NULL. */
struct audit *audit_close(struct audit *a);
static inline void audit_closep(struct audit **a)
{
	audit_close(*a);
}

#endif
