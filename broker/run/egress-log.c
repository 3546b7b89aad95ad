/* SPDX-License-Identifier: MIT */
/*
 * The audit channel's memory file made and read. It is read with pread(2)
 * one slot at a time: a channel of another size (never made here) is read
 * no further than EGRESS_AUDIT_SIZE.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "run/egress-log.h"

int egress_log_channel_open(void)
{
	_cleanup_close_ int fd =
	        memfd_create(EGRESS_AUDIT_MEMFD_NAME, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return neg_errno();
	if (ftruncate(fd, EGRESS_AUDIT_SIZE) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) < 0)
		return neg_errno();
	return TAKE_FD(fd);
}

/* Slot i of fd into slot; 0, or -errno (-EIO for a short read). */
static int read_slot(int fd, size_t i, char slot[EGRESS_AUDIT_SLOT_SIZE])
{
	ssize_t n;
	do
		n = pread(fd, slot, EGRESS_AUDIT_SLOT_SIZE, (off_t)(i * EGRESS_AUDIT_SLOT_SIZE));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return neg_errno();
	return n == EGRESS_AUDIT_SLOT_SIZE ? 0 : -EIO;
}

int egress_log_read(int fd, struct egress_log **ret)
{
	*ret = NULL;
	char slot[EGRESS_AUDIT_SLOT_SIZE];
	int r = read_slot(fd, 0, slot);
	if (r < 0)
		return r;
	int64_t accepted = egress_audit_parse_header(slot);
	if (accepted < 0)
		return (int)accepted;
	struct egress_log *log = calloc(1, sizeof(*log));
	if (!log)
		return -ENOMEM;
	uint64_t slots = (uint64_t)accepted < EGRESS_AUDIT_MAX_RECORDS ? (uint64_t)accepted
	                                                               : EGRESS_AUDIT_MAX_RECORDS;
	log->dropped = (uint64_t)accepted - slots;
	for (uint64_t i = 0; i < slots; i++) {
		r = read_slot(fd, (size_t)i + 1, slot);
		if (r < 0) {
			egress_log_free(log);
			return r;
		}
		if (egress_audit_parse(slot, &log->records[log->n]) == 1)
			log->n++;
		else
			log->dropped++;
	}
	*ret = log;
	return 0;
}

json_t *egress_log_to_json(const struct egress_log *log)
{
	json_t *a = json_array();
	for (size_t i = 0; a && log && i < log->n; i++) {
		const struct egress_audit_record *rec = &log->records[i];
		json_t *o = json_object();
		if (!o)
			break;
		json_object_set_new(o, "host", rec->host[0] ? json_string(rec->host) : json_null());
		json_object_set_new(o, "port", rec->port ? json_integer(rec->port) : json_null());
		json_object_set_new(o, "kind", json_string(egress_audit_kind_name(rec->kind)));
		json_object_set_new(o, "verdict", json_string(egress_audit_verdict_name(rec)));
		json_object_set_new(o, "reason",
		                    rec->reason == EGRESS_REASON_NONE
		                            ? json_null()
		                            : json_string(egress_audit_reason_name(rec->reason)));
		json_object_set_new(o, "bytesUp", json_integer((json_int_t)rec->bytes_up));
		json_object_set_new(o, "bytesDown", json_integer((json_int_t)rec->bytes_down));
		json_object_set_new(o, "durationMs", json_integer((json_int_t)rec->duration_ms));
		json_array_append_new(a, o);
	}
	return a;
}

void egress_log_add_keys(json_t *obj, const struct egress_log *log)
{
	json_object_set_new(obj, "network", egress_log_to_json(log));
	if (log->dropped > 0)
		json_object_set_new(obj, "networkDropped", json_integer((json_int_t)log->dropped));
}

struct egress_log *egress_log_free(struct egress_log *log)
{
	free(log);
	return NULL;
}
