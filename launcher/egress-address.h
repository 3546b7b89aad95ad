/* SPDX-License-Identifier: MIT */
/*
 * Where a name on the egress allowlist may lead (egress-proxy.h): the
 * addresses it must not, judged by IANA's special-purpose registries for
 * IPv4 and IPv6 and by the machine's own addresses; and a name resolved as
 * an absolute name, so that the resolver's search list never makes
 * "intranet" into "intranet.corp.example".
 * Not for: the allowlist's patterns (common/egress-allow.h), which decide
 * before anything here is asked.
 */
#ifndef SLUICE_LAUNCHER_EGRESS_ADDRESS_H
#define SLUICE_LAUNCHER_EGRESS_ADDRESS_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "errors.h"

/* The most of the machine's own addresses kept, and of a name's. */
#define EGRESS_LOCAL_MAX 256
#define EGRESS_RESOLVED_MAX 16

/* The machine's own addresses (every interface's, in the host's network),
 * collected before the proxy is locked down. */
struct egress_local_addresses {
	size_t n;
	struct {
		int family;
		unsigned char addr[16]; /* IPv4 in the first 4 bytes */
	} a[EGRESS_LOCAL_MAX];
};

/* Collect them with getifaddrs(3) (a netlink socket: before the seccomp
 * filter, which refuses one), but those the special-purpose tables refuse
 * anyway. 0; -E2BIG with more than EGRESS_LOCAL_MAX (the proxy then does
 * not serve: an address left out would be reachable); -errno with a
 * detail. */
int egress_local_addresses_collect(struct egress_local_addresses *ret, struct sluice_error *err);

/* Whether addr (AF_INET: 4 bytes, AF_INET6: 16) is one a name on the
 * allowlist must not lead to: an address of IANA's special-purpose
 * registries (unspecified, loopback, private, shared, link-local,
 * documentation, benchmarking, reserved, multicast, broadcast, unique
 * local, discard, NAT64's local use, IETF protocol assignments) or one of
 * local's (may be NULL); an IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4
 * address by the IPv4 address in it. When it is, *what (may be NULL) says
 * which range. */
bool egress_address_is_internal(int family, const void *addr,
                                const struct egress_local_addresses *local, const char **what);

/* What an address is to a name on the allowlist. */
enum egress_address_kind {
	EGRESS_ADDRESS_PUBLIC,   /* outside the machine and its local networks */
	EGRESS_ADDRESS_INTERNAL, /* internal: a name of allow_internal may lead there */
	/* internal, and no name leads there, allow_internal's included:
	 * link-local (the clouds' metadata address 169.254.169.254), the
	 * clouds' metadata addresses outside it (fd00:ec2::254,
	 * 100.100.100.200), and what no server is reached at (unspecified,
	 * "this network", IPv4-compatible, multicast, reserved, broadcast,
	 * discard-only) */
	EGRESS_ADDRESS_NEVER,
};

/* egress_address_is_internal(), told apart: EGRESS_ADDRESS_PUBLIC where it
 * says false; else INTERNAL or NEVER, *what (may be NULL) naming the
 * range. */
enum egress_address_kind egress_address_judge(int family, const void *addr,
                                              const struct egress_local_addresses *local,
                                              const char **what);

/* A name's addresses, resolved. */
struct egress_resolved {
	size_t n;
	struct sockaddr_storage addr[EGRESS_RESOLVED_MAX];
	socklen_t len[EGRESS_RESOLVED_MAX];
};

/* Resolve name (a valid host name, no final dot) for port as an absolute
 * name: /etc/hosts' entries for it first (as the resolver reads them),
 * else DNS for "name." (the search list is never tried). 0, or -EHOSTUNREACH
 * with *why (why_size bytes) saying why not. */
int egress_resolve(const char *name, uint16_t port, struct egress_resolved *ret, char *why,
                   size_t why_size);

#endif
