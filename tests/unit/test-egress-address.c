/* SPDX-License-Identifier: MIT */
/*
 * launcher/egress-address.c: the addresses a name on the allowlist must
 * not lead to. The rows are IANA's special-purpose ranges, each at its
 * edges, and the public neighbours just outside them, which must pass;
 * and the registry's four public anycast ranges, which must pass too.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <string.h>

#include "egress-address.h"

struct address_case {
	const char *address;
	bool internal;
};

static const struct address_case cases[] = {
	{ "0.0.0.0", true },
	{ "0.255.255.255", true },
	{ "1.0.0.0", false },
	{ "10.1.2.3", true },
	{ "100.63.255.255", false },
	{ "100.64.0.0", true },
	{ "100.127.255.255", true },
	{ "100.128.0.0", false },
	{ "127.0.0.1", true },
	{ "169.254.169.254", true },
	{ "172.15.255.255", false },
	{ "172.16.0.1", true },
	{ "172.31.255.255", true },
	{ "172.32.0.0", false },
	{ "192.0.0.8", true },
	{ "192.0.1.0", false },
	{ "192.0.2.7", true },
	{ "192.88.99.1", true },
	{ "192.168.1.1", true },
	{ "198.17.255.255", false },
	{ "198.18.0.0", true },
	{ "198.19.255.255", true },
	{ "198.20.0.0", false },
	{ "198.51.100.9", true },
	{ "203.0.113.9", true },
	{ "203.0.114.0", false },
	{ "224.0.0.1", true },
	{ "240.0.0.1", true },
	{ "255.255.255.255", true },
	{ "8.8.8.8", false },
	/* the registry's public anycast services, left out on purpose */
	{ "192.31.196.1", false },
	{ "192.52.193.1", false },
	{ "192.175.48.1", false },
	{ "::", true },
	{ "::1", true },
	{ "::8.8.8.8", true }, /* IPv4-compatible, deprecated */
	{ "::ffff:127.0.0.1", true },
	{ "::ffff:8.8.8.8", false },
	{ "64:ff9b::a9fe:a9fe", true }, /* NAT64 of 169.254.169.254 */
	{ "64:ff9b::808:808", false },
	{ "64:ff9b:1::1", true },
	{ "100::1", true },
	{ "100:0:0:1::1", false },
	{ "2001::1", true },
	{ "2001:1ff:ffff::1", true },
	{ "2001:200::1", false },
	{ "2001:db8::7", true },
	{ "2002:7f00:1::1", true }, /* 6to4 of 127.0.0.1 */
	{ "2002:808:808::1", false },
	{ "3fff::1", true },
	{ "5f00::1", true },
	{ "fc00::1", true },
	{ "fdff::1", true },
	{ "fe80::1", true },
	{ "febf::1", true },
	{ "fec0::1", true },
	{ "ff02::1", true },
	{ "2606:4700::1111", false },
	{ "2620:4f:8000::1", false },
};

Test(egress_address, special_purpose_ranges_and_their_neighbours)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned char a[16];
		int family = strchr(cases[i].address, ':') ? AF_INET6 : AF_INET;
		cr_assert_eq(inet_pton(family, cases[i].address, a), 1, "%s", cases[i].address);
		const char *what = NULL;
		cr_assert_eq(egress_address_is_internal(family, a, NULL, &what), cases[i].internal,
		             "%s: wanted %s", cases[i].address,
		             cases[i].internal ? "internal" : "public");
		if (cases[i].internal)
			cr_assert_not_null(what, "%s: the range is named", cases[i].address);
	}
}

/* The machine's own public address: a service listening on all
 * interfaces answers there as on the loopback. */
Test(egress_address, the_machines_own_addresses_are_internal)
{
	unsigned char public4[4], public6[16];
	cr_assert_eq(inet_pton(AF_INET, "8.8.4.4", public4), 1);
	cr_assert_eq(inet_pton(AF_INET6, "2606:4700::1001", public6), 1);
	struct egress_local_addresses local = { .n = 2 };
	local.a[0].family = AF_INET;
	memcpy(local.a[0].addr, public4, 4);
	local.a[1].family = AF_INET6;
	memcpy(local.a[1].addr, public6, 16);
	cr_assert_not(egress_address_is_internal(AF_INET, public4, NULL, NULL),
	              "positive control: public without the list");
	cr_assert(egress_address_is_internal(AF_INET, public4, &local, NULL));
	cr_assert(egress_address_is_internal(AF_INET6, public6, &local, NULL));
	unsigned char mapped[16] = { [10] = 0xff, [11] = 0xff };
	memcpy(mapped + 12, public4, 4);
	cr_assert(egress_address_is_internal(AF_INET6, mapped, &local, NULL),
	          "IPv4-mapped: by the address in it");
}

/* What getifaddrs lists, less what the tables refuse anyway: the
 * loopback is not kept (the tables refuse it), every address kept is one
 * the tables alone would let through, and a name resolving to one is
 * refused. */
Test(egress_address, collects_this_machines_public_addresses)
{
	struct egress_local_addresses local;
	struct sluice_error err = { 0 };
	cr_assert_eq(egress_local_addresses_collect(&local, &err), 0, "%s", err.detail);
	unsigned char loopback[4] = { 127, 0, 0, 1 };
	for (size_t i = 0; i < local.n; i++) {
		cr_assert(local.a[i].family != AF_INET || memcmp(local.a[i].addr, loopback, 4) != 0,
		          "127.0.0.1 is the tables', not kept");
		cr_assert(
		        !egress_address_is_internal(local.a[i].family, local.a[i].addr, NULL, NULL),
		        "kept only where the tables would let it through");
		cr_assert(egress_address_is_internal(local.a[i].family, local.a[i].addr, &local,
		                                     NULL),
		          "refused with the list");
	}
	cr_assert(egress_address_is_internal(AF_INET, loopback, &local, NULL));
}

/* What a name of [network] allow_internal may lead to: the internal
 * addresses a registry or a mirror may live at (private, loopback, the
 * machine's own...), never those where no registry lives and the clouds'
 * metadata services do (link-local, and the two metadata addresses outside
 * it), nor those no server is reached at; an address that carries an IPv4
 * address by that one. */
Test(egress_address, some_internal_addresses_no_name_leads_to)
{
	static const struct {
		const char *address;
		enum egress_address_kind kind;
	} judged[] = {
		{ "8.8.8.8", EGRESS_ADDRESS_PUBLIC },
		{ "10.1.2.3", EGRESS_ADDRESS_INTERNAL },
		{ "172.16.0.1", EGRESS_ADDRESS_INTERNAL },
		{ "192.168.1.1", EGRESS_ADDRESS_INTERNAL },
		{ "127.0.0.2", EGRESS_ADDRESS_INTERNAL },
		{ "100.64.0.1", EGRESS_ADDRESS_INTERNAL },
		{ "100.100.100.199", EGRESS_ADDRESS_INTERNAL },
		{ "100.100.100.201", EGRESS_ADDRESS_INTERNAL },
		{ "192.0.2.7", EGRESS_ADDRESS_INTERNAL },
		{ "198.18.0.1", EGRESS_ADDRESS_INTERNAL },
		{ "::1", EGRESS_ADDRESS_INTERNAL },
		{ "fd00::1", EGRESS_ADDRESS_INTERNAL },
		{ "fd00:ec2::253", EGRESS_ADDRESS_INTERNAL },
		{ "::ffff:10.1.2.3", EGRESS_ADDRESS_INTERNAL },
		{ "169.254.169.254", EGRESS_ADDRESS_NEVER },
		{ "169.254.0.1", EGRESS_ADDRESS_NEVER },
		{ "100.100.100.200", EGRESS_ADDRESS_NEVER },
		{ "fd00:ec2::254", EGRESS_ADDRESS_NEVER },
		{ "fe80::1", EGRESS_ADDRESS_NEVER },
		{ "::ffff:169.254.169.254", EGRESS_ADDRESS_NEVER },
		{ "64:ff9b::a9fe:a9fe", EGRESS_ADDRESS_NEVER },
		{ "2002:a9fe:a9fe::1", EGRESS_ADDRESS_NEVER },
		{ "0.0.0.0", EGRESS_ADDRESS_NEVER },
		{ "::", EGRESS_ADDRESS_NEVER },
		{ "::10.1.2.3", EGRESS_ADDRESS_NEVER },
		{ "224.0.0.1", EGRESS_ADDRESS_NEVER },
		{ "255.255.255.255", EGRESS_ADDRESS_NEVER },
		{ "ff02::1", EGRESS_ADDRESS_NEVER },
		{ "100::1", EGRESS_ADDRESS_NEVER },
	};
	for (size_t i = 0; i < sizeof(judged) / sizeof(judged[0]); i++) {
		unsigned char a[16];
		int family = strchr(judged[i].address, ':') ? AF_INET6 : AF_INET;
		cr_assert_eq(inet_pton(family, judged[i].address, a), 1, "%s", judged[i].address);
		const char *what = NULL;
		enum egress_address_kind kind = egress_address_judge(family, a, NULL, &what);
		cr_assert_eq(kind, judged[i].kind, "%s: %d, wanted %d", judged[i].address, kind,
		             judged[i].kind);
		cr_assert_eq(egress_address_is_internal(family, a, NULL, NULL),
		             judged[i].kind != EGRESS_ADDRESS_PUBLIC, "%s", judged[i].address);
		if (kind != EGRESS_ADDRESS_PUBLIC)
			cr_assert_not_null(what, "%s: the range is named", judged[i].address);
	}
	/* the machine's own public address: a mirror on this machine */
	unsigned char own[4] = { 8, 8, 4, 4 };
	struct egress_local_addresses local = { .n = 1 };
	local.a[0].family = AF_INET;
	memcpy(local.a[0].addr, own, 4);
	cr_assert_eq(egress_address_judge(AF_INET, own, &local, NULL), EGRESS_ADDRESS_INTERNAL);
}
