/* SPDX-License-Identifier: MIT */
/*
 * Bash's brace expansion of one word, so that the policies see the words
 * bash will run: `git push {-f,} origin` is `git push -f origin`. Works on
 * a word after quote removal, with its mask (shell_word.mask): only
 * unquoted braces, commas and dots count.
 * Not for: the other expansions (shell-words.c), which bash does after.
 */
#ifndef SLUICE_BRACE_EXPAND_H
#define SLUICE_BRACE_EXPAND_H

#include <stdbool.h>
#include <stddef.h>

/* The words one word became, each with its mask; owned. */
struct brace_words {
	size_t n, cap;
	char **text;
	char **mask;
};

/*
 * Expand text[0..len) (mask: 'u' for each unquoted byte) as bash does:
 * `{a,b}` alternatives and `{x..y[..step]}` sequences of integers or single
 * letters, nested, with the text around each one repeated, in bash's
 * order; a brace that is neither stays as it is, as does `${`. A result
 * that is empty is dropped, as bash drops an unquoted empty word, unless
 * keep_empty (the word had quotes). Returns the number of words (1 and the
 * word itself when there is nothing to expand), -E2BIG when there would be
 * more than max (nothing is returned then), or -ENOMEM.
 */
int brace_expand(const char *text, const char *mask, size_t len, bool keep_empty, size_t max,
                 struct brace_words *ret);

void brace_words_done(struct brace_words *w);

#endif
