/* SPDX-License-Identifier: MIT */
/*
 * pwrite(2) of one whole slot at the slot's own offset: the file is sealed
 * against growing, so a slot past the last (a connection beyond
 * EGRESS_AUDIT_MAX_RECORDS) is never written; the header counts it.
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "egress-record.h"
#include "monotonic.h"

void egress_recorder_init(struct egress_recorder *r, int fd, uint64_t index)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->index = index;
	r->start_ms = monotonic_ms();
	r->written_ms = r->start_ms;
}

void egress_recorder_write(struct egress_recorder *r)
{
	if (r->fd < 0 || r->index >= EGRESS_AUDIT_MAX_RECORDS)
		return;
	char slot[EGRESS_AUDIT_SLOT_SIZE];
	r->written_ms = monotonic_ms();
	r->rec.duration_ms = r->written_ms - r->start_ms;
	egress_audit_format(&r->rec, slot);
	(void)pwrite(r->fd, slot, sizeof(slot), (off_t)((r->index + 1) * EGRESS_AUDIT_SLOT_SIZE));
}

void egress_recorder_progress(struct egress_recorder *r)
{
	if (monotonic_ms() - r->written_ms >= EGRESS_RECORD_PROGRESS_MS)
		egress_recorder_write(r);
}

void egress_recorder_count(int fd, uint64_t connections)
{
	if (fd < 0)
		return;
	char slot[EGRESS_AUDIT_SLOT_SIZE];
	egress_audit_format_header(connections, slot);
	(void)pwrite(fd, slot, sizeof(slot), 0);
}
