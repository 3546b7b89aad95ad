/* SPDX-License-Identifier: MIT */
/*
 * The typed messages a policy child sends its parent (OpenSSH's monitor
 * pattern): a fixed header, then a payload of NUL-terminated strings. The
 * parent checks every message against a table (known type, length within
 * bounds, the strings the type needs, all NUL-terminated) and treats anything
 * else as garbage from the plugin that was running.
 * Not for: what the messages mean to a request (policy-chain.c).
 */
#ifndef SLUICE_POLICY_MSG_H
#define SLUICE_POLICY_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum policy_msg_type {
	POLICY_MSG_BEGIN = 1,       /* value: POLICY_PHASE_*; the plugin is about to run */
	POLICY_MSG_REASON = 2,      /* value: verdict; payload: message, suggestion */
	POLICY_MSG_REWRITE = 3,     /* payload: the rewritten command */
	POLICY_MSG_OPEN_FAILED = 4, /* value: -errno; payload: the error text */
	POLICY_MSG_RESULT = 5,      /* value: check()'s return */
	POLICY_MSG_DONE = 6,        /* every plugin ran */
	POLICY_MSG_LOAD_FAILED = 7, /* value: -errno; payload: the loader's error text */
};

enum policy_phase { POLICY_PHASE_OPEN = 0, POLICY_PHASE_CHECK = 1 };

/*
 * Where a child is, kept in a word the parent shares with it (not sent):
 * 1 + the model's index in the child's list (high 32 bits), 1 + the
 * plugin's index (24 bits), the phase (8 bits); 0: no plugin begun. The
 * child stores it before plugin code runs, so that the parent can name a
 * plugin that crashed or hung though the messages go out once per model.
 */
static inline uint64_t policy_progress_at(size_t model, size_t plugin, enum policy_phase phase)
{
	return ((uint64_t)(model + 1) << 32) | ((uint64_t)((plugin + 1) & 0xffffff) << 8) |
	       (uint64_t)phase;
}

/* The plugin and phase of at when it is in model; false when it is not. */
static inline bool policy_progress_in(uint64_t at, size_t model, size_t *plugin,
                                      enum policy_phase *phase)
{
	size_t p = (size_t)((at >> 8) & 0xffffff);
	if ((at >> 32) != (uint64_t)model + 1 || p == 0)
		return false;
	*plugin = p - 1;
	*phase = (at & 0xff) == POLICY_PHASE_CHECK ? POLICY_PHASE_CHECK : POLICY_PHASE_OPEN;
	return true;
}

struct policy_msg_header {
	uint32_t type;
	uint32_t plugin; /* index in the chain */
	int32_t value;
	uint32_t len; /* payload bytes that follow */
};

/* Caps: one message's payload, one string in it. */
#define POLICY_MSG_MAX_PAYLOAD (80 * 1024)
#define POLICY_MSG_MAX_TEXT 1024

/* Send one message with n_strings strings as its payload (NULL is sent as
 * ""). Returns 0 or -errno from write(2). */
int policy_msg_send(int fd, enum policy_msg_type type, uint32_t plugin, int32_t value,
                    const char *const *strings, size_t n_strings);

/* Messages held back and written together, in order: fewer writes, and
 * fewer wake-ups of the reader. A policy child flushes before it calls
 * plugin code, so that what it said before a crash has arrived. */
struct policy_msg_batch {
	int fd;
	bool said; /* holds a plugin's REASON or REWRITE */
	size_t len;
	char buf[4096];
};

/* Add one message (as policy_msg_send()) to b; a message that does not
 * fit is written after what b holds. Returns 0 or -errno from write(2). */
int policy_msg_add(struct policy_msg_batch *b, enum policy_msg_type type, uint32_t plugin,
                   int32_t value, const char *const *strings, size_t n_strings);

/* Write what b holds. Returns 0 or -errno from write(2). */
int policy_msg_flush(struct policy_msg_batch *b);

/* Check a received header and payload against the table; on success
 * strings[0..n) point into payload. Returns 0, or -EBADMSG. */
int policy_msg_check(const struct policy_msg_header *h, const char *payload, const char **strings,
                     size_t max_strings);

#endif
