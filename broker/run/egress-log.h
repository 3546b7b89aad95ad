/* SPDX-License-Identifier: MIT */
/*
 * The egress proxy's records of one run, as the broker gets them: the
 * audit channel made (a sealed memory file, common/egress-audit.h says
 * why), handed to the launcher, and read once the run is over into at most
 * EGRESS_AUDIT_MAX_RECORDS records and a count of those past them, with a
 * fixed amount of memory whatever the channel holds.
 * Not for: writing the records (the launcher's proxy) or the audit line
 * (policy/audit.c, which copies the JSON made here).
 */
#ifndef SLUICE_EGRESS_LOG_H
#define SLUICE_EGRESS_LOG_H

#include <jansson.h>
#include <stdint.h>

#include "egress-audit.h"

struct egress_log {
	size_t n; /* records read */
	struct egress_audit_record records[EGRESS_AUDIT_MAX_RECORDS];
	/* connections the proxy accepted past the last slot; with the slots
	 * that were not records (a connection cut before its request was
	 * read, or a slot that did not parse) */
	uint64_t dropped;
};

/* A new audit channel: a memory file of EGRESS_AUDIT_SIZE bytes, sealed
 * against growing and shrinking, close-on-exec. The descriptor, or -errno. */
int egress_log_channel_open(void);

/* Read the channel fd (every process that wrote to it gone, or past
 * caring) into a new log (*ret, egress_log_free()). 0, or -errno (-EINVAL:
 * the header is not one). */
int egress_log_read(int fd, struct egress_log **ret);

/* The records as the audit line's and the result's "network" array (new
 * reference): {host, port, kind, verdict, reason, bytesUp, bytesDown,
 * durationMs} each, host null when the request could not be read, reason
 * null when allowed and done. */
json_t *egress_log_to_json(const struct egress_log *log);

/* Set obj's "network" (egress_log_to_json()) and, when some connections
 * were not recorded, "networkDropped": the keys the result and the audit
 * line share. */
void egress_log_add_keys(json_t *obj, const struct egress_log *log);

/* Accepts NULL; returns NULL. */
struct egress_log *egress_log_free(struct egress_log *log);

#endif
