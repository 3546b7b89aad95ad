/* SPDX-License-Identifier: MIT */
/*
 * Brace expansion as bash's braces.c does it: the first brace pair that is
 * an expansion (an unquoted comma at its top level, or a sequence) splits
 * the word into a preamble, alternatives and a postscript; each
 * alternative followed by the postscript is expanded again, and the
 * preamble is put before each result. Pairs that are neither are text.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/brace-expand.h"
#include "cleanup.h"

/* Nested expansions followed, deepest; past it the word is too many. */
#define BRACE_MAX_DEPTH 64
/* The longest number a sequence bound may have. */
#define BRACE_MAX_DIGITS 18

struct expansion {
	struct brace_words *out;
	bool keep_empty;
	size_t max;
	/* the preamble so far: text and mask */
	char *pre, *pre_mask;
	size_t pre_len;
};

void brace_words_done(struct brace_words *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->text[i]);
		free(w->mask[i]);
	}
	free(w->text);
	free(w->mask);
	*w = (struct brace_words){ 0 };
}

static bool unquoted(const char *m, size_t i, char c, const char *t)
{
	return m[i] == 'u' && t[i] == c;
}

/* `${` opens a parameter expansion, not a brace expansion. */
static bool opens_brace(const char *t, const char *m, size_t i)
{
	return unquoted(m, i, '{', t) && !(i > 0 && unquoted(m, i - 1, '$', t));
}

/* A sequence bound: an integer (optional sign) or one character. */
struct bound {
	bool number;
	long long value;
	size_t width; /* the zero-padded width, 0 for none */
};

static bool parse_bound(const char *s, size_t len, struct bound *b)
{
	if (len == 1 && !(s[0] >= '0' && s[0] <= '9')) {
		*b = (struct bound){ .value = (unsigned char)s[0] };
		return true;
	}
	size_t i = (len > 0 && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
	if (i == len || len - i > BRACE_MAX_DIGITS)
		return false;
	long long v = 0;
	for (size_t k = i; k < len; k++) {
		if (s[k] < '0' || s[k] > '9')
			return false;
		v = v * 10 + (s[k] - '0');
	}
	bool padded = len - i > 1 && s[i] == '0';
	*b = (struct bound){ .number = true,
		             .value = s[0] == '-' ? -v : v,
		             .width = padded ? len : 0 };
	return true;
}

/* `x..y` or `x..y..step` (every byte unquoted). */
struct sequence {
	struct bound from, to;
	long long step;
};

static bool parse_sequence(const char *t, const char *m, size_t len, struct sequence *seq)
{
	for (size_t i = 0; i < len; i++)
		if (m[i] != 'u')
			return false;
	const char *dots = memmem(t, len, "..", 2);
	if (!dots)
		return false;
	size_t a = (size_t)(dots - t);
	const char *rest = dots + 2;
	size_t rest_len = len - a - 2;
	const char *dots2 = memmem(rest, rest_len, "..", 2);
	size_t b = dots2 ? (size_t)(dots2 - rest) : rest_len;
	struct bound step = { .number = true, .value = 1 };
	if (!parse_bound(t, a, &seq->from) || !parse_bound(rest, b, &seq->to) ||
	    seq->from.number != seq->to.number)
		return false;
	if (dots2 && (!parse_bound(dots2 + 2, rest_len - b - 2, &step) || !step.number))
		return false;
	seq->step = step.value < 0 ? -step.value : step.value;
	if (seq->step == 0)
		seq->step = 1;
	return true;
}

static size_t sequence_count(const struct sequence *s)
{
	long long span = s->to.value - s->from.value;
	return (size_t)((span < 0 ? -span : span) / s->step) + 1;
}

/* The k-th item of a sequence, written into buf. */
static size_t sequence_item(const struct sequence *s, size_t k, char *buf, size_t size)
{
	long long dir = s->to.value >= s->from.value ? 1 : -1;
	long long v = s->from.value + dir * s->step * (long long)k;
	if (!s->from.number) {
		buf[0] = (char)v;
		return 1;
	}
	size_t width = s->from.width > s->to.width ? s->from.width : s->to.width;
	int n = snprintf(buf, size, "%0*lld", (int)width, v);
	return n < 0 ? 0 : (size_t)n;
}

static int emit(struct expansion *e, const char *t, const char *m, size_t len)
{
	struct brace_words *out = e->out;
	size_t total = e->pre_len + len;
	if (total == 0 && !e->keep_empty)
		return 0;
	if (out->n >= e->max)
		return -E2BIG;
	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 8;
		char **text = realloc(out->text, cap * sizeof(*text));
		if (text)
			out->text = text;
		char **mask = text ? realloc(out->mask, cap * sizeof(*mask)) : NULL;
		if (!mask)
			return -ENOMEM;
		out->mask = mask;
		out->cap = cap;
	}
	char *wt = malloc(total + 1), *wm = malloc(total + 1);
	if (!wt || !wm) {
		free(wt);
		free(wm);
		return -ENOMEM;
	}
	if (e->pre_len) { /* no preamble yet: e->pre may be NULL */
		memcpy(wt, e->pre, e->pre_len);
		memcpy(wm, e->pre_mask, e->pre_len);
	}
	memcpy(wt + e->pre_len, t, len);
	memcpy(wm + e->pre_len, m, len);
	wt[total] = wm[total] = '\0';
	out->text[out->n] = wt;
	out->mask[out->n] = wm;
	out->n++;
	return 0;
}

/* The first brace pair in t that is an expansion: its braces' offsets. */
static bool find_expansion(const char *t, const char *m, size_t len, size_t *open, size_t *close,
                           struct sequence *seq, bool *is_seq)
{
	for (size_t i = 0; i < len; i++) {
		if (!opens_brace(t, m, i))
			continue;
		size_t depth = 0, j;
		bool comma = false;
		for (j = i + 1; j < len; j++) {
			if (opens_brace(t, m, j))
				depth++;
			else if (unquoted(m, j, '}', t) && depth-- == 0)
				break;
			else if (unquoted(m, j, ',', t) && depth == 0)
				comma = true;
		}
		if (j >= len)
			continue; /* unmatched: the `{` is text */
		*is_seq = !comma && parse_sequence(t + i + 1, m + i + 1, j - i - 1, seq);
		if (comma || *is_seq) {
			*open = i;
			*close = j;
			return true;
		}
	}
	return false;
}

static int expand(struct expansion *e, const char *t, const char *m, size_t len, unsigned depth);

/* Expand alternative a followed by the postscript p, after the preamble. */
static int expand_alternative(struct expansion *e, const char *at, const char *am, size_t alen,
                              const char *pt, const char *pm, size_t plen, unsigned depth)
{
	_cleanup_free_ char *t = malloc(alen + plen + 1), *m = malloc(alen + plen + 1);
	if (!t || !m)
		return -ENOMEM;
	memcpy(t, at, alen);
	memcpy(t + alen, pt, plen);
	memcpy(m, am, alen);
	memcpy(m + alen, pm, plen);
	return expand(e, t, m, alen + plen, depth + 1);
}

static int expand(struct expansion *e, const char *t, const char *m, size_t len, unsigned depth)
{
	size_t open, close;
	struct sequence seq;
	bool is_seq;
	if (!find_expansion(t, m, len, &open, &close, &seq, &is_seq))
		return emit(e, t, m, len);
	if (depth >= BRACE_MAX_DEPTH)
		return -E2BIG;
	/* the preamble grows by t[0..open) for what follows, then shrinks back */
	size_t saved = e->pre_len;
	char *pre = realloc(e->pre, saved + open + 1), *pre_mask = NULL;
	if (pre) {
		e->pre = pre;
		pre_mask = realloc(e->pre_mask, saved + open + 1);
	}
	if (!pre_mask)
		return -ENOMEM;
	e->pre_mask = pre_mask;
	memcpy(e->pre + saved, t, open);
	memcpy(e->pre_mask + saved, m, open);
	const char *pt = t + close + 1, *pm = m + close + 1;
	size_t plen = len - close - 1;
	int r = 0;
	if (is_seq) {
		size_t n = sequence_count(&seq);
		if (n > e->max)
			return -E2BIG;
		char item[32], item_mask[32];
		memset(item_mask, 'u', sizeof(item_mask));
		for (size_t k = 0; k < n && r >= 0; k++) {
			e->pre_len = saved + open;
			size_t ilen = sequence_item(&seq, k, item, sizeof(item));
			r = expand_alternative(e, item, item_mask, ilen, pt, pm, plen, depth);
		}
	} else {
		size_t level = 0, from = open + 1;
		for (size_t j = open + 1; j <= close && r >= 0; j++) {
			if (j < close && opens_brace(t, m, j))
				level++;
			else if (j < close && unquoted(m, j, '}', t))
				level--;
			if (j == close || (level == 0 && unquoted(m, j, ',', t))) {
				e->pre_len = saved + open;
				r = expand_alternative(e, t + from, m + from, j - from, pt, pm,
				                       plen, depth);
				from = j + 1;
			}
		}
	}
	e->pre_len = saved;
	return r;
}

int brace_expand(const char *text, const char *mask, size_t len, bool keep_empty, size_t max,
                 struct brace_words *ret)
{
	*ret = (struct brace_words){ 0 };
	struct expansion e = { .out = ret, .keep_empty = keep_empty, .max = max ? max : 1 };
	int r = expand(&e, text, mask, len, 0);
	free(e.pre);
	free(e.pre_mask);
	if (r < 0) {
		brace_words_done(ret);
		return r;
	}
	return (int)ret->n;
}
