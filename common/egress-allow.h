/* SPDX-License-Identifier: MIT */
/*
 * The egress allowlist ([network] allow, sluice-launch --egress-allow): its
 * patterns read and checked, and a host a command asks for matched against
 * them. A pattern is an exact host name ("registry.example.org"), a suffix
 * ("*.example.org": every name below it, not the name itself) or an IP
 * literal ("192.0.2.7", "[2001:db8::7]"), each with an optional ":PORT";
 * without one it allows 443 and 80.
 * The names that may also lead to an address of the machine or its local
 * networks ([network] allow_internal) are patterns of the same kind, each
 * within allow's.
 * Shared by the broker (which refuses a bad pattern when it reads the
 * configuration) and the launcher's proxy (which matches requests).
 * Not for: resolving names or judging addresses (launcher/egress-connect.c).
 */
#ifndef SLUICE_EGRESS_ALLOW_H
#define SLUICE_EGRESS_ALLOW_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errors.h"

/* The longest host name DNS allows (253) and its NUL, with room for the
 * brackets of an IPv6 literal. */
#define EGRESS_HOST_MAX 256

/* A host as written: a name (lowercase, no final dot) or an IP literal. */
struct egress_host {
	char name[EGRESS_HOST_MAX]; /* the name; an IP literal in its usual text form */
	int family;                 /* 0: a name; AF_INET or AF_INET6: an IP literal */
	struct in6_addr addr;       /* the literal's address (IPv4 in the first 4 bytes) */
};

/* One pattern. */
struct egress_rule {
	struct egress_host host; /* for a suffix, the name below which names match */
	bool suffix;             /* "*.NAME" */
	uint16_t port;           /* 0: 443 and 80 */
};

/* Read text as a host: a name of letters, digits, '-' and '.' (labels of 1
 * to 63 characters, at most 253 in all; a final '.' is dropped; folded to
 * lowercase), a dotted IPv4 address, or an IPv6 address in brackets.
 * 0, or -EINVAL with a detail naming what is wrong. */
int egress_host_parse(const char *text, size_t len, struct egress_host *ret,
                      struct sluice_error *err);

/* Read one pattern, HOST[:PORT] or *.NAME[:PORT]. 0, or -EINVAL with a
 * detail naming the pattern and what is wrong with it. */
int egress_rule_parse(const char *pattern, struct egress_rule *ret, struct sluice_error *err);

/* The first rule that allows host on port, or NULL; tunnel: a CONNECT
 * (else a plain-HTTP request). A rule without a port allows a tunnel to
 * 443 and a plain-HTTP request to 80, not the other way round; a rule with
 * a port allows both to that port. A name matches name rules only
 * (exactly, or below a suffix); an IP literal matches IP rules of the same
 * address only: a name is never taken for the address it might resolve
 * to. */
const struct egress_rule *egress_rules_match(const struct egress_rule *rules, size_t n,
                                             const struct egress_host *host, uint16_t port,
                                             bool tunnel);

/* Whether rules (n of them) allow everything rule does: for each way rule
 * lets a connection through (a tunnel and plain HTTP, to its port or to
 * 443 and 80), one of rules lets it through for every host rule matches
 * (a name: the same name, or a suffix above it; a suffix: the same or a
 * shorter suffix; an IP literal: the same address). */
bool egress_rule_covered(const struct egress_rule *rule, const struct egress_rule *rules, size_t n);

/* Read one pattern of the names that may also lead to internal addresses
 * ([network] allow_internal, --egress-allow-internal) into *ret: a name or
 * a suffix (an IP literal of the allowlist already leads where it says),
 * covered by the allowlist, allow (n rules, named allow_name in the
 * detail; egress_rule_covered()). 0, or -EINVAL with a detail naming the
 * pattern and what is wrong. */
int egress_internal_rule_parse(const char *pattern, const struct egress_rule *allow, size_t n,
                               const char *allow_name, struct egress_rule *ret,
                               struct sluice_error *err);

#endif
