/* SPDX-License-Identifier: MIT */
/*
 * The egress proxy's audit channel: the layout of the memory file the
 * broker makes (memfd, sized and sealed) and hands the launcher
 * (--egress-audit-fd), which the proxy's connections write their records
 * into and the broker reads once the run is over. Shared by both programs
 * so that the layout is written down once.
 *
 * Why a sealed memory file and not a pipe or a file in the jobs directory:
 * it has no path, so nothing in the sandbox can open it by name, and
 * nothing is left to remove; its size is fixed and sealed
 * (F_SEAL_GROW | F_SEAL_SHRINK), so the kernel bounds it whatever a
 * process holding it writes; each connection owns one fixed slot, so
 * records never interleave and need no framing, and a record can be
 * rewritten in place (a connection the run's end cut still shows, with the
 * bytes counted so far); and nobody has to read it while the run goes on
 * (a pipe would block the proxy, or lose records, once full).
 *
 * Layout: slot 0 the header, "EGRESS_AUDIT_MAGIC CONNECTIONS\n" (how many
 * connections the proxy accepted, so that those past the last slot are
 * counted); slot 1 + i the record of connection i, for i below
 * EGRESS_AUDIT_MAX_RECORDS, as text:
 * "HOST PORT KIND VERDICT REASON UP DOWN MS\n" ("-" for an unknown host or
 * no reason, 0 for an unknown port), NUL bytes after it to the slot's end.
 * VERDICT is "allowed" (on the list), "approved" (not on the list, and the
 * approver said yes: REASON "asked-yes", or "unfinished") or "refused".
 * An all-NUL slot is a connection that never got as far as a record.
 * Not for: writing the records (launcher/egress-record.c) or reading them
 * into a run's result (broker/run/egress-log.c).
 */
#ifndef SLUICE_EGRESS_AUDIT_H
#define SLUICE_EGRESS_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egress-allow.h"

#define EGRESS_AUDIT_SLOT_SIZE 512
#define EGRESS_AUDIT_MAX_RECORDS 256
#define EGRESS_AUDIT_SIZE ((EGRESS_AUDIT_MAX_RECORDS + 1) * EGRESS_AUDIT_SLOT_SIZE)
#define EGRESS_AUDIT_MAGIC "sluice-egress-audit/1"
/* The memory file's name, as /proc/PID/fd shows it ("/memfd:NAME"). */
#define EGRESS_AUDIT_MEMFD_NAME "sluice-egress-audit"

/* How the connection asked: CONNECT (a tunnel), a plain-HTTP request, or a
 * request that could not be read. */
enum egress_audit_kind {
	EGRESS_AUDIT_UNKNOWN,
	EGRESS_AUDIT_TUNNEL,
	EGRESS_AUDIT_HTTP,
};

/* Why a connection was refused, or did not end by itself; one word each in
 * the record and the audit line. */
enum egress_audit_reason {
	EGRESS_REASON_NONE,            /* allowed, and done */
	EGRESS_REASON_UNFINISHED,      /* allowed, still open when the run ended */
	EGRESS_REASON_NOT_LISTED,      /* the host:port is not in [network] allow */
	EGRESS_REASON_RESOLVES_LOCAL,  /* a name that leads to an internal address */
	EGRESS_REASON_LOOKUP_FAILED,   /* the name could not be resolved */
	EGRESS_REASON_UPSTREAM_FAILED, /* the connection to the host failed */
	EGRESS_REASON_BAD_REQUEST,     /* a request the proxy does not take */
	EGRESS_REASON_HEAD_TIMEOUT,    /* the request's head did not arrive in time */
	EGRESS_REASON_CLIENT_GONE,     /* the client closed before its request was read */
	/* a host not on the list, put to the broker's approver (common/egress-ask.h) */
	EGRESS_REASON_ASKED_YES,   /* approved, and done */
	EGRESS_REASON_ASKED_NO,    /* the approver said no (or there is none to ask) */
	EGRESS_REASON_ASK_TIMEOUT, /* nobody answered in time */
	EGRESS_REASON_ASK_LIMIT,   /* the run's questions were used up */
	EGRESS_REASON_ASK_FAILED,  /* the channel closed, or its answer was not one */
	/* an IP literal off the list in a special-purpose range, or one of the
	 * machine's own addresses: never asked about (but under
	 * --egress-ask-internal) */
	EGRESS_REASON_INTERNAL_ADDRESS,
	/* a request without the run's own proxy credentials: another run's
	 * process in the workspace's network namespace (egress-connect.h) */
	EGRESS_REASON_NOT_THIS_RUN,
	EGRESS_REASON_N,
};

struct egress_audit_record {
	char host[EGRESS_HOST_MAX]; /* "" when the request could not be read */
	uint16_t port;              /* 0: unknown */
	enum egress_audit_kind kind;
	bool allowed;
	bool approved; /* allowed because the approver said yes */
	enum egress_audit_reason reason;
	uint64_t bytes_up;   /* from the client to the host (the rewritten head included) */
	uint64_t bytes_down; /* from the host to the client */
	uint64_t duration_ms;
};

/* The words of the record and the audit line ("tunnel", "not-listed"...). */
const char *egress_audit_kind_name(enum egress_audit_kind kind);
const char *egress_audit_reason_name(enum egress_audit_reason reason);

/* rec's VERDICT word: "allowed", "approved" or "refused". */
const char *egress_audit_verdict_name(const struct egress_audit_record *rec);

/* rec as a slot's text, NUL bytes to the end of slot. */
void egress_audit_format(const struct egress_audit_record *rec, char slot[EGRESS_AUDIT_SLOT_SIZE]);

/* The header slot for connections accepted. */
void egress_audit_format_header(uint64_t connections, char slot[EGRESS_AUDIT_SLOT_SIZE]);

/* Read a slot: 1 and *rec, 0 for an empty (all-NUL) slot, -EINVAL for one
 * that is not a record (never taken on trust: a host of other characters
 * than a host's, an unknown word, a number out of range). */
int egress_audit_parse(const char slot[EGRESS_AUDIT_SLOT_SIZE], struct egress_audit_record *rec);

/* Read the header slot: the connections accepted, 0 for an empty slot (no
 * proxy ran), -EINVAL for one that is not a header. */
int64_t egress_audit_parse_header(const char slot[EGRESS_AUDIT_SLOT_SIZE]);

#endif
