/* SPDX-License-Identifier: MIT */
/*
 * Records of the egress proxy's audit channel as text and back. The reader
 * trusts nothing it reads: every word is checked against the words a
 * record may hold, the host read as the allowlist reads one.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "egress-audit.h"
#include "parse-number.h"

static const char *const kind_names[] = {
	[EGRESS_AUDIT_UNKNOWN] = "unknown",
	[EGRESS_AUDIT_TUNNEL] = "tunnel",
	[EGRESS_AUDIT_HTTP] = "http",
};

static const char *const reason_names[EGRESS_REASON_N] = {
	[EGRESS_REASON_NONE] = "-",
	[EGRESS_REASON_UNFINISHED] = "unfinished",
	[EGRESS_REASON_NOT_LISTED] = "not-listed",
	[EGRESS_REASON_RESOLVES_LOCAL] = "resolves-local",
	[EGRESS_REASON_LOOKUP_FAILED] = "lookup-failed",
	[EGRESS_REASON_UPSTREAM_FAILED] = "upstream-failed",
	[EGRESS_REASON_BAD_REQUEST] = "bad-request",
	[EGRESS_REASON_HEAD_TIMEOUT] = "head-timeout",
	[EGRESS_REASON_CLIENT_GONE] = "client-gone",
	[EGRESS_REASON_ASKED_YES] = "asked-yes",
	[EGRESS_REASON_ASKED_NO] = "asked-no",
	[EGRESS_REASON_ASK_TIMEOUT] = "ask-timeout",
	[EGRESS_REASON_ASK_LIMIT] = "ask-limit",
	[EGRESS_REASON_ASK_FAILED] = "ask-failed",
	[EGRESS_REASON_INTERNAL_ADDRESS] = "internal-address",
	[EGRESS_REASON_NOT_THIS_RUN] = "not-this-run",
};

const char *egress_audit_kind_name(enum egress_audit_kind kind)
{
	return (size_t)kind < ELEMENTSOF(kind_names) ? kind_names[kind] : "unknown";
}

const char *egress_audit_reason_name(enum egress_audit_reason reason)
{
	return (size_t)reason < ELEMENTSOF(reason_names) ? reason_names[reason] : "-";
}

const char *egress_audit_verdict_name(const struct egress_audit_record *rec)
{
	return !rec->allowed ? "refused" : rec->approved ? "approved" : "allowed";
}

void egress_audit_format(const struct egress_audit_record *rec, char slot[EGRESS_AUDIT_SLOT_SIZE])
{
	memset(slot, 0, EGRESS_AUDIT_SLOT_SIZE);
	/* a host is at most EGRESS_HOST_MAX - 1 bytes: the line always fits */
	snprintf(slot, EGRESS_AUDIT_SLOT_SIZE,
	         "%s %u %s %s %s %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
	         rec->host[0] ? rec->host : "-", (unsigned)rec->port,
	         egress_audit_kind_name(rec->kind), egress_audit_verdict_name(rec),
	         egress_audit_reason_name(rec->reason), rec->bytes_up, rec->bytes_down,
	         rec->duration_ms);
}

void egress_audit_format_header(uint64_t connections, char slot[EGRESS_AUDIT_SLOT_SIZE])
{
	memset(slot, 0, EGRESS_AUDIT_SLOT_SIZE);
	snprintf(slot, EGRESS_AUDIT_SLOT_SIZE, "%s %" PRIu64 "\n", EGRESS_AUDIT_MAGIC, connections);
}

/* Whether the slot holds nothing but NUL bytes. */
static bool slot_empty(const char slot[EGRESS_AUDIT_SLOT_SIZE])
{
	for (size_t i = 0; i < EGRESS_AUDIT_SLOT_SIZE; i++)
		if (slot[i])
			return false;
	return true;
}

/* The slot's line, NUL-terminated, into line (without its newline); -EINVAL
 * when it has no newline or bytes other than NUL follow it. */
static int slot_line(const char slot[EGRESS_AUDIT_SLOT_SIZE], char line[EGRESS_AUDIT_SLOT_SIZE])
{
	const char *nl = memchr(slot, '\n', EGRESS_AUDIT_SLOT_SIZE);
	if (!nl)
		return -EINVAL;
	size_t len = (size_t)(nl - slot);
	if (memchr(slot, '\0', len))
		return -EINVAL;
	for (size_t i = len + 1; i < EGRESS_AUDIT_SLOT_SIZE; i++)
		if (slot[i])
			return -EINVAL;
	memcpy(line, slot, len);
	line[len] = '\0';
	return 0;
}

/* The index of word in names (n of them), or -EINVAL. */
static int word_index(const char *word, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(word, names[i]) == 0)
			return (int)i;
	return -EINVAL;
}

/* A host as a record holds it: "-", a name, an IPv4 or an IPv6 address. */
static int parse_host(const char *word, char host[EGRESS_HOST_MAX])
{
	host[0] = '\0';
	if (strcmp(word, "-") == 0)
		return 0;
	char text[EGRESS_HOST_MAX + 2];
	size_t len = strlen(word);
	if (len + 2 >= sizeof(text))
		return -EINVAL;
	/* an IPv6 address is written without its brackets */
	snprintf(text, sizeof(text), strchr(word, ':') ? "[%s]" : "%s", word);
	struct egress_host parsed;
	struct sluice_error err = { 0 };
	if (egress_host_parse(text, strlen(text), &parsed, &err) < 0 ||
	    strcmp(parsed.name, word) != 0)
		return -EINVAL;
	memcpy(host, parsed.name, EGRESS_HOST_MAX);
	return 0;
}

int egress_audit_parse(const char slot[EGRESS_AUDIT_SLOT_SIZE], struct egress_audit_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	if (slot_empty(slot))
		return 0;
	char line[EGRESS_AUDIT_SLOT_SIZE];
	if (slot_line(slot, line) < 0)
		return -EINVAL;
	char *words[8], *save = NULL;
	size_t n = 0;
	for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (n == ELEMENTSOF(words))
			return -EINVAL;
		words[n++] = w;
	}
	uint64_t port;
	if (n != ELEMENTSOF(words) || parse_host(words[0], rec->host) < 0 ||
	    parse_uint64(words[1], 65535, &port) < 0)
		return -EINVAL;
	rec->port = (uint16_t)port;
	int kind = word_index(words[2], kind_names, ELEMENTSOF(kind_names));
	int reason = word_index(words[4], reason_names, ELEMENTSOF(reason_names));
	bool approved = strcmp(words[3], "approved") == 0;
	bool allowed = approved || strcmp(words[3], "allowed") == 0;
	if (kind < 0 || reason < 0 || (!allowed && strcmp(words[3], "refused") != 0) ||
	    /* INT64_MAX: what a JSON integer of the result holds */
	    parse_uint64(words[5], INT64_MAX, &rec->bytes_up) < 0 ||
	    parse_uint64(words[6], INT64_MAX, &rec->bytes_down) < 0 ||
	    parse_uint64(words[7], INT64_MAX, &rec->duration_ms) < 0)
		return -EINVAL;
	/* an allowed connection has no reason but "unfinished", an approved one
	 * "asked-yes" or "unfinished"; a refused one always has one of its own */
	bool through = reason == EGRESS_REASON_UNFINISHED ||
	               reason == (approved ? EGRESS_REASON_ASKED_YES : EGRESS_REASON_NONE);
	if (allowed != through ||
	    (!allowed && (reason == EGRESS_REASON_NONE || reason == EGRESS_REASON_ASKED_YES)))
		return -EINVAL;
	rec->kind = (enum egress_audit_kind)kind;
	rec->reason = (enum egress_audit_reason)reason;
	rec->allowed = allowed;
	rec->approved = approved;
	return 1;
}

int64_t egress_audit_parse_header(const char slot[EGRESS_AUDIT_SLOT_SIZE])
{
	if (slot_empty(slot))
		return 0;
	char line[EGRESS_AUDIT_SLOT_SIZE];
	static const char magic[] = EGRESS_AUDIT_MAGIC " ";
	uint64_t n;
	if (slot_line(slot, line) < 0 || strncmp(line, magic, sizeof(magic) - 1) != 0 ||
	    parse_uint64(line + sizeof(magic) - 1, INT64_MAX, &n) < 0)
		return -EINVAL;
	return (int64_t)n;
}
