/* SPDX-License-Identifier: MIT */
/*
 * common/egress-audit.c: the egress proxy's records as the slot's text and
 * back; a slot that is not a record, in any part, is refused, never read
 * as one.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "egress-audit.h"

static void slot_of(const char *text, char slot[EGRESS_AUDIT_SLOT_SIZE])
{
	memset(slot, 0, EGRESS_AUDIT_SLOT_SIZE);
	memcpy(slot, text, strlen(text));
}

Test(egress_audit, record_round_trips)
{
	struct egress_audit_record rec = { .port = 443,
		                           .kind = EGRESS_AUDIT_TUNNEL,
		                           .allowed = true,
		                           .reason = EGRESS_REASON_UNFINISHED,
		                           .bytes_up = 12,
		                           .bytes_down = 34567,
		                           .duration_ms = 89 };
	strcpy(rec.host, "registry.example.org");
	char slot[EGRESS_AUDIT_SLOT_SIZE];
	egress_audit_format(&rec, slot);
	cr_assert_str_eq(slot, "registry.example.org 443 tunnel allowed unfinished 12 34567 89\n");
	struct egress_audit_record back;
	cr_assert_eq(egress_audit_parse(slot, &back), 1);
	cr_assert_str_eq(back.host, "registry.example.org");
	cr_assert_eq(back.port, 443);
	cr_assert_eq(back.kind, EGRESS_AUDIT_TUNNEL);
	cr_assert(back.allowed);
	cr_assert_eq(back.reason, EGRESS_REASON_UNFINISHED);
	cr_assert_eq(back.bytes_down, 34567);
	cr_assert_eq(back.duration_ms, 89);
}

Test(egress_audit, unknown_host_and_ipv6_round_trip)
{
	struct egress_audit_record rec = { .reason = EGRESS_REASON_BAD_REQUEST };
	char slot[EGRESS_AUDIT_SLOT_SIZE];
	egress_audit_format(&rec, slot);
	cr_assert_str_eq(slot, "- 0 unknown refused bad-request 0 0 0\n");
	struct egress_audit_record back;
	cr_assert_eq(egress_audit_parse(slot, &back), 1);
	cr_assert_str_eq(back.host, "");
	slot_of("2001:db8::7 8080 http refused not-listed 0 0 1\n", slot);
	cr_assert_eq(egress_audit_parse(slot, &back), 1);
	cr_assert_str_eq(back.host, "2001:db8::7");
}

Test(egress_audit, empty_slot_is_no_record)
{
	char slot[EGRESS_AUDIT_SLOT_SIZE] = { 0 };
	struct egress_audit_record back;
	cr_assert_eq(egress_audit_parse(slot, &back), 0);
	cr_assert_eq(egress_audit_parse_header(slot), 0);
}

Test(egress_audit, header_round_trips)
{
	char slot[EGRESS_AUDIT_SLOT_SIZE];
	egress_audit_format_header(300, slot);
	cr_assert_eq(egress_audit_parse_header(slot), 300);
	slot_of("sluice-egress-audit/2 3\n", slot);
	cr_assert_eq(egress_audit_parse_header(slot), -EINVAL, "another version");
	slot_of("sluice-egress-audit/1 -3\n", slot);
	cr_assert_eq(egress_audit_parse_header(slot), -EINVAL, "a negative count");
}

static const struct {
	const char *text, *why;
} bad_records[] = {
	{ "a.example.org 443 tunnel allowed - 1 2 3", "no newline" },
	{ "a.example.org 443 tunnel allowed - 1 2\n", "a word missing" },
	{ "a.example.org 443 tunnel allowed - 1 2 3 4\n", "a word too many" },
	{ "a.example.org 65536 tunnel allowed - 1 2 3\n", "a port out of range" },
	{ "a.example.org 443 ftp allowed - 1 2 3\n", "an unknown kind" },
	{ "a.example.org 443 tunnel maybe - 1 2 3\n", "an unknown verdict" },
	{ "a.example.org 443 tunnel refused because 1 2 3\n", "an unknown reason" },
	{ "a.example.org 443 tunnel refused - 1 2 3\n", "refused without a reason" },
	{ "a.example.org 443 tunnel allowed not-listed 1 2 3\n",
	  "allowed with a refusal's reason" },
	{ "a.example.org 443 tunnel allowed - -1 2 3\n", "a negative count" },
	{ "a.example.org 443 tunnel allowed - 1 2 3x\n", "a number with a letter" },
	{ "a.example.org 443 tunnel allowed - 9223372036854775808 2 3\n",
	  "a count past what a JSON integer holds (it would read negative)" },
	{ "a\"b.example.org 443 tunnel allowed - 1 2 3\n", "a host with a quote" },
	{ "A.EXAMPLE.ORG 443 tunnel allowed - 1 2 3\n", "a host not as the proxy writes it" },
	{ "[::1] 443 tunnel allowed - 1 2 3\n", "an IPv6 host in brackets" },
	{ "a.example.org 443 tunnel approved - 1 2 3\n", "approved without asked-yes" },
	{ "a.example.org 443 tunnel allowed asked-yes 1 2 3\n", "allowed with asked-yes" },
	{ "a.example.org 443 tunnel refused asked-yes 1 2 3\n", "refused with asked-yes" },
	{ "a.example.org 443 tunnel approved asked-no 1 2 3\n",
	  "approved with a refusal's reason" },
};

Test(egress_audit, approved_and_asked_refusals_round_trip)
{
	struct egress_audit_record rec = { .port = 8080,
		                           .kind = EGRESS_AUDIT_HTTP,
		                           .allowed = true,
		                           .approved = true,
		                           .reason = EGRESS_REASON_ASKED_YES };
	strcpy(rec.host, "127.0.0.3");
	char slot[EGRESS_AUDIT_SLOT_SIZE];
	egress_audit_format(&rec, slot);
	cr_assert_str_eq(slot, "127.0.0.3 8080 http approved asked-yes 0 0 0\n");
	struct egress_audit_record back;
	cr_assert_eq(egress_audit_parse(slot, &back), 1);
	cr_assert(back.allowed && back.approved);
	cr_assert_eq(back.reason, EGRESS_REASON_ASKED_YES);
	static const enum egress_audit_reason refusals[] = { EGRESS_REASON_ASKED_NO,
		                                             EGRESS_REASON_ASK_TIMEOUT,
		                                             EGRESS_REASON_ASK_LIMIT,
		                                             EGRESS_REASON_ASK_FAILED };
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		rec.allowed = rec.approved = false;
		rec.reason = refusals[i];
		egress_audit_format(&rec, slot);
		cr_assert_eq(egress_audit_parse(slot, &back), 1, "%s", slot);
		cr_expect(!back.allowed && !back.approved);
		cr_expect_eq(back.reason, refusals[i]);
	}
}

Test(egress_audit, refuses_what_is_not_a_record)
{
	for (size_t i = 0; i < sizeof(bad_records) / sizeof(bad_records[0]); i++) {
		char slot[EGRESS_AUDIT_SLOT_SIZE];
		slot_of(bad_records[i].text, slot);
		struct egress_audit_record back;
		cr_expect_eq(egress_audit_parse(slot, &back), -EINVAL, "%s", bad_records[i].why);
	}
}

Test(egress_audit, takes_the_largest_count_a_json_integer_holds)
{
	char slot[EGRESS_AUDIT_SLOT_SIZE];
	slot_of("a.example.org 443 tunnel allowed - 9223372036854775807 2 3\n", slot);
	struct egress_audit_record back;
	cr_assert_eq(egress_audit_parse(slot, &back), 1);
	cr_assert_eq(back.bytes_up, 9223372036854775807ULL);
}

Test(egress_audit, refuses_bytes_after_the_line)
{
	char slot[EGRESS_AUDIT_SLOT_SIZE];
	slot_of("a.example.org 443 tunnel allowed - 1 2 3\n", slot);
	slot[EGRESS_AUDIT_SLOT_SIZE - 1] = 'x';
	struct egress_audit_record back;
	cr_assert_eq(egress_audit_parse(slot, &back), -EINVAL);
}
