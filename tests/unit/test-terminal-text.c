/* SPDX-License-Identifier: MIT */
/*
 * broker/util/terminal-text.c: what a terminal could obey is written out
 * (controls, C1, bytes that are not UTF-8, bidirectional marks); the rest,
 * non-ASCII text included, is kept as it is.
 */
#define _GNU_SOURCE /* open_memstream */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/terminal-text.h"

struct case_ {
	char in[32];
	char out[64];
	char why[48];
};

static struct case_ cases[] = {
	{ "git status", "git status", "plain text" },
	{ "a\nb\tc\rd", "a\\nb\\tc\\rd", "newline, tab, carriage return" },
	{ "rm -rf ~ \x1b[2K\rls", "rm -rf ~ \\x1b[2K\\rls", "an escape that erases the line" },
	{ "x\x7fy\x01", "x\\x7fy\\x01", "DEL and another C0" },
	{ "\xc2\x9b"
	  "31m",
	  "\\u009b31m", "C1 CSI, UTF-8 encoded" },
	{ "a\xe2\x80\xae"
	  "cba",
	  "a\\u202ecba", "right-to-left override" },
	{ "\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069", "isolates" },
	{ "\xd8\x9c", "\\u061c", "Arabic letter mark" },
	{ "\xff\xc3", "\\xff\\xc3", "bytes that are not UTF-8" },
	{ "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80",
	  "UTF-8 text is kept" },
	{ "printf 'a\\n'", "printf 'a\\n'", "a backslash is not doubled" },
};

/* What terminal_safe_write() writes of text (free() it). */
static char *written(const char *text)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	cr_assert_not_null(f);
	terminal_safe_write(f, text);
	cr_assert_eq(fclose(f), 0);
	return out;
}

ParameterizedTestParameters(terminal_text, escapes)
{
	return cr_make_param_array(struct case_, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct case_ *c, terminal_text, escapes)
{
	char *got = written(c->in);
	cr_assert_not_null(got);
	cr_assert_str_eq(got, c->out, "%s", c->why);
	free(got);
}

/* A text of nothing but controls comes out as escapes only. */
Test(terminal_text, a_text_of_controls_only)
{
	char in[257];
	for (int i = 0; i < 256; i++)
		in[i] = (char)(1 + i % 31);
	in[256] = '\0';
	char *got = written(in);
	cr_assert_not_null(got);
	cr_assert_eq(strspn(got, "\\xrnt0123456789abcdef"), strlen(got));
	free(got);
}
