/* SPDX-License-Identifier: MIT */
/*
 * Assignments in the model: NAME=VALUE and NAME=(WORDS) as a command's
 * assignment and, for a statement of its own, what the variable holds for
 * the commands after it (model-state.h: a literal, a home, an array's
 * elements, a glob bash expanded); and a word that is an assignment
 * (`declare D=x`, `env A=1`).
 * Not for: expanding words (model-words.c), what a command changes besides
 * (model-effects.c).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "model/model-builder.h"
/* The length of the `$HOME` or `${HOME}` that text begins with when the
 * word is that one variable, unresolved, followed by nothing or a path
 * ("$HOME/x") or by blanks and more words ("$HOME /etc": an unquoted
 * expansion splits it, and its first field is the home); else 0. */
static size_t home_prefix(const char *text, const struct shell_word *w)
{
	uint32_t dynamic = w->flags & WORD_DYNAMIC_MASK;
	if (dynamic != WORD_PARAM || w->n_vars != 1 || strcmp(w->vars[0], "HOME") != 0)
		return 0;
	size_t len = strncmp(text, "${HOME}", 7) == 0 ? 7 : strncmp(text, "$HOME", 5) == 0 ? 5 : 0;
	if (!len ||
	    (text[len] != '\0' && text[len] != '/' && text[len] != ' ' && text[len] != '\t') ||
	    strchr(text + len, '$'))
		return 0;
	return len;
}

int builder_state_assign(struct model_state *st, const char *name, const struct shell_word *w)
{
	uint32_t dynamic = w->flags & WORD_DYNAMIC_MASK;
	if (dynamic == 0)
		return model_state_set(st, name, w->text);
	/* bash expanded the leading ~ (or $HOME) when it made the word */
	if (dynamic == WORD_TILDE)
		return model_state_set_tilde(st, name, w->text);
	size_t home = home_prefix(w->text, w);
	if (home) {
		_cleanup_free_ char *value = NULL;
		if (asprintf(&value, "~%s", w->text + home) < 0)
			return -ENOMEM;
		return model_state_set_tilde(st, name, value);
	}
	model_state_unset(st, name);
	return 0;
}

/* The flags of the value NAME=WORD gives NAME: bash neither globs nor
 * brace-expands an assignment, so a star or a brace written there is a
 * character of the value (x=* holds `*`, which an unquoted $x later
 * globs). A glob that came from a variable (x=$f in `for f in *`) stays
 * the names it matched. */
static uint32_t assigned_flags(const struct shell_word *w)
{
	if (w->flags & (WORD_RESOLVED | WORD_PARAM | WORD_CMDSUBST))
		return w->flags;
	return w->flags & ~(uint32_t)(WORD_GLOB | WORD_BRACE);
}

int builder_state_assign_expanded(struct model_state *st, const char *name,
                                  const struct shell_word *w)
{
	uint32_t dynamic = w->flags & WORD_DYNAMIC_MASK;
	if (!(dynamic & WORD_GLOB) || (dynamic & ~(WORD_GLOB | WORD_TILDE)))
		return builder_state_assign(st, name, w);
	return model_state_set_marked(st, name, w->text, dynamic & WORD_TILDE, true);
}

int builder_add_assign(struct simple_command *c, const char *name, size_t name_len,
                       struct model_word *value)
{
	struct model_assign *arr = reallocarray(c->assigns, c->n_assigns + 1, sizeof(*arr));
	if (!arr) {
		model_word_done(value);
		return -ENOMEM;
	}
	c->assigns = arr;
	char *n = strndup(name, name_len);
	if (!n) {
		model_word_done(value);
		return -ENOMEM;
	}
	c->assigns[c->n_assigns++] = (struct model_assign){ .name = n, .value = *value };
	return 0;
}

/* Elements of an array the model follows; a longer one is not known. */
#define ARRAY_MAX 8

/* The name under which model_state keeps element k of array var
 * ("a[0]"), or its count (k < 0: "a[#]"), in buf. */
const char *builder_array_slot(const char *var, long k, char *buf, size_t size)
{
	if (k < 0)
		snprintf(buf, size, "%s[#]", var);
	else
		snprintf(buf, size, "%s[%ld]", var, k);
	return buf;
}

/* NAME=(WORDS) or, with append, NAME+=(WORDS) (`declare -a`, `local -a`
 * too): when the array's elements are all known (static words, a home or
 * a glob bash expands there, as builder_state_assign_expanded() keeps
 * them: `a=(*)` holds what `*` matches) and at most ARRAY_MAX, they are
 * kept as "NAME[0]" ... with their count "NAME[#]", and NAME alone is
 * NAME[0], as in bash; otherwise NAME is forgotten (its expansions stay
 * dynamic). */
static int array_assign(struct builder *b, const struct walk_ctx *ctx, struct model_state *st,
                        const char *var, const struct shell_node *array, bool append)
{
	char slot[96];
	const char *count =
	        append ? model_state_get(st, builder_array_slot(var, -1, slot, sizeof(slot))) : "0";
	long n = count ? strtol(count, NULL, 10) : -1;
	if (!append)
		model_state_unset(st, var);
	for (uint32_t i = 0; i < array->n_children && n >= 0; i++) {
		const struct shell_node *k = &array->children[i];
		if (k->kind == SN_TOKEN)
			continue; /* ( and ) */
		if (!shell_node_is_word(k) || n >= ARRAY_MAX) {
			n = -1; /* [1]=x, one past the cap: not followed */
			break;
		}
		struct model_word w;
		int r = builder_word_from_node(b, &w, ctx, k, st);
		/* an unquoted value with blanks is split into more elements;
		 * [KEY]=VALUE sets a slot by its key: neither is followed */
		if (r >= 0 && w.w.text[0] == '[' && strstr(w.w.text, "]="))
			model_state_unset(st, builder_array_slot(var, n, slot, sizeof(slot)));
		else if (r >= 0 && w.w.lone_unquoted_var && w.w.text[strcspn(w.w.text, " \t\n")])
			model_state_unset(st, builder_array_slot(var, n, slot, sizeof(slot)));
		else if (r >= 0)
			r = builder_state_assign_expanded(
			        st, builder_array_slot(var, n, slot, sizeof(slot)), &w.w);
		model_word_done(&w);
		if (r < 0)
			return r;
		/* a value not known: not followed */
		n = model_state_get(st, slot) ? n + 1 : -1;
	}
	if (n < 0) {
		model_state_unset(st, var);
		return 0;
	}
	char value[24];
	snprintf(value, sizeof(value), "%ld", n);
	int r = model_state_set(st, builder_array_slot(var, -1, slot, sizeof(slot)), value);
	if (r >= 0 && n > 0 && !model_state_get(st, var))
		r = model_state_copy_var(st, var, builder_array_slot(var, 0, slot, sizeof(slot)));
	return r;
}

/* NAME=VALUE node -> the command's assignment; persist: a statement of its
 * own, so the variable is set for what follows. */
int builder_assignment_node(struct builder *b, struct simple_command *c, const struct walk_ctx *ctx,
                            const struct shell_node *n, struct model_state *st, bool persist)
{
	const struct shell_node *name = shell_node_find(n, SN_VAR_NAME);
	const struct shell_node *value = NULL;
	bool plain = false, append = false;
	for (uint32_t i = 0; i < n->n_children; i++) {
		const struct shell_node *k = &n->children[i];
		if (shell_node_is_token(ctx->src, k, "="))
			plain = true;
		else if (shell_node_is_token(ctx->src, k, "+="))
			append = true;
		else if (k != name && k->kind != SN_TOKEN)
			value = k;
	}
	if (!name)
		return 0;
	struct model_word w;
	int r = value ? builder_word_from_node(b, &w, ctx, value, st)
	              : builder_word_from_text(&w, "", 0);
	if (r < 0) {
		model_word_done(&w);
		return r;
	}
	_cleanup_free_ char *var = strndup(ctx->src + name->start, name->end - name->start);
	if (!var) {
		model_word_done(&w);
		return -ENOMEM;
	}
	bool word = plain && (!value || shell_node_is_word(value));
	/* D=~/x, D="$HOME/x": bash expands the home when it assigns; an
	 * array of that name is no longer known (D=x sets D[0] alone) */
	if (persist && value && value->kind == SN_ARRAY && (plain || append)) {
		r = array_assign(b, ctx, st, var, value, append);
	} else if (persist) {
		model_state_unset(st, var);
		struct shell_word assigned = w.w; /* borrows w's strings */
		assigned.flags = assigned_flags(&w.w);
		if (word)
			r = builder_state_assign_expanded(st, var, &assigned);
	}
	if (r >= 0 && c)
		return builder_add_assign(c, var, strlen(var), &w);
	model_word_done(&w);
	return r;
}

/* The length of NAME when w, before any command word, is an assignment to
 * bash: NAME=VALUE with NAME and = unquoted (the grammar reads
 * `A=x\<newline>y B=z cmd` as an assignment, then the command y with the
 * word B=z; once the continuation joined x and y, B=z is one more). */
size_t builder_assignment_word(const struct model_word *w)
{
	const char *eq = strchr(w->w.text, '=');
	size_t len = eq ? (size_t)(eq - w->w.text) : 0;
	if (!len || !w->w.mask || !shell_word_is_name(w->w.text, len) ||
	    strspn(w->w.mask, "u") <= len)
		return 0;
	return len;
}

/* The assignment word w (NAME=VALUE, NAME name_len bytes) as one of c's
 * prefixes. Consumes w. */
int builder_add_assign_word(struct simple_command *c, struct model_word *w, size_t name_len)
{
	struct model_word value;
	int r = builder_word_from_text(&value, w->w.text + name_len + 1, w->w.flags);
	if (r >= 0)
		r = builder_add_assign(c, w->w.text, name_len, &value);
	else
		model_word_done(&value);
	model_word_done(w);
	return r;
}
