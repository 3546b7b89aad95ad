/* SPDX-License-Identifier: MIT */
/*
 * One connection's record on the egress proxy's audit channel
 * (common/egress-audit.h): written into its own slot once the verdict is
 * known, again now and then while an allowed connection relays (so that a
 * connection the run's end cuts shows the bytes counted so far), and last
 * when it ends. A write that fails is dropped: the connection is served
 * whatever happens to its record, and the broker counts the slot as empty.
 * Not for: the layout (common/egress-audit.h), judging the request
 * (egress-connect.c).
 */
#ifndef SLUICE_LAUNCHER_EGRESS_RECORD_H
#define SLUICE_LAUNCHER_EGRESS_RECORD_H

#include <stdint.h>

#include "egress-audit.h"

/* How often an open connection's record is brought up to date, and so how
 * long the relay waits for bytes before it brings it up to date anyway: a
 * burst followed by silence shows in the record a second later, not only
 * when the next byte passes (which a run cut at its end never sees). */
#define EGRESS_RECORD_PROGRESS_MS 1000

struct egress_recorder {
	int fd;            /* the audit channel, or -1: none */
	uint64_t index;    /* the connection's number: its slot is 1 + index */
	uint64_t start_ms; /* monotonic, when it was accepted */
	uint64_t written_ms;
	struct egress_audit_record rec;
};

/* A recorder for connection index on fd (-1: records go nowhere). */
void egress_recorder_init(struct egress_recorder *r, int fd, uint64_t index);

/* Write the record as it is now, its duration taken from the clock. */
void egress_recorder_write(struct egress_recorder *r);

/* egress_recorder_write(), at most once a second: for the relay's loop. */
void egress_recorder_progress(struct egress_recorder *r);

/* The header: connections accepted so far (the proxy's, before each
 * connection's fork). */
void egress_recorder_count(int fd, uint64_t connections);

#endif
