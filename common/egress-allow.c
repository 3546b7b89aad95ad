/* SPDX-License-Identifier: MIT */
/*
 * Patterns are checked strictly so that what an administrator wrote means
 * one thing: no wildcard but a leading "*.", no scheme, no path, no empty
 * label, no port 0. A request's host goes through the same reader, so a
 * name with odd bytes ("a.example.org\0evil", "a.example.org%2f") never
 * reaches the matching.
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egress-allow.h"

/* Whether name (NUL-terminated, lowercase) is a valid host name. */
static bool valid_name(const char *name, const char **why)
{
	size_t len = strlen(name), label = 0;
	if (len == 0) {
		*why = "the host is empty";
		return false;
	}
	if (len > 253) {
		*why = "the host is longer than 253 characters";
		return false;
	}
	for (size_t i = 0; i <= len; i++) {
		char c = name[i];
		if (c == '.' || c == '\0') {
			if (label == 0) {
				*why = "the host has an empty label";
				return false;
			}
			if (name[i - label] == '-' || name[i - 1] == '-') {
				*why = "a label of the host starts or ends with '-'";
				return false;
			}
			label = 0;
			continue;
		}
		if (!(isdigit((unsigned char)c) || (c >= 'a' && c <= 'z') || c == '-')) {
			*why = "the host holds a character other than letters, digits, '-' and '.'";
			return false;
		}
		if (++label > 63) {
			*why = "a label of the host is longer than 63 characters";
			return false;
		}
	}
	return true;
}

int egress_host_parse(const char *text, size_t len, struct egress_host *ret,
                      struct sluice_error *err)
{
	memset(ret, 0, sizeof(*ret));
	if (len >= EGRESS_HOST_MAX || memchr(text, '\0', len))
		return sluice_error_set(err, -EINVAL, "the host is too long or holds a NUL byte");
	char buf[EGRESS_HOST_MAX];
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (len >= 2 && buf[0] == '[' && buf[len - 1] == ']') {
		buf[len - 1] = '\0';
		if (inet_pton(AF_INET6, buf + 1, &ret->addr) != 1)
			return sluice_error_set(err, -EINVAL, "'%s' is not an IPv6 address",
			                        buf + 1);
		ret->family = AF_INET6;
		(void)inet_ntop(AF_INET6, &ret->addr, ret->name, sizeof(ret->name));
		return 0;
	}
	struct in_addr v4;
	/* inet_pton() takes dotted quads only: no "127.1", no octal */
	if (inet_pton(AF_INET, buf, &v4) == 1) {
		ret->family = AF_INET;
		memcpy(&ret->addr, &v4, sizeof(v4));
		(void)inet_ntop(AF_INET, &v4, ret->name, sizeof(ret->name));
		return 0;
	}
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)tolower((unsigned char)buf[i]);
	if (len > 1 && buf[len - 1] == '.')
		buf[len - 1] = '\0';
	const char *why = NULL;
	if (!valid_name(buf, &why))
		return sluice_error_set(err, -EINVAL, "%s", why);
	/* all digits and dots, but not an address inet_pton() took: a name
	 * a resolver might still read as one ("127.1", "0x7f.1" has letters) */
	if (strspn(buf, "0123456789.") == strlen(buf))
		return sluice_error_set(err, -EINVAL, "'%s' is neither a name nor an IPv4 address",
		                        buf);
	memcpy(ret->name, buf, sizeof(ret->name));
	return 0;
}

/* ":PORT" at the end of text, 1..65535, into *ret; the length of the host
 * part before it. No colon (or an IPv6 literal's last bracket after it):
 * the whole text, port 0. */
static int split_port(const char *text, size_t *ret_host_len, uint16_t *ret, bool *ret_had,
                      struct sluice_error *err)
{
	const char *colon = strrchr(text, ':');
	const char *bracket = strrchr(text, ']');
	*ret = 0;
	*ret_had = false;
	*ret_host_len = strlen(text);
	if (!colon || (bracket && bracket > colon) || (text[0] == '[' && !bracket))
		return 0;
	const char *digits = colon + 1;
	if (*digits == '\0' || strspn(digits, "0123456789") != strlen(digits) || strlen(digits) > 5)
		return sluice_error_set(err, -EINVAL, "the port '%s' is not a number", digits);
	unsigned long port = strtoul(digits, NULL, 10);
	if (port < 1 || port > 65535)
		return sluice_error_set(err, -EINVAL, "the port %lu is not between 1 and 65535",
		                        port);
	*ret = (uint16_t)port;
	*ret_had = true;
	*ret_host_len = (size_t)(colon - text);
	return 0;
}

/* "8", "24", "128": what follows the slash of an address range. */
static bool is_prefix_length(const char *text)
{
	size_t n = strspn(text, "0123456789");
	return n > 0 && n <= 3 && text[n] == '\0';
}

int egress_rule_parse(const char *pattern, struct egress_rule *ret, struct sluice_error *err)
{
	memset(ret, 0, sizeof(*ret));
	size_t host_len = 0;
	bool had_port = false;
	const char *slash = strchr(pattern, '/');
	int r;
	if (strstr(pattern, "://") || (slash && !is_prefix_length(slash + 1)))
		r = sluice_error_set(err, -EINVAL, "a scheme or a path: write the host alone");
	else if (slash)
		r = sluice_error_set(err, -EINVAL,
		                     "an address range: ranges are not matched, list each address");
	else
		r = split_port(pattern, &host_len, &ret->port, &had_port, err);
	const char *host = pattern;
	if (r >= 0 && strncmp(host, "*.", 2) == 0) {
		ret->suffix = true;
		host += 2;
		host_len -= 2;
	}
	if (r >= 0)
		r = egress_host_parse(host, host_len, &ret->host, err);
	if (r >= 0 && ret->suffix && ret->host.family != 0)
		r = sluice_error_set(err, -EINVAL, "'*.' goes before a name, not an address");
	if (r < 0) {
		sluice_error_prefix(err,
		                    "the pattern '%s' (HOST, *.NAME or an IP address, then "
		                    "optionally :PORT)",
		                    pattern);
		return r;
	}
	return 0;
}

/* Whether name equals the rule's name or, for a suffix, lies below it. */
static bool name_matches(const struct egress_rule *rule, const char *name)
{
	if (!rule->suffix)
		return strcmp(rule->host.name, name) == 0;
	size_t n = strlen(name), s = strlen(rule->host.name);
	return n > s + 1 && name[n - s - 1] == '.' && strcmp(name + n - s, rule->host.name) == 0;
}

/* Whether rule lets a connection to port through, a tunnel or not.
 * Without a port of its own, a rule opens HTTPS's tunnel and HTTP's
 * requests: a tunnel to port 80 would carry plain HTTP past the proxy's
 * reading of each request (its Host, one per connection). */
static bool rule_allows_port(const struct egress_rule *rule, uint16_t port, bool tunnel)
{
	return port == (rule->port ? rule->port : tunnel ? 443 : 80);
}

const struct egress_rule *egress_rules_match(const struct egress_rule *rules, size_t n,
                                             const struct egress_host *host, uint16_t port,
                                             bool tunnel)
{
	for (size_t i = 0; i < n; i++) {
		const struct egress_rule *r = &rules[i];
		if (!rule_allows_port(r, port, tunnel))
			continue;
		if (r->host.family != host->family)
			continue;
		if (host->family == 0 ? name_matches(r, host->name)
		                      : memcmp(&r->host.addr, &host->addr, sizeof(host->addr)) == 0)
			return r;
	}
	return NULL;
}

/* Whether every host inner matches, outer matches too. */
static bool host_covered(const struct egress_rule *inner, const struct egress_rule *outer)
{
	if (inner->host.family != outer->host.family)
		return false;
	if (inner->host.family != 0)
		return memcmp(&inner->host.addr, &outer->host.addr, sizeof(inner->host.addr)) == 0;
	/* a suffix holds names no exact rule covers all of */
	if (inner->suffix && !outer->suffix)
		return false;
	/* "*.NAME" holds the names below NAME, not NAME itself */
	if (inner->suffix == outer->suffix && strcmp(inner->host.name, outer->host.name) == 0)
		return true;
	return outer->suffix && name_matches(outer, inner->host.name);
}

bool egress_rule_covered(const struct egress_rule *rule, const struct egress_rule *rules, size_t n)
{
	/* the ways rule lets a connection through: without a port, a
	 * tunnel to 443 and plain HTTP to 80; with one, both to it */
	const struct {
		uint16_t port;
		bool tunnel;
	} ways[] = { { rule->port ? rule->port : 443, true },
		     { rule->port ? rule->port : 80, false } };
	for (size_t w = 0; w < sizeof(ways) / sizeof(ways[0]); w++) {
		bool covered = false;
		for (size_t i = 0; i < n && !covered; i++)
			covered = rule_allows_port(&rules[i], ways[w].port, ways[w].tunnel) &&
			          host_covered(rule, &rules[i]);
		if (!covered)
			return false;
	}
	return true;
}

int egress_internal_rule_parse(const char *pattern, const struct egress_rule *allow, size_t n,
                               const char *allow_name, struct egress_rule *ret,
                               struct sluice_error *err)
{
	int r = egress_rule_parse(pattern, ret, err);
	if (r < 0)
		return r;
	/* one meaning per line: an address written in allow already leads
	 * there, and a name is what this list is for */
	if (ret->host.family != 0)
		return sluice_error_set(err, -EINVAL,
		                        "the pattern '%s' is an IP address: one written in %s "
		                        "already leads there; this list takes names",
		                        pattern, allow_name);
	if (!egress_rule_covered(ret, allow, n))
		return sluice_error_set(
		        err, -EINVAL,
		        "the pattern '%s' is not covered by %s: every host and port "
		        "it names must be allowed there too",
		        pattern, allow_name);
	return 0;
}
