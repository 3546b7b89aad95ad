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
#include "policy-msg.h"
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

int policy_msg_send(int fd, enum policy_msg_type type, uint32_t plugin, int32_t value,
                    const char *const *strings, size_t n_strings)
{
	size_t len = 0;
	for (size_t i = 0; i < n_strings; i++)
		len += strlen(strings[i] ? strings[i] : "") + 1;
	if (len > POLICY_MSG_MAX_PAYLOAD)
		return -E2BIG;
	_cleanup_free_ char *buf = malloc(sizeof(struct policy_msg_header) + len);
	if (!buf)
		return -ENOMEM;
	struct policy_msg_header h = {
		.type = type, .plugin = plugin, .value = value, .len = (uint32_t)len
	};
	memcpy(buf, &h, sizeof(h));
	char *p = buf + sizeof(h);
	for (size_t i = 0; i < n_strings; i++) {
		const char *s = strings[i] ? strings[i] : "";
		size_t n = strlen(s) + 1;
		memcpy(p, s, n);
		p += n;
	}
	return write_full(fd, buf, sizeof(h) + len);
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
