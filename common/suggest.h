/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean ...?": the candidate closest to a misspelt word (a
 * configuration key or section, an option, a verb, a plugin's key), fed one
 * candidate at a time from whatever table holds them. Close means at most
 * two edits (insert, delete, replace, swap of neighbours) and fewer edits
 * than the word has letters, or the word being the start of exactly one
 * candidate.
 * Not for: formatting the message (each caller says it in its own words).
 */
#ifndef SLUICE_SUGGEST_H
#define SLUICE_SUGGEST_H

#include <stddef.h>

struct suggestion {
	const char *word;      /* borrowed: what was written */
	const char *best;      /* borrowed: the closest candidate so far, or NULL */
	unsigned distance;     /* its edit distance */
	const char *prefix_of; /* the one candidate word starts, or NULL */
	unsigned n_prefix_of;  /* how many candidates it starts */
};

/* Start looking for what word might have meant (word is borrowed). */
void suggestion_init(struct suggestion *s, const char *word);

/* Weigh one candidate (borrowed: it must live as long as s is used). */
void suggestion_consider(struct suggestion *s, const char *candidate);

/* The closest candidate, or NULL when none is close enough (borrowed). */
const char *suggestion_best(const struct suggestion *s);

/* The edit distance of a and b (Damerau-Levenshtein, neighbours swapped
 * counting as one edit); words longer than 63 bytes are as far as can be. */
unsigned suggest_distance(const char *a, const char *b);

#endif
