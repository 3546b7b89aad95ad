/* SPDX-License-Identifier: MIT */
/*
 * Integers, sizes and durations from text, with every overflow and stray
 * character rejected (strtoull's end pointer and errno are both checked).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "parse-number.h"

/* Leading decimal digits into *ret; *end points past them. */
static int parse_digits(const char *text, uint64_t *ret, const char **end)
{
	if (!text || !isdigit((unsigned char)text[0]))
		return -EINVAL;
	char *e = NULL;
	errno = 0;
	unsigned long long v = strtoull(text, &e, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno != 0 || e == text)
		return -EINVAL;
	*ret = v;
	*end = e;
	return 0;
}

int parse_uint64(const char *text, uint64_t max, uint64_t *ret)
{
	uint64_t v;
	const char *end;
	int r = parse_digits(text, &v, &end);
	if (r < 0)
		return r;
	if (*end != '\0')
		return -EINVAL;
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int parse_uint64_prefix(const char *text, uint64_t max, uint64_t *ret, const char **end)
{
	uint64_t v;
	const char *e;
	int r = parse_digits(text, &v, &e);
	if (r < 0)
		return r;
	if (v > max)
		return -ERANGE;
	*ret = v;
	*end = e;
	return 0;
}

struct unit {
	const char *suffix;
	uint64_t factor;
};

static int parse_with_units(const char *text, const struct unit *units, size_t n_units,
                            uint64_t default_factor, uint64_t max, uint64_t *ret)
{
	uint64_t v;
	const char *end;
	int r = parse_digits(text, &v, &end);
	if (r < 0)
		return r;
	uint64_t factor = 0;
	if (*end == '\0') {
		factor = default_factor;
	} else {
		for (size_t i = 0; i < n_units; i++)
			if (strcasecmp(end, units[i].suffix) == 0) {
				factor = units[i].factor;
				break;
			}
		if (factor == 0)
			return -EINVAL;
	}
	if (v != 0 && factor > UINT64_MAX / v)
		return -ERANGE;
	if (v * factor > max)
		return -ERANGE;
	*ret = v * factor;
	return 0;
}

int parse_size(const char *text, uint64_t max, uint64_t *ret)
{
	static const struct unit units[] = {
		{ "B", 1 },
		{ "K", 1ULL << 10 },
		{ "KB", 1ULL << 10 },
		{ "KiB", 1ULL << 10 },
		{ "M", 1ULL << 20 },
		{ "MB", 1ULL << 20 },
		{ "MiB", 1ULL << 20 },
		{ "G", 1ULL << 30 },
		{ "GB", 1ULL << 30 },
		{ "GiB", 1ULL << 30 },
		{ "T", 1ULL << 40 },
		{ "TB", 1ULL << 40 },
		{ "TiB", 1ULL << 40 },
	};
	return parse_with_units(text, units, ELEMENTSOF(units), 1, max, ret);
}

int parse_duration_ms(const char *text, uint64_t max_ms, uint64_t *ret)
{
	static const struct unit units[] = {
		{ "ms", 1 },
		{ "s", 1000 },
		{ "m", 60 * 1000 },
		{ "h", 60 * 60 * 1000 },
	};
	return parse_with_units(text, units, ELEMENTSOF(units), 1000, max_ms, ret);
}

char *format_duration_ms(uint64_t ms, char *buf, unsigned size)
{
	if (ms != 0 && ms % (60 * 60 * 1000) == 0)
		snprintf(buf, size, "%lluh", (unsigned long long)(ms / (60 * 60 * 1000)));
	else if (ms != 0 && ms % (60 * 1000) == 0)
		snprintf(buf, size, "%llum", (unsigned long long)(ms / (60 * 1000)));
	else if (ms % 1000 == 0)
		snprintf(buf, size, "%llus", (unsigned long long)(ms / 1000));
	else
		snprintf(buf, size, "%llums", (unsigned long long)ms);
	return buf;
}

char *format_size(uint64_t bytes, char *buf, unsigned size)
{
	static const char *const units[] = { "GiB", "MiB", "KiB" };
	for (size_t i = 0; i < ELEMENTSOF(units); i++) {
		uint64_t unit = 1ull << (10 * (ELEMENTSOF(units) - i));
		if (bytes >= unit && bytes % unit == 0) {
			snprintf(buf, size, "%llu%s", (unsigned long long)(bytes / unit), units[i]);
			return buf;
		}
	}
	snprintf(buf, size, "%llu bytes", (unsigned long long)bytes);
	return buf;
}

int hex_digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
