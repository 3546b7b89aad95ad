/* SPDX-License-Identifier: MIT */
/*
 * The ranges are IANA's IPv4 and IPv6 Special-Purpose Address Registries,
 * whatever their "globally reachable" column says (192.0.0.9/32 and the
 * anycast blocks in 2001::/23 go with their block): a name an administrator
 * allowed is for a public service, and none of these is one. Four are left
 * out on purpose, public anycast services with no local or private use:
 * 192.31.196.0/24 (AS112), 192.52.193.0/24 (AMT), 192.175.48.0/24 and
 * 2620:4f:8000::/48 (Direct Delegation AS112).
 * The machine's own public addresses are refused like its loopback: a
 * service listening on all interfaces answers on them too.
 * A name the administrator said may lead inside ([network] allow_internal:
 * a registry or a mirror on a private network, or on this machine) still
 * never leads to the ranges marked "never": no registry lives at a
 * link-local address, and the clouds' metadata services, which hand out
 * the machine's credentials, do (169.254.169.254, and the two outside that
 * range: AWS's IPv6 fd00:ec2::254 and Alibaba's 100.100.100.200); nor to
 * an address no server is reached at ("this network", unspecified,
 * multicast, reserved, broadcast, discard-only), where 0.0.0.0 would be
 * the loopback to Linux's connect(2).
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "egress-address.h"

/* One range: the first bits bits of prefix; never: not even a name of
 * allow_internal leads there. The first range that holds an address
 * judges it. */
struct address_range {
	unsigned char prefix[16];
	unsigned bits;
	const char *what;
	bool never;
};

static const struct address_range ipv4_ranges[] = {
	{ { 0 }, 8, "'this network' 0.0.0.0/8", true },
	{ { 10 }, 8, "private 10.0.0.0/8", false },
	{ { 100, 100, 100, 200 }, 32, "cloud metadata 100.100.100.200", true },
	{ { 100, 64 }, 10, "shared 100.64.0.0/10", false },
	{ { 127 }, 8, "loopback 127.0.0.0/8", false },
	{ { 169, 254 }, 16, "link-local 169.254.0.0/16 (cloud metadata)", true },
	{ { 172, 16 }, 12, "private 172.16.0.0/12", false },
	{ { 192, 0, 0 }, 24, "IETF protocol assignments 192.0.0.0/24", false },
	{ { 192, 0, 2 }, 24, "documentation 192.0.2.0/24", false },
	{ { 192, 88, 99 }, 24, "6to4 relay anycast 192.88.99.0/24", false },
	{ { 192, 168 }, 16, "private 192.168.0.0/16", false },
	{ { 198, 18 }, 15, "benchmarking 198.18.0.0/15", false },
	{ { 198, 51, 100 }, 24, "documentation 198.51.100.0/24", false },
	{ { 203, 0, 113 }, 24, "documentation 203.0.113.0/24", false },
	{ { 224 }, 4, "multicast 224.0.0.0/4", true },
	{ { 240 }, 4, "reserved 240.0.0.0/4 and broadcast", true },
};

static const struct address_range ipv6_ranges[] = {
	{ { [15] = 1 }, 128, "loopback ::1", false },
	{ { 0 }, 96, "unspecified or IPv4-compatible ::/96", true },
	{ { 0, 0x64, 0xff, 0x9b, 0, 1 }, 48, "NAT64 local use 64:ff9b:1::/48", false },
	{ { 1, 0 }, 64, "discard-only 100::/64", true },
	{ { 0x20, 0x01 }, 23, "IETF protocol assignments 2001::/23", false },
	{ { 0x20, 0x01, 0x0d, 0xb8 }, 32, "documentation 2001:db8::/32", false },
	{ { 0x3f, 0xff }, 20, "documentation 3fff::/20", false },
	{ { 0x5f, 0x00 }, 16, "segment routing 5f00::/16", false },
	{ { 0xfd, 0x00, 0x0e, 0xc2, [14] = 0x02, [15] = 0x54 },
	  128,
	  "cloud metadata fd00:ec2::254",
	  true },
	{ { 0xfc }, 7, "unique local fc00::/7", false },
	{ { 0xfe, 0x80 }, 10, "link-local fe80::/10", true },
	{ { 0xfe, 0xc0 }, 10, "site-local fec0::/10", false },
	{ { 0xff }, 8, "multicast ff00::/8", true },
};

/* IPv6 ranges that carry an IPv4 address, judged by it: where it starts. */
static const struct {
	struct address_range range;
	size_t v4_at;
} ipv6_embedding[] = {
	{ { { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff }, 96, "IPv4-mapped", false }, 12 },
	{ { { 0, 0x64, 0xff, 0x9b }, 96, "NAT64 64:ff9b::/96", false }, 12 },
	{ { { 0x20, 0x02 }, 16, "6to4 2002::/16", false }, 2 },
};

static bool in_range(const unsigned char *a, const struct address_range *r)
{
	size_t whole = r->bits / 8;
	if (memcmp(a, r->prefix, whole) != 0)
		return false;
	unsigned rest = r->bits % 8;
	if (rest == 0)
		return true;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (a[whole] & mask) == (r->prefix[whole] & mask);
}

enum egress_address_kind egress_address_judge(int family, const void *addr,
                                              const struct egress_local_addresses *local,
                                              const char **what)
{
	const unsigned char *a = addr;
	const char *ignored;
	if (!what)
		what = &ignored;
	if (family == AF_INET6)
		for (size_t i = 0; i < ELEMENTSOF(ipv6_embedding); i++)
			if (in_range(a, &ipv6_embedding[i].range))
				return egress_address_judge(AF_INET, a + ipv6_embedding[i].v4_at,
				                            local, what);
	const struct address_range *ranges = family == AF_INET6 ? ipv6_ranges : ipv4_ranges;
	size_t n = family == AF_INET6 ? ELEMENTSOF(ipv6_ranges) : ELEMENTSOF(ipv4_ranges);
	for (size_t i = 0; i < n; i++)
		if (in_range(a, &ranges[i])) {
			*what = ranges[i].what;
			return ranges[i].never ? EGRESS_ADDRESS_NEVER : EGRESS_ADDRESS_INTERNAL;
		}
	size_t len = family == AF_INET6 ? 16 : 4;
	for (size_t i = 0; local && i < local->n; i++)
		if (local->a[i].family == family && memcmp(local->a[i].addr, a, len) == 0) {
			*what = "an address of this machine";
			return EGRESS_ADDRESS_INTERNAL;
		}
	return EGRESS_ADDRESS_PUBLIC;
}

bool egress_address_is_internal(int family, const void *addr,
                                const struct egress_local_addresses *local, const char **what)
{
	return egress_address_judge(family, addr, local, what) != EGRESS_ADDRESS_PUBLIC;
}

int egress_local_addresses_collect(struct egress_local_addresses *ret, struct sluice_error *err)
{
	memset(ret, 0, sizeof(*ret));
	struct ifaddrs *list = NULL;
	if (getifaddrs(&list) < 0)
		return sluice_error_set(err, neg_errno(), "listing this machine's addresses");
	for (struct ifaddrs *i = list; i; i = i->ifa_next) {
		if (!i->ifa_addr ||
		    (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6))
			continue;
		int family = i->ifa_addr->sa_family;
		const void *addr =
		        family == AF_INET
		                ? (const void *)&((struct sockaddr_in *)i->ifa_addr)->sin_addr
		                : (const void *)&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
		/* the tables refuse it anyway (loopback, private, link-local...) */
		if (egress_address_is_internal(family, addr, NULL, NULL))
			continue;
		if (ret->n == EGRESS_LOCAL_MAX) {
			/* an address not kept would be reachable: refuse to serve */
			freeifaddrs(list);
			return sluice_error_set(err, -E2BIG,
			                        "this machine has more than %d public addresses",
			                        EGRESS_LOCAL_MAX);
		}
		ret->a[ret->n].family = family;
		memcpy(ret->a[ret->n].addr, addr, family == AF_INET ? 4 : 16);
		ret->n++;
	}
	freeifaddrs(list);
	return 0;
}

/* Add addr (len bytes) to ret, unless full. */
static void add_resolved(struct egress_resolved *ret, const struct sockaddr *addr, socklen_t len)
{
	if (ret->n == EGRESS_RESOLVED_MAX || len > sizeof(ret->addr[0]))
		return;
	memcpy(&ret->addr[ret->n], addr, len);
	ret->len[ret->n++] = len;
}

/* /etc/hosts' addresses for name, as the resolver's files service reads
 * the file: "ADDRESS NAME [ALIAS...]", '#' to the line's end. */
static void hosts_lookup(const char *name, uint16_t port, struct egress_resolved *ret)
{
	_cleanup_fclose_ FILE *f = fopen("/etc/hosts", "re");
	char line[1024];
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "#\n")] = '\0';
		char *save = NULL, *address = strtok_r(line, " \t", &save);
		for (char *word = address ? strtok_r(NULL, " \t", &save) : NULL; word;
		     word = strtok_r(NULL, " \t", &save)) {
			size_t len = strlen(word);
			if (len > 1 && word[len - 1] == '.')
				word[--len] = '\0';
			if (strcasecmp(word, name) != 0)
				continue;
			struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
			struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
				                     .sin6_port = htons(port) };
			if (inet_pton(AF_INET, address, &sin.sin_addr) == 1)
				add_resolved(ret, (struct sockaddr *)&sin, sizeof(sin));
			else if (inet_pton(AF_INET6, address, &sin6.sin6_addr) == 1)
				add_resolved(ret, (struct sockaddr *)&sin6, sizeof(sin6));
			break;
		}
	}
}

int egress_resolve(const char *name, uint16_t port, struct egress_resolved *ret, char *why,
                   size_t why_size)
{
	memset(ret, 0, sizeof(*ret));
	hosts_lookup(name, port, ret);
	if (ret->n > 0)
		return 0;
	/* the final dot: an absolute name, which no resolver completes with
	 * its search list (musl's and glibc's alike) */
	char absolute[NI_MAXHOST + 2], service[8];
	snprintf(absolute, sizeof(absolute), "%s.", name);
	snprintf(service, sizeof(service), "%u", (unsigned)port);
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
		                  .ai_socktype = SOCK_STREAM,
		                  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *list = NULL;
	int g = getaddrinfo(absolute, service, &hints, &list);
	if (g != 0) {
		snprintf(why, why_size, "cannot resolve it: %s", gai_strerror(g));
		return -EHOSTUNREACH;
	}
	for (struct addrinfo *ai = list; ai; ai = ai->ai_next)
		if (ai->ai_family == AF_INET || ai->ai_family == AF_INET6)
			add_resolved(ret, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(list);
	return 0;
}
