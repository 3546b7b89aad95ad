/* SPDX-License-Identifier: MIT */
/*
 * broker/run/outbuf.c: output is kept whole up to the cap, then as head + tail
 * with every byte counted; memory stays fixed; a cut never splits a
 * character and the rendered text is always valid UTF-8.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "cleanup.h"
#include "run/outbuf.h"
#include "utf8.h"

Test(outbuf, keeps_everything_under_the_cap)
{
	_cleanup_(outbuf_freep) struct outbuf *ob = outbuf_new(64, 8, 8);
	cr_assert_not_null(ob);
	cr_assert_eq(outbuf_append(ob, "hello ", 6), 0);
	cr_assert_eq(outbuf_append(ob, "world", 5), 0);
	cr_assert_eq(outbuf_total(ob), 11);
	cr_assert_not(outbuf_truncated(ob));
	_cleanup_free_ char *text = outbuf_render(ob, "MARKER", NULL);
	cr_assert_str_eq(text, "hello world");
}

Test(outbuf, exactly_the_cap_is_not_truncated)
{
	_cleanup_(outbuf_freep) struct outbuf *ob = outbuf_new(10, 2, 2);
	outbuf_append(ob, "0123456789", 10);
	cr_assert_not(outbuf_truncated(ob));
	outbuf_append(ob, "x", 1);
	cr_assert(outbuf_truncated(ob));
}

Test(outbuf, keeps_head_and_tail_past_the_cap)
{
	_cleanup_(outbuf_freep) struct outbuf *ob = outbuf_new(16, 4, 5);
	/* Many small appends wrap the ring several times. */
	for (int i = 0; i < 100; i++) {
		char c = (char)('a' + i % 26);
		outbuf_append(ob, &c, 1);
	}
	cr_assert_eq(outbuf_total(ob), 100);
	cr_assert(outbuf_truncated(ob));
	_cleanup_free_ char *text = outbuf_render(ob, "[cut]", NULL);
	/* 95..99 are r s t u v (95 % 26 = 17). */
	cr_assert_str_eq(text, "abcd\n[cut]\nrstuv");
}

Test(outbuf, large_append_keeps_its_last_bytes)
{
	_cleanup_(outbuf_freep) struct outbuf *ob = outbuf_new(8, 2, 3);
	outbuf_append(ob, "0123456789abcdef", 16);
	char last[3];
	cr_assert_eq(outbuf_last(ob, last, sizeof(last)), 3);
	cr_assert_eq(memcmp(last, "def", 3), 0);
	_cleanup_free_ char *text = outbuf_render(ob, "M", NULL);
	cr_assert_str_eq(text, "01\nM\ndef");
}

Test(outbuf, refuses_sizes_that_do_not_fit)
{
	cr_assert_null(outbuf_new(8, 6, 3));
	cr_assert_null(outbuf_new(8, 2, 0));
}

Test(outbuf, never_splits_a_character_at_the_cuts)
{
	/* "é" is c3 a9: a cut after 3 bytes of "aéé" would split the second. */
	_cleanup_(outbuf_freep) struct outbuf *ob = outbuf_new(8, 4, 3);
	outbuf_append(ob, "a\xc3\xa9\xc3\xa9", 5);
	outbuf_append(ob, "zzzzzzz\xc3\xa9\xc3\xa9", 11);
	size_t len;
	_cleanup_free_ char *text = outbuf_render(ob, "M", &len);
	cr_assert(utf8_valid(text, len), "rendered text must be valid UTF-8");
	/* head: "a\xc3\xa9" (the partial second é dropped); tail "\xa9\xc3\xa9" starts
	 * inside a character, so it begins at the next one. */
	cr_assert_str_eq(text, "a\xc3\xa9\nM\n\xc3\xa9");
}

Test(outbuf, binary_output_renders_as_valid_utf8)
{
	_cleanup_(outbuf_freep) struct outbuf *ob = outbuf_new(64, 8, 8);
	outbuf_append(ob, "\xff\x00\xfe ok", 6);
	size_t len;
	_cleanup_free_ char *text = outbuf_render(ob, "M", &len);
	cr_assert(utf8_valid(text, len));
	cr_assert_eq(strlen(text), len, "no NUL byte may remain");
	cr_assert(strstr(text, "ok"));
}

Test(outbuf, memory_does_not_grow_with_output)
{
	_cleanup_(outbuf_freep) struct outbuf *ob = outbuf_new(4096, 1024, 1024);
	char chunk[65536];
	memset(chunk, 'x', sizeof(chunk));
	for (int i = 0; i < 1024; i++) /* 64 MiB */
		outbuf_append(ob, chunk, sizeof(chunk));
	size_t kept;
	outbuf_data(ob, &kept);
	cr_assert_eq(kept, 4096, "the linear part stops at the cap");
	cr_assert_eq(outbuf_total(ob), 64ull << 20);
}
