/* SPDX-License-Identifier: MIT */
/*
 * Terminal-safe text (see terminal-text.h): one pass over the bytes, runs
 * that need nothing written as they are; UTF-8 sequences are judged by
 * common/utf8.c, then decoded here only to be compared with the code points
 * that must not reach the terminal.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/terminal-text.h"
#include "utf8.h"

/* The code point of the well-formed sequence s[0..n). */
static uint32_t decode(const unsigned char *s, size_t n)
{
	if (n == 2)
		return (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
	if (n == 3)
		return (uint32_t)(s[0] & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
	return (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3f) << 12 |
	       (uint32_t)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
}

static bool reorders_or_controls(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/* How many bytes at s (len left) the character takes, and whether it is
 * written as it is (with lines, a newline and a tab too). */
static size_t judge(const unsigned char *s, size_t len, bool lines, bool *as_is)
{
	if (s[0] < 0x80) {
		*as_is =
		        (s[0] >= 0x20 && s[0] != 0x7f) || (lines && (s[0] == '\n' || s[0] == '\t'));
		return 1;
	}
	size_t n = utf8_sequence_length(s, len);
	*as_is = n > 0 && !reorders_or_controls(decode(s, n));
	return n > 0 ? n : 1;
}

/* The escape of the n bytes at s that judge() would not write as they are. */
static void write_escape(FILE *f, const unsigned char *s, size_t n)
{
	if (n > 1)
		fprintf(f, "\\u%04x", (unsigned)decode(s, n));
	else if (s[0] == '\n' || s[0] == '\t' || s[0] == '\r')
		fprintf(f, "\\%c", s[0] == '\n' ? 'n' : s[0] == '\t' ? 't' : 'r');
	else
		fprintf(f, "\\x%02x", s[0]);
}

static void safe_write(FILE *f, const unsigned char *s, size_t len, bool lines)
{
	size_t kept = 0; /* s[kept..i) goes out as it is */
	for (size_t i = 0; i < len;) {
		bool as_is;
		size_t n = judge(s + i, len - i, lines, &as_is);
		if (!as_is) {
			fwrite(s + kept, 1, i - kept, f);
			write_escape(f, s + i, n);
			kept = i + n;
		}
		i += n;
	}
	fwrite(s + kept, 1, len - kept, f);
}

void terminal_safe_write(FILE *f, const char *text)
{
	safe_write(f, (const unsigned char *)text, strlen(text), false);
}

void terminal_safe_write_lines(FILE *f, const char *text, size_t len)
{
	safe_write(f, (const unsigned char *)text, len, true);
}
