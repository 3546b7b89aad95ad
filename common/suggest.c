/* SPDX-License-Identifier: MIT */
/*
 * The closest of a set of words to a misspelt one (see suggest.h).
 */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "suggest.h"

/* Longer words than this are never suggested, nor suggested for. */
#define WORD_MAX 63

unsigned suggest_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > WORD_MAX || m > WORD_MAX)
		return UINT_MAX;
	/* three rows of the table: i - 2, i - 1 and i */
	unsigned rows[3][WORD_MAX + 1];
	for (size_t j = 0; j <= m; j++)
		rows[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++) {
		unsigned *cur = rows[i % 3], *prev = rows[(i - 1) % 3], *prev2 = rows[(i + 1) % 3];
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= m; j++) {
			unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;
			unsigned d = prev[j] + 1; /* delete */
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1; /* insert */
			if (prev[j - 1] + cost < d)
				d = prev[j - 1] + cost; /* replace */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1; /* swap */
			cur[j] = d;
		}
	}
	return rows[n % 3][m];
}

void suggestion_init(struct suggestion *s, const char *word)
{
	*s = (struct suggestion){ .word = word, .distance = UINT_MAX };
}

void suggestion_consider(struct suggestion *s, const char *candidate)
{
	if (!candidate || strcmp(candidate, s->word) == 0)
		return;
	size_t len = strlen(s->word);
	if (len > 0 && strncmp(candidate, s->word, len) == 0) {
		if (!s->prefix_of || strcmp(s->prefix_of, candidate) != 0)
			s->n_prefix_of++;
		s->prefix_of = candidate;
	}
	unsigned d = suggest_distance(s->word, candidate);
	if (d < s->distance) {
		s->distance = d;
		s->best = candidate;
	}
}

const char *suggestion_best(const struct suggestion *s)
{
	size_t len = strlen(s->word);
	if (s->best && s->distance <= 2 && s->distance < len)
		return s->best;
	if (s->n_prefix_of == 1)
		return s->prefix_of;
	return NULL;
}
