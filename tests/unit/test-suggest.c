/* SPDX-License-Identifier: MIT */
/*
 * common/suggest.c: what a misspelt key, option or verb was perhaps meant
 * to be, and when nothing is close enough to say.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

#include "suggest.h"

static const char *best(const char *word, const char *const *candidates)
{
	static struct suggestion s;
	suggestion_init(&s, word);
	for (; *candidates; candidates++)
		suggestion_consider(&s, *candidates);
	return suggestion_best(&s);
}

static const char *const keys[] = { "timeout",    "slow_timeout", "max_timeout", "kill_grace",
	                            "output_cap", "output_head",  "output_tail", NULL };

Test(suggest, counts_each_kind_of_edit_once)
{
	cr_assert_eq(suggest_distance("timeout", "timeout"), 0);
	cr_assert_eq(suggest_distance("timout", "timeout"), 1);   /* a letter left out */
	cr_assert_eq(suggest_distance("timeoutt", "timeout"), 1); /* one too many */
	cr_assert_eq(suggest_distance("tineout", "timeout"), 1);  /* one replaced */
	cr_assert_eq(suggest_distance("tiemout", "timeout"), 1);  /* neighbours swapped */
	cr_assert_eq(suggest_distance("", "abc"), 3);
	cr_assert_eq(suggest_distance("kill", "grace"), 5);
}

Test(suggest, words_too_long_are_never_close)
{
	char longword[100];
	memset(longword, 'a', sizeof(longword) - 1);
	longword[sizeof(longword) - 1] = '\0';
	cr_assert_eq(suggest_distance(longword, "a"), UINT_MAX);
}

Test(suggest, names_the_key_one_or_two_edits_away)
{
	cr_assert_str_eq(best("timout", keys), "timeout");
	cr_assert_str_eq(best("output_tial", keys), "output_tail");
	cr_assert_str_eq(best("kil_grace", keys), "kill_grace");
}

Test(suggest, names_the_one_word_a_prefix_starts)
{
	cr_assert_str_eq(best("kill", keys), "kill_grace");
	cr_assert_null(best("output", keys), "three keys start with 'output'");
}

Test(suggest, says_nothing_when_nothing_is_close)
{
	cr_assert_null(best("frobnicate", keys));
	cr_assert_null(best("ab", (const char *const[]){ "xy", NULL }), "two edits of two letters");
	cr_assert_null(best("", keys));
}

Test(suggest, an_exact_match_is_not_a_suggestion)
{
	cr_assert_null(best("timeout", (const char *const[]){ "timeout", NULL }));
}
