/* SPDX-License-Identifier: MIT */
/*
 * common/egress-allow.c: the patterns of [network] allow, and which hosts
 * they let through. The rows are the key's specification: what matches,
 * and the look-alikes that must not.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "egress-allow.h"

struct match_case {
	const char *pattern, *host;
	unsigned port;
	bool allowed;
	const char *why;
};

static const struct match_case match_cases[] = {
	{ "registry.example.org", "registry.example.org", 443, true, "exact name, https" },
	{ "registry.example.org", "registry.example.org", 80, true, "exact name, http" },
	{ "registry.example.org", "REGISTRY.Example.ORG.", 443, true, "case and a final dot" },
	{ "registry.example.org", "registry.example.org", 8443, false, "no port: 443 and 80 only" },
	{ "registry.example.org", "evilregistry.example.org", 443, false, "a longer name" },
	{ "registry.example.org", "registry.example.org.evil.example", 443, false,
	  "a suffix added" },
	{ "registry.example.org", "sub.registry.example.org", 443, false, "a name below" },
	{ "registry.example.org:8080", "registry.example.org", 8080, true, "its own port" },
	{ "registry.example.org:8080", "registry.example.org", 443, false, "a port: only it" },
	{ "*.example.org", "a.example.org", 443, true, "one label below" },
	{ "*.example.org", "a.b.example.org", 443, true, "two labels below" },
	{ "*.example.org", "example.org", 443, false, "not the name itself" },
	{ "*.example.org", "aexample.org", 443, false, "not a name ending in it" },
	{ "*.example.org", "example.org.example.net", 443, false, "not a name holding it" },
	{ "192.0.2.7", "192.0.2.7", 443, true, "an IPv4 literal" },
	{ "192.0.2.7:9000", "192.0.2.7", 9000, true, "an IPv4 literal and its port" },
	{ "192.0.2.7", "192.0.2.8", 443, false, "another address" },
	{ "[2001:db8::7]", "[2001:DB8:0::7]", 443, true, "an IPv6 literal, another spelling" },
	{ "[2001:db8::7]:8080", "[2001:db8::7]", 8080, true, "an IPv6 literal and its port" },
	{ "localhost", "127.0.0.1", 443, false, "a name never matches an address" },
	{ "127.0.0.1", "localhost", 443, false, "an address never matches a name" },
};

Test(egress_allow, matches_as_the_table_says)
{
	for (size_t i = 0; i < sizeof(match_cases) / sizeof(match_cases[0]); i++) {
		const struct match_case *c = &match_cases[i];
		struct egress_rule rule;
		struct egress_host host;
		struct sluice_error err = { 0 };
		cr_assert_eq(egress_rule_parse(c->pattern, &rule, &err), 0, "%s: %s", c->pattern,
		             err.detail);
		cr_assert_eq(egress_host_parse(c->host, strlen(c->host), &host, &err), 0, "%s: %s",
		             c->host, err.detail);
		/* 443 is reached by a tunnel, 80 by plain HTTP; other ports both */
		bool tunnel = c->port != 80;
		bool allowed =
		        egress_rules_match(&rule, 1, &host, (uint16_t)c->port, tunnel) != NULL;
		cr_assert_eq(allowed, c->allowed, "%s against %s:%u (%s)", c->pattern, c->host,
		             c->port, c->why);
	}
}

/* A rule without a port opens 443 to tunnels and 80 to plain HTTP only: a
 * tunnel to 80 would carry plain HTTP past the proxy's reading of each
 * request (fronting with another Host, several requests on one
 * connection). A port written in the rule opens it to both. */
Test(egress_allow, a_rule_without_port_tunnels_to_443_only)
{
	struct egress_rule rule, with_port;
	struct egress_host host;
	struct sluice_error err = { 0 };
	cr_assert_eq(egress_rule_parse("registry.example.org", &rule, &err), 0);
	cr_assert_eq(egress_rule_parse("registry.example.org:80", &with_port, &err), 0);
	cr_assert_eq(egress_host_parse("registry.example.org", 20, &host, &err), 0);
	cr_assert_not_null(egress_rules_match(&rule, 1, &host, 443, true), "a tunnel to 443");
	cr_assert_not_null(egress_rules_match(&rule, 1, &host, 80, false), "plain HTTP to 80");
	cr_assert_null(egress_rules_match(&rule, 1, &host, 80, true), "no tunnel to 80");
	cr_assert_null(egress_rules_match(&rule, 1, &host, 443, false), "no plain HTTP to 443");
	cr_assert_not_null(egress_rules_match(&with_port, 1, &host, 80, true),
	                   "a tunnel to a port the rule names");
	cr_assert_not_null(egress_rules_match(&with_port, 1, &host, 80, false),
	                   "plain HTTP to a port the rule names");
}

Test(egress_allow, refuses_bad_patterns_naming_them)
{
	const char *bad[] = { "",
		              "https://registry.example.org",
		              "registry.example.org/path",
		              "registry.example.org:0",
		              "registry.example.org:65536",
		              "registry.example.org:https",
		              "*.192.0.2.7",
		              "a.*.example.org",
		              "*example.org",
		              "reg istry.example.org",
		              "registry..example.org",
		              "-registry.example.org",
		              "127.1",
		              "[not-an-address]",
		              "10.0.0.0/8",
		              "[2001:db8::]/32",
		              NULL };
	for (const char **b = bad; *b; b++) {
		struct egress_rule rule;
		struct sluice_error err = { 0 };
		cr_assert_eq(egress_rule_parse(*b, &rule, &err), -EINVAL, "'%s' accepted", *b);
		char quoted[300];
		snprintf(quoted, sizeof(quoted), "the pattern '%s'", *b);
		cr_assert(strstr(err.detail, quoted), "the error does not name '%s': %s", *b,
		          err.detail);
	}
	struct egress_rule rule;
	struct sluice_error err = { 0 };
	(void)egress_rule_parse("192.0.2.0/24", &rule, &err);
	cr_assert(strstr(err.detail, "an address range"), "a range is named as one: %s",
	          err.detail);
}

Test(egress_allow, refuses_request_hosts_with_odd_bytes)
{
	struct egress_host host;
	struct sluice_error err = { 0 };
	static const char with_nul[] = "a.example.org\0evil";
	cr_assert_eq(egress_host_parse(with_nul, sizeof(with_nul) - 1, &host, &err), -EINVAL);
	cr_assert_eq(egress_host_parse("a.example.org%2f", 16, &host, &err), -EINVAL);
	cr_assert_eq(egress_host_parse("a_b.example.org", 15, &host, &err), -EINVAL);
}

/* [network] allow_internal: a pattern is taken only where allow lets
 * through every host and port it names (allow_internal only ever narrows
 * what allow opens, never widens it). allow: patterns separated by spaces. */
struct cover_case {
	const char *allow, *internal;
	bool covered;
	const char *why;
};

static const struct cover_case cover_cases[] = {
	{ "mirror.example.org", "mirror.example.org", true, "the same name" },
	{ "mirror.example.org:8443", "mirror.example.org:8443", true, "the same name and port" },
	{ "mirror.example.org", "mirror.example.org:8443", false, "another port" },
	{ "mirror.example.org:443", "mirror.example.org", false,
	  "443 alone: not plain HTTP to 80" },
	{ "mirror.example.org:443 mirror.example.org:80", "mirror.example.org", true,
	  "443 and 80 by two patterns" },
	{ "mirror.example.org", "mirror.example.org:443", false,
	  "no port: plain HTTP to 443 is not allowed" },
	{ "*.example.org", "mirror.example.org", true, "a name below a suffix" },
	{ "*.example.org", "*.corp.example.org", true, "a suffix below a suffix" },
	{ "*.example.org", "*.example.org", true, "the same suffix" },
	{ "*.example.org", "example.org", false, "a suffix does not hold its own name" },
	{ "example.org", "*.example.org", false, "a name does not hold the names below it" },
	{ "*.corp.example.org", "*.example.org", false, "a shorter suffix" },
	{ "mirror.example.org", "other.example.org", false, "another name" },
	{ "mirror.example.org", "mirror.example.org.evil.example", false, "a suffix added" },
	{ "", "mirror.example.org", false, "an empty allowlist" },
};

/* Parse the patterns of text (separated by spaces) into rules. */
static size_t parse_rules(const char *text, struct egress_rule *rules, size_t max)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", text);
	size_t n = 0;
	char *save = NULL;
	for (char *w = strtok_r(buf, " ", &save); w && n < max; w = strtok_r(NULL, " ", &save)) {
		struct sluice_error err = { 0 };
		cr_assert_eq(egress_rule_parse(w, &rules[n], &err), 0, "%s: %s", w, err.detail);
		n++;
	}
	return n;
}

Test(egress_allow, internal_patterns_must_be_covered_by_allow)
{
	for (size_t i = 0; i < sizeof(cover_cases) / sizeof(cover_cases[0]); i++) {
		const struct cover_case *c = &cover_cases[i];
		struct egress_rule allow[4], rule;
		size_t n = parse_rules(c->allow, allow, 4);
		struct sluice_error err = { 0 };
		int r = egress_internal_rule_parse(c->internal, allow, n, "[network] allow", &rule,
		                                   &err);
		cr_assert_eq(r == 0, c->covered, "'%s' within '%s' (%s): got %d, %s", c->internal,
		             c->allow, c->why, r, err.detail);
		cr_assert_eq(egress_rule_covered(&rule, allow, n), c->covered, "%s", c->why);
		if (!c->covered) {
			char want[300];
			snprintf(want, sizeof(want),
			         "the pattern '%s' is not covered by [network] allow", c->internal);
			cr_assert(strstr(err.detail, want), "the error names it: %s", err.detail);
		}
	}
}

Test(egress_allow, internal_patterns_are_names)
{
	struct egress_rule allow[2], rule;
	size_t n = parse_rules("10.1.2.3 [fd00::7]", allow, 2);
	const char *literals[] = { "10.1.2.3", "[fd00::7]" };
	for (size_t i = 0; i < 2; i++) {
		struct sluice_error err = { 0 };
		cr_assert_eq(egress_internal_rule_parse(literals[i], allow, n, "--egress-allow",
		                                        &rule, &err),
		             -EINVAL, "%s accepted", literals[i]);
		cr_assert(strstr(err.detail, "is an IP address: one written in --egress-allow "
		                             "already leads there"),
		          "%s", err.detail);
	}
	struct sluice_error err = { 0 };
	cr_assert_eq(egress_internal_rule_parse("https://mirror.example.org", allow, n,
	                                        "--egress-allow", &rule, &err),
	             -EINVAL);
	cr_assert(strstr(err.detail, "the pattern 'https://mirror.example.org'"), "%s", err.detail);
}
