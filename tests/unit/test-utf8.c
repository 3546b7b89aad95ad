/* SPDX-License-Identifier: MIT */
/*
 * common/utf8.c: text handed to JSON is valid UTF-8, invalid bytes are
 * replaced, and a character is never cut.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "utf8.h"

#define S(lit) lit, sizeof(lit) - 1

Test(utf8, accepts_well_formed_text)
{
	cr_assert(utf8_valid(S("")));
	cr_assert(utf8_valid(S("plain ascii")));
	cr_assert(utf8_valid(S("h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80")));
	cr_assert(utf8_valid(S("\xf4\x8f\xbf\xbf")), "U+10FFFF is the last code point");
}

Test(utf8, rejects_malformed_sequences)
{
	cr_assert_not(utf8_valid(S("\xff")));
	cr_assert_not(utf8_valid(S("\xc0\xaf")), "overlong '/'");
	cr_assert_not(utf8_valid(S("\xe0\x80\xaf")), "overlong '/'");
	cr_assert_not(utf8_valid(S("\xed\xa0\x80")), "surrogate");
	cr_assert_not(utf8_valid(S("\xf4\x90\x80\x80")), "above U+10FFFF");
	cr_assert_not(utf8_valid(S("\xe2\x82")), "cut short");
	cr_assert_not(utf8_valid(S("\x80")), "lone continuation byte");
}

Test(utf8, replaces_each_bad_byte_and_nul)
{
	size_t len;
	char *out = utf8_sanitize(S("a\xff"
	                            "b\0c\xe2\x82"),
	                          &len);
	cr_assert_not_null(out);
	cr_assert_str_eq(out, "a\xef\xbf\xbd"
	                      "b\xef\xbf\xbd"
	                      "c\xef\xbf\xbd\xef\xbf\xbd");
	cr_assert_eq(len, strlen(out));
	cr_assert(utf8_valid(out, len));
	free(out);
}

Test(utf8, keeps_good_text_byte_for_byte)
{
	const char text[] = "\xe2\x82\xac 5 \xf0\x9f\x98\x80";
	char *out = utf8_sanitize(text, sizeof(text) - 1, NULL);
	cr_assert_str_eq(out, text);
	free(out);
}

Test(utf8, finds_a_character_cut_at_the_end)
{
	cr_assert_eq(utf8_incomplete_tail(S("ab\xe2\x82")), 2);
	cr_assert_eq(utf8_incomplete_tail(S("ab\xe2")), 1);
	cr_assert_eq(utf8_incomplete_tail(S("ab\xf0\x9f\x98")), 3);
	cr_assert_eq(utf8_incomplete_tail(S("ab\xe2\x82\xac")), 0, "complete");
	cr_assert_eq(utf8_incomplete_tail(S("abc")), 0);
	cr_assert_eq(utf8_incomplete_tail(S("ab\xff")), 0, "not a prefix of anything");
	cr_assert_eq(utf8_incomplete_tail(S("\xed\xa0")), 0, "a surrogate never completes");
	cr_assert_eq(utf8_incomplete_tail(S("")), 0);
}
