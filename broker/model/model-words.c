/* SPDX-License-Identifier: MIT */
/*
 * The words of one simple command of the model: each word node expanded
 * with the variables the model knows (shell-words.c does the expansion,
 * lookup_var() says what a variable holds), "$@" and "${NAME[@]}" given as
 * the words they are, unquoted values split, braces expanded; and a `for`
 * loop's list expanded the same way (builder_expand_words()).
 * Not for: assignments (model-assign.c), redirections (model-redirect.c),
 * what the command does with its words (model-command.c).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/brace-expand.h"
#include "cleanup.h"
#include "model/model-builder.h"
/* Is name an array's element ("a[3]") or a positional parameter ("3")
 * after one that is a glob (a=(* x), set -- * x), or $# with a glob among
 * the parameters? The glob gave as many words as it matched, so the index
 * of what follows it, and the count, are not known. */
static bool element_after_glob(const struct model_state *st, const char *name)
{
	if (name[0] >= '1' && name[0] <= '9' && !name[1])
		return model_state_positional_glob(st, (unsigned)(name[0] - '1'));
	if (strcmp(name, "#") == 0)
		return model_state_positional_glob(st, 9);
	const char *open = strchr(name, '[');
	if (!open || open == name || open - name > 64)
		return false;
	long n = strtol(open + 1, NULL, 10);
	char slot[96];
	for (long k = 0; k < n && k < 64; k++) {
		snprintf(slot, sizeof(slot), "%.*s[%ld]", (int)(open - name), name, k);
		if (model_state_glob(st, slot))
			return true;
	}
	return false;
}

struct lookup {
	struct builder *b;
	struct model_state *st;
};

/* A literal variable's value, within the model's budget of resolved bytes
 * (past it, a variable stays unresolved: a dynamic word, never a wrong one). */
static const char *lookup_var(void *userdata, const char *name, uint32_t *flags)
{
	struct lookup *l = userdata;
	const char *value = model_state_get(l->st, name);
	if (!value || element_after_glob(l->st, name))
		return NULL;
	if (model_state_tilde(l->st, name))
		*flags |= WORD_TILDE;
	if (model_state_glob(l->st, name))
		*flags |= WORD_GLOB; /* the names a glob matched, quoted or not */
	size_t len = strlen(value);
	if (len > l->b->resolve_budget)
		return NULL;
	l->b->resolve_budget -= len;
	return value;
}

int builder_word_from_node(struct builder *b, struct model_word *out, const struct walk_ctx *ctx,
                           const struct shell_node *n, struct model_state *st)
{
	*out = (struct model_word){ 0 };
	struct lookup l = { b, st };
	int r = shell_word_expand(ctx->src, n, lookup_var, &l, &out->w);
	if (r < 0)
		return r;
	out->source = strndup(ctx->src + n->start, n->end - n->start);
	return out->source ? 0 : -ENOMEM;
}

int builder_word_from_text(struct model_word *out, const char *text, uint32_t flags)
{
	*out = (struct model_word){ .w.flags = flags };
	out->w.text = strdup(text);
	out->source = strdup(text);
	return out->w.text && out->source ? 0 : -ENOMEM;
}

int builder_word_copy(struct model_word *out, const struct model_word *in)
{
	*out = (struct model_word){ .w.flags = in->w.flags };
	out->w.text = strdup(in->w.text);
	out->source = strdup(in->source);
	if (!out->w.text || !out->source)
		return -ENOMEM;
	if (in->w.mask && !(out->w.mask = strdup(in->w.mask)))
		return -ENOMEM;
	for (size_t i = 0; i < in->w.n_vars; i++) {
		out->w.vars[i] = strdup(in->w.vars[i]);
		if (!out->w.vars[i])
			return -ENOMEM;
		out->w.n_vars++;
	}
	return 0;
}

/* Append one argv word; past max_words the word is dropped and flagged. */
int builder_push_arg(struct builder *b, struct simple_command *c, size_t *alloc,
                     struct model_word *w)
{
	if (c->argc >= b->lim->max_words) {
		b->m->limits_reached |= COMMAND_MODEL_LIMIT_WORDS;
		model_word_done(w);
		return 0;
	}
	if (builder_grow((void **)&c->argv, c->argc, alloc, sizeof(*c->argv)) < 0) {
		model_word_done(w);
		return -ENOMEM;
	}
	c->argv[c->argc++] = *w;
	return 0;
}

/* Two nodes with nothing between them are one word to bash (the grammar
 * sometimes splits `${A}-$1`): append in to into, which then spans
 * ctx->src[start..end). Consumes in. */
static int merge_word(struct model_word *into, struct model_word *in, const struct walk_ctx *ctx,
                      uint32_t start, uint32_t end)
{
	_cleanup_free_ char *text = NULL, *mask = NULL;
	int r = asprintf(&text, "%s%s", into->w.text, in->w.text);
	if (r >= 0 && into->w.mask && in->w.mask &&
	    asprintf(&mask, "%s%s", into->w.mask, in->w.mask) < 0)
		r = -1;
	char *source = strndup(ctx->src + start, end - start);
	if (r < 0 || !source) {
		free(source);
		model_word_done(in);
		return -ENOMEM;
	}
	free(into->w.text);
	into->w.text = TAKE_PTR(text);
	free(into->w.mask);
	into->w.mask = TAKE_PTR(mask); /* NULL when either part's is unknown */
	if (into->w.mask)              /* a brace may span the two parts */
		into->w.flags |=
		        shell_word_unquoted_flags(into->w.text, into->w.mask, strlen(into->w.text));
	free(into->source);
	into->source = source;
	into->w.flags |= in->w.flags;
	into->w.lone_unquoted_var = false;
	for (size_t i = 0; i < in->w.n_vars && into->w.n_vars < SHELL_WORD_MAX_VARS; i++)
		into->w.vars[into->w.n_vars++] = TAKE_PTR(in->w.vars[i]);
	model_word_done(in);
	return 0;
}

/* `$X` unquoted, resolved to a value with blanks, is split like bash does. */
static int push_split(struct builder *b, struct simple_command *c, size_t *alloc,
                      struct model_word *w)
{
	const char *ifs = " \t\n";
	if (!(w->w.lone_unquoted_var && (w->w.flags & WORD_RESOLVED)) ||
	    !w->w.text[strcspn(w->w.text, ifs)])
		return builder_push_arg(b, c, alloc, w);
	_cleanup_free_ char *text = TAKE_PTR(w->w.text);
	uint32_t flags = w->w.flags & ~WORD_SPLIT;
	model_word_done(w);
	int r = 0;
	for (char *save = NULL, *tok = strtok_r(text, ifs, &save); tok && r >= 0;
	     tok = strtok_r(NULL, ifs, &save)) {
		struct model_word part;
		r = builder_word_from_text(&part, tok, flags);
		if (r >= 0)
			r = builder_push_arg(b, c, alloc, &part);
		else
			model_word_done(&part);
	}
	return r;
}

/* The words brace expansion makes of w, each with w's source, variables
 * and flags (its glob and tilde as the word's own text has them), into
 * words[0..n); each takes its text and mask from bw. */
static int words_from_braces(const struct model_word *w, struct brace_words *bw,
                             struct model_word *words)
{
	uint32_t kept = w->w.flags & ~(uint32_t)(WORD_BRACE | WORD_GLOB | WORD_TILDE);
	for (size_t k = 0; k < bw->n; k++) {
		struct model_word *o = &words[k];
		*o = (struct model_word){ 0 };
		int r = builder_word_copy(o, w);
		if (r < 0)
			return r;
		free(o->w.text);
		free(o->w.mask);
		o->w.text = TAKE_PTR(bw->text[k]);
		o->w.mask = TAKE_PTR(bw->mask[k]);
		o->w.flags =
		        kept | shell_word_unquoted_flags(o->w.text, o->w.mask, strlen(o->w.text));
	}
	return 0;
}

/* Brace expansion comes first in bash: a word with an unquoted `{a,b}` or
 * `{x..y}` is the words it expands to (`git push {-f,}` pushes with -f).
 * Past max_words the word stays as written, and the limit is reached. */
int builder_expand_braces(struct builder *b, struct simple_command *c, size_t *alloc)
{
	for (size_t i = 0; i < c->argc; i++) {
		struct model_word *w = &c->argv[i];
		if (!(w->w.flags & WORD_BRACE) || !w->w.mask)
			continue;
		size_t room = b->lim->max_words > c->argc ? b->lim->max_words - c->argc + 1 : 1;
		bool quoted = strpbrk(w->source, "'\"\\") != NULL; /* "" makes a word */
		_cleanup_(brace_words_done) struct brace_words bw = { 0 };
		int r = brace_expand(w->w.text, w->w.mask, strlen(w->w.text), quoted, room, &bw);
		if (r == -E2BIG) {
			b->m->limits_reached |= COMMAND_MODEL_LIMIT_WORDS;
			continue;
		}
		if (r < 0)
			return r;
		size_t n = bw.n;
		_cleanup_free_ struct model_word *words = calloc(n ? n : 1, sizeof(*words));
		if (!words)
			return -ENOMEM;
		r = words_from_braces(w, &bw, words);
		while (r >= 0 && *alloc < c->argc - 1 + n)
			r = builder_grow((void **)&c->argv, *alloc, alloc, sizeof(*c->argv));
		if (r < 0) {
			for (size_t k = 0; k < n; k++)
				model_word_done(&words[k]);
			return r;
		}
		model_word_done(&c->argv[i]);
		memmove(&c->argv[i + n], &c->argv[i + 1], (c->argc - i - 1) * sizeof(*c->argv));
		memcpy(&c->argv[i], words, n * sizeof(*words));
		c->argc = c->argc - 1 + n;
		i = i + n - 1; /* n == 0: i - 1, the next word moved here */
	}
	return 0;
}

/* Does a value stay one word where an expansion gives it: quoted, or
 * with no blank that bash splits an unquoted one at? */
static bool value_stays_one_word(const char *value, bool unquoted)
{
	return !unquoted || !value[strcspn(value, " \t\n")];
}

/* Push value as one word of c where "$@" or "${a[@]}" gave it (a home
 * stays one; unquoted, a glob in it is one bash expands). */
static int push_value_word(struct builder *b, struct simple_command *c, size_t *alloc,
                           const struct model_state *st, const char *var, bool unquoted)
{
	const char *value = model_state_get(st, var);
	bool glob = model_state_glob(st, var) || (unquoted && strpbrk(value, "*?["));
	uint32_t flags = WORD_RESOLVED | (model_state_tilde(st, var) ? WORD_TILDE : 0) |
	                 (glob ? WORD_GLOB : 0);
	struct model_word word;
	int r = builder_word_from_text(&word, value, flags);
	if (r >= 0)
		r = builder_push_arg(b, c, alloc, &word);
	else
		model_word_done(&word);
	return r;
}

/* Push $k, a positional parameter the model does not know, as one word
 * of c where "$@" gave it: dynamic, as `"$k"` written there would be. */
static int push_unknown_param(struct builder *b, struct simple_command *c, size_t *alloc, size_t k,
                              bool unquoted)
{
	char text[3] = { '$', (char)('0' + k), '\0' };
	struct model_word word;
	int r = builder_word_from_text(&word, text, WORD_PARAM | (unquoted ? WORD_SPLIT : 0));
	if (r >= 0 && !(word.w.vars[0] = strdup(text + 1)))
		r = -ENOMEM;
	if (r >= 0) {
		word.w.n_vars = 1;
		r = builder_push_arg(b, c, alloc, &word);
	} else {
		model_word_done(&word);
	}
	return r;
}

/* "$@" (or $@, "${@}", $*) alone as a word, when $# is known and at least one
 * of $1 ... is: the words they are (a home stays one; one not known is
 * `$k`, dynamic), pushed onto c. `set -- "$@" ~; rm -rf "$@"` removes ~
 * whatever the parameters before it were. False (nothing pushed)
 * otherwise; with no parameters too, where a word that joins it would take
 * the place of the one before. */
static bool push_positional_words(struct builder *b, struct simple_command *c, size_t *alloc,
                                  const struct model_word *w, const struct model_state *st)
{
	/* unquoted, $* is split as $@ is; "$*" is one word, joined */
	static const char *const forms[] = { "\"$@\"", "$@", "\"${@}\"", "${@}", "$*", "${*}" };
	bool form = false;
	for (size_t i = 0; i < ELEMENTSOF(forms); i++)
		form |= strcmp(w->source, forms[i]) == 0;
	const char *count = form ? model_state_get(st, "#") : NULL;
	size_t n = count ? (size_t)(count[0] - '0') : 0;
	bool unquoted = w->source[0] != '"', any_known = false;
	for (size_t k = 1; k <= n; k++) {
		char p[2] = { (char)('0' + k), '\0' };
		const char *value = model_state_get(st, p);
		if (value && !value_stays_one_word(value, unquoted))
			return false;
		any_known |= value != NULL;
	}
	for (size_t k = 1; k <= n && any_known && !b->error; k++) {
		char p[2] = { (char)('0' + k), '\0' };
		b->error = model_state_get(st, p) ? push_value_word(b, c, alloc, st, p, unquoted)
		                                  : push_unknown_param(b, c, alloc, k, unquoted);
	}
	return any_known;
}

/* "${NAME[@]}" (or ${NAME[@]}, ${NAME[*]}) alone as a word, when the
 * array NAME is known (array_assign()): its elements, pushed onto c (a
 * home stays one). False (nothing pushed) otherwise: an unquoted element
 * that bash would split, or an empty array (a word that joins it would
 * take the place of the one before). */
static bool push_array_words(struct builder *b, struct simple_command *c, size_t *alloc,
                             const struct model_word *w, const struct model_state *st)
{
	const char *src = w->source;
	size_t len = strlen(src);
	bool quoted = len > 2 && src[0] == '"' && src[len - 1] == '"';
	if (quoted) {
		src++;
		len -= 2;
	}
	if (len < 7 || strncmp(src, "${", 2) != 0 ||
	    (strncmp(src + len - 4, "[@]}", 4) != 0 &&
	     (quoted || strncmp(src + len - 4, "[*]}", 4) != 0)) ||
	    !shell_word_is_name(src + 2, len - 6) || len - 6 > 64)
		return false;
	char var[65], slot[96];
	snprintf(var, sizeof(var), "%.*s", (int)(len - 6), src + 2);
	const char *count = model_state_get(st, builder_array_slot(var, -1, slot, sizeof(slot)));
	long n = count ? strtol(count, NULL, 10) : 0;
	for (long k = 0; k < n; k++) {
		const char *value =
		        model_state_get(st, builder_array_slot(var, k, slot, sizeof(slot)));
		if (!value || !value_stays_one_word(value, !quoted))
			return false;
	}
	for (long k = 0; k < n && !b->error; k++) {
		b->error = push_value_word(b, c, alloc, st,
		                           builder_array_slot(var, k, slot, sizeof(slot)), !quoted);
	}
	return n > 0;
}

/* Append the word node wn to c's argv: a word of its own, or the rest of
 * the word before it when nothing separates them (the grammar splits
 * `${A}-$1`). */
int builder_push_word_node(struct builder *b, struct simple_command *c, const struct walk_ctx *ctx,
                           const struct shell_node *wn, struct model_state *st,
                           struct word_cursor *wc)
{
	struct model_word w;
	int r = builder_word_from_node(b, &w, ctx, wn, st);
	bool joins = c->argc > 0 && wn->start == wc->prev_end;
	size_t name_len;
	if (r < 0)
		model_word_done(&w);
	else if (c->argc == 0 && !wc->words_only && (name_len = builder_assignment_word(&w)) > 0)
		r = builder_add_assign_word(c, &w, name_len);
	else if (joins)
		r = merge_word(&c->argv[c->argc - 1], &w, ctx, wc->prev_start, wn->end);
	else if (push_positional_words(b, c, &wc->alloc, &w, st) ||
	         push_array_words(b, c, &wc->alloc, &w, st)) {
		model_word_done(&w);
		r = b->error;
	} else
		r = push_split(b, c, &wc->alloc, &w);
	if (!joins)
		wc->prev_start = wn->start;
	wc->prev_end = wn->end;
	return r;
}

int builder_expand_words(struct builder *b, const struct walk_ctx *ctx,
                         const struct shell_node *const *list, size_t n, struct model_state *st,
                         struct simple_command **ret)
{
	struct simple_command *c = calloc(1, sizeof(*c));
	struct word_cursor wc = { .prev_end = UINT32_MAX, .words_only = true };
	int r = c ? 0 : -ENOMEM;
	for (size_t i = 0; i < n && r >= 0; i++)
		r = builder_push_word_node(b, c, ctx, list[i], st, &wc);
	if (r >= 0)
		r = builder_expand_braces(b, c, &wc.alloc);
	if (r < 0) {
		simple_command_free(c);
		c = NULL;
	}
	*ret = c;
	return r;
}
