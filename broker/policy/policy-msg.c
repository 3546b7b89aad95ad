/* SPDX-License-Identifier: MIT */
/*
 * Encoding and checking the policy child's messages.
 * Not for: the request logic (policy-chain.c).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "fd-util.h"
#include "policy/policy-msg.h"
#include "sluice/policy.h"

/* What each type must carry: its number of strings, and the values allowed. */
static const struct {
	uint32_t type;
	size_t strings;
	int32_t min_value, max_value;
} msg_table[] = {
	{ POLICY_MSG_BEGIN, 0, POLICY_PHASE_OPEN, POLICY_PHASE_CHECK },
	{ POLICY_MSG_REASON, 2, SLUICE_ALLOW, SLUICE_DENY },
	{ POLICY_MSG_REWRITE, 1, 0, 0 },
	{ POLICY_MSG_OPEN_FAILED, 1, -4095, -1 },
	{ POLICY_MSG_RESULT, 0, INT32_MIN, INT32_MAX }, /* the chain judges check()'s value */
	{ POLICY_MSG_DONE, 0, 0, 0 },
	{ POLICY_MSG_LOAD_FAILED, 1, -4095, -1 },
};

/* The payload's length, or -E2BIG. */
static ssize_t payload_length(const char *const *strings, size_t n_strings)
{
	size_t len = 0;
	for (size_t i = 0; i < n_strings; i++)
		len += strlen(strings[i] ? strings[i] : "") + 1;
	return len > POLICY_MSG_MAX_PAYLOAD ? -E2BIG : (ssize_t)len;
}

/* The message, its payload len bytes long, into dst. */
static void encode(char *dst, enum policy_msg_type type, uint32_t plugin, int32_t value,
                   const char *const *strings, size_t n_strings, size_t len)
{
	struct policy_msg_header h = {
		.type = type, .plugin = plugin, .value = value, .len = (uint32_t)len
	};
	memcpy(dst, &h, sizeof(h));
	char *p = dst + sizeof(h);
	for (size_t i = 0; i < n_strings; i++) {
		const char *s = strings[i] ? strings[i] : "";
		size_t n = strlen(s) + 1;
		memcpy(p, s, n);
		p += n;
	}
}

int policy_msg_send(int fd, enum policy_msg_type type, uint32_t plugin, int32_t value,
                    const char *const *strings, size_t n_strings)
{
	ssize_t len = payload_length(strings, n_strings);
	if (len < 0)
		return (int)len;
	_cleanup_free_ char *buf = malloc(sizeof(struct policy_msg_header) + (size_t)len);
	if (!buf)
		return -ENOMEM;
	encode(buf, type, plugin, value, strings, n_strings, (size_t)len);
	return write_full(fd, buf, sizeof(struct policy_msg_header) + (size_t)len);
}

int policy_msg_flush(struct policy_msg_batch *b)
{
	int r = b->len ? write_full(b->fd, b->buf, b->len) : 0;
	b->len = 0;
	b->said = false;
	return r < 0 ? r : 0;
}

int policy_msg_add(struct policy_msg_batch *b, enum policy_msg_type type, uint32_t plugin,
                   int32_t value, const char *const *strings, size_t n_strings)
{
	ssize_t len = payload_length(strings, n_strings);
	if (len < 0)
		return (int)len;
	size_t size = sizeof(struct policy_msg_header) + (size_t)len;
	if (size > sizeof(b->buf) - b->len) {
		int r = policy_msg_flush(b);
		if (r < 0)
			return r;
		if (size > sizeof(b->buf))
			return policy_msg_send(b->fd, type, plugin, value, strings, n_strings);
	}
	encode(b->buf + b->len, type, plugin, value, strings, n_strings, (size_t)len);
	b->len += size;
	b->said = b->said || type == POLICY_MSG_REASON || type == POLICY_MSG_REWRITE;
	return 0;
}

int policy_msg_check(const struct policy_msg_header *h, const char *payload, const char **strings,
                     size_t max_strings)
{
	for (size_t t = 0; t < ELEMENTSOF(msg_table); t++) {
		if (msg_table[t].type != h->type)
			continue;
		if (h->len > POLICY_MSG_MAX_PAYLOAD || msg_table[t].strings > max_strings)
			return -EBADMSG;
		if (h->value < msg_table[t].min_value || h->value > msg_table[t].max_value)
			return -EBADMSG;
		size_t off = 0;
		for (size_t i = 0; i < msg_table[t].strings; i++) {
			const char *nul =
			        off < h->len ? memchr(payload + off, '\0', h->len - off) : NULL;
			if (!nul)
				return -EBADMSG;
			strings[i] = payload + off;
			off = (size_t)(nul - payload) + 1;
		}
		return off == h->len ? 0 : -EBADMSG;
	}
	return -EBADMSG;
}
