/* SPDX-License-Identifier: MIT */
/*
 * One simple command of the model: its words expanded (shell-words), its
 * assignments and redirections, the wrappers taken off (wrappers.c), and
 * what it starts in turn: the string of a nested shell or eval, find's
 * -exec clauses; and what it changes for later commands (cd, variables).
 * Not for: walking statements (model-builder.c).
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
#include "util/strbuf.h"
#include "model/wrappers.h"

#define NORMALIZED_MAX_BYTES ((size_t)256 * 1024)

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

/* Is name an array's element ("a[3]") after one that is a glob (a=(* x))?
 * The glob gave as many elements as it matched, so that one's index is
 * not known. */
static bool element_after_glob(const struct model_state *st, const char *name)
{
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

/* Grow an array of elem-sized items to hold one more. */
static int grow(void **array, size_t n, size_t *alloc, size_t elem)
{
	if (n < *alloc)
		return 0;
	size_t want = *alloc ? *alloc * 2 : 4;
	void *p = reallocarray(*array, want, elem);
	if (!p)
		return -ENOMEM;
	*array = p;
	*alloc = want;
	return 0;
}

/* The length of the `$HOME` or `${HOME}` that text begins with when the
 * word is that one variable, unresolved, followed by nothing or a path
 * ("$HOME/x"); else 0. */
static size_t home_prefix(const char *text, const struct shell_word *w)
{
	uint32_t dynamic = w->flags & WORD_DYNAMIC_MASK;
	if (dynamic != WORD_PARAM || w->n_vars != 1 || strcmp(w->vars[0], "HOME") != 0)
		return 0;
	size_t len = strncmp(text, "${HOME}", 7) == 0 ? 7 : strncmp(text, "$HOME", 5) == 0 ? 5 : 0;
	if (!len || (text[len] != '\0' && text[len] != '/') || strchr(text + len, '$'))
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

int builder_state_assign_expanded(struct model_state *st, const char *name,
                                  const struct shell_word *w)
{
	uint32_t dynamic = w->flags & WORD_DYNAMIC_MASK;
	if (!(dynamic & WORD_GLOB) || (dynamic & ~(WORD_GLOB | WORD_TILDE)))
		return builder_state_assign(st, name, w);
	return model_state_set_marked(st, name, w->text, dynamic & WORD_TILDE, true);
}

/* ------------------------------------------------------------ creation */

int builder_copy_wrapper(struct model_wrapper *dst, const char *name, char *const *argv,
                         size_t argc)
{
	*dst = (struct model_wrapper){ 0 };
	dst->name = strdup(name);
	dst->argv = calloc(argc ? argc : 1, sizeof(char *));
	if (!dst->name || !dst->argv)
		return -ENOMEM;
	for (size_t i = 0; i < argc; i++) {
		dst->argv[i] = strdup(argv[i]);
		if (!dst->argv[i])
			return -ENOMEM;
		dst->argc++;
	}
	return 0;
}

static int add_wrapper(struct simple_command *c, const char *name, char *const *argv, size_t argc)
{
	struct model_wrapper *w = reallocarray(c->wrappers, c->n_wrappers + 1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	c->wrappers = w;
	int r = builder_copy_wrapper(&w[c->n_wrappers], name, argv, argc);
	c->n_wrappers++; /* counted even when half-built, so that it is freed */
	return r;
}

/* A new command at the current point of the walk, appended to the model; NULL
 * when the model is full (flagged) or on -ENOMEM (b->error). */
struct simple_command *builder_command_new(struct builder *b, const struct walk_ctx *ctx,
                                           const struct shell_node *n)
{
	struct command_model *m = b->m;
	if (m->n_commands >= b->lim->max_commands) {
		m->limits_reached |= COMMAND_MODEL_LIMIT_COMMANDS;
		return NULL;
	}
	if (grow((void **)&m->commands, m->n_commands, &m->alloc_commands, sizeof(*m->commands)) <
	    0) {
		b->error = -ENOMEM;
		return NULL;
	}
	struct simple_command *c = calloc(1, sizeof(*c));
	if (!c) {
		b->error = -ENOMEM;
		return NULL;
	}
	m->commands[m->n_commands] = c;
	c->index = m->n_commands++;
	c->parent = ctx->parent;
	c->depth = b->depth;
	c->pipeline = b->pipeline;
	c->pipe_position = b->pipe_position;
	c->pipe_length = b->pipe_length;
	c->frames = malloc(b->depth ? b->depth : 1);
	c->text = strndup(ctx->src + n->start, n->end - n->start);
	c->function = b->function ? strdup(b->function) : NULL;
	if (!c->frames || !c->text || (b->function && !c->function)) {
		b->error = -ENOMEM;
		return NULL;
	}
	memcpy(c->frames, b->frames, b->depth);
	c->span_start = ctx->nested ? ctx->span_start : n->start;
	c->span_end = ctx->nested ? ctx->span_end : n->end;
	if (ctx->negated)
		c->flags |= CMD_NEGATED;
	if (ctx->background)
		c->flags |= CMD_BACKGROUND;
	if (ctx->has_error && builder_subtree_has_error(n)) {
		c->flags |= CMD_PARTIAL;
		m->partial_causes |= COMMAND_MODEL_PARTIAL_SYNTAX;
	}
	for (size_t i = 0; i < b->n_prefix && !b->error; i++)
		b->error =
		        add_wrapper(c, b->prefix[i]->name, b->prefix[i]->argv, b->prefix[i]->argc);
	c->n_inherited_wrappers = c->n_wrappers;
	return b->error ? NULL : c;
}

static int word_from_node(struct builder *b, struct model_word *out, const struct walk_ctx *ctx,
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
	if (grow((void **)&c->argv, c->argc, alloc, sizeof(*c->argv)) < 0) {
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
static int expand_braces(struct builder *b, struct simple_command *c, size_t *alloc)
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
			r = grow((void **)&c->argv, *alloc, alloc, sizeof(*c->argv));
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

/* -------------------------------------------------------- redirections */

/* `>&-` and `<&-` close a descriptor: they take no target word. */
static bool redirect_closes(const char *src, const struct shell_node *redirect)
{
	for (uint32_t i = 0; i < redirect->n_children; i++)
		if (shell_node_is_token(src, &redirect->children[i], ">&-") ||
		    shell_node_is_token(src, &redirect->children[i], "<&-"))
			return true;
	return false;
}

static int add_redirect(struct builder *b, struct simple_command *c, const char *src,
                        const struct shell_node *n, struct model_state *st, int fd)
{
	struct model_redirect rd = { .fd = fd };
	struct walk_ctx wctx = { .src = src };
	const struct shell_node *target = NULL, *body = NULL;
	bool quoted_delim = false;
	for (uint32_t i = 0; i < n->n_children; i++) {
		const struct shell_node *k = &n->children[i];
		if (k->kind == SN_FILE_DESCRIPTOR) {
			rd.fd = atoi(src + k->start);
		} else if (k->kind == SN_TOKEN && !rd.op) {
			rd.op = strndup(src + k->start, k->end - k->start);
			if (!rd.op)
				goto fail;
		} else if (k->kind == SN_HEREDOC_START) {
			target = k;
			quoted_delim = shell_heredoc_is_quoted(src, n);
		} else if (k->kind == SN_HEREDOC_BODY) {
			body = k;
		} else if (!target && shell_node_is_word(k) && !redirect_closes(src, n)) {
			target = k;
		}
	}
	if (!rd.op && !(rd.op = strdup("")))
		goto fail;
	if (redirect_closes(src, n)) {
		if (builder_word_from_text(&rd.target, "-", 0) < 0)
			goto fail;
	} else if (target) {
		/* a heredoc's delimiter is a word: expanding it removes its quotes */
		struct shell_node as_word = *target;
		if (as_word.kind == SN_HEREDOC_START)
			as_word.kind = SN_WORD;
		if (word_from_node(b, &rd.target, &wctx, &as_word, st) < 0)
			goto fail;
		if (target->kind == SN_HEREDOC_START) {
			/* the delimiter, its quotes removed; the body stays literal if quoted */
			char *d = rd.target.w.text;
			size_t o = 0;
			for (size_t i = 0; d[i]; i++)
				if (d[i] != '\'' && d[i] != '"' && d[i] != '\\')
					d[o++] = d[i];
			d[o] = '\0';
			rd.target.w.flags = quoted_delim ? WORD_QUOTED : 0;
		}
	} else if (builder_word_from_text(&rd.target, "", WORD_UNKNOWN) < 0) {
		goto fail;
	}
	if (body) {
		rd.body = strndup(src + body->start, body->end - body->start);
		if (!rd.body)
			goto fail;
		/* an unquoted delimiter leaves $X, $(...) and `...` live in the body,
		 * and bash reads its backslashes as in "..." (what a shell fed
		 * the body reads) */
		size_t bq_start, bq_end;
		if (!quoted_delim) {
			for (uint32_t i = 0; i < body->n_children; i++)
				if (body->children[i].kind != SN_HEREDOC_CONTENT)
					rd.target.w.flags |= WORD_PARAM;
			if (shell_backquote_find(rd.body, strlen(rd.body), &bq_start, &bq_end))
				rd.target.w.flags |= WORD_CMDSUBST;
			shell_heredoc_unescape(rd.body);
		}
	} else if (n->kind == SN_HERESTRING_REDIRECT) {
		rd.body = strdup(rd.target.w.text);
		if (!rd.body)
			goto fail;
	}
	struct model_redirect *arr = reallocarray(c->redirects, c->n_redirects + 1, sizeof(*arr));
	if (!arr)
		goto fail;
	c->redirects = arr;
	c->redirects[c->n_redirects++] = rd;
	return 0;
fail:
	free(rd.op);
	free(rd.body);
	model_word_done(&rd.target);
	return -ENOMEM;
}

/* --------------------------------------------------------- assignments */

static int add_assign(struct simple_command *c, const char *name, size_t name_len,
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
static const char *array_slot(const char *var, long k, char *buf, size_t size)
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
	        append ? model_state_get(st, array_slot(var, -1, slot, sizeof(slot))) : "0";
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
		int r = word_from_node(b, &w, ctx, k, st);
		/* an unquoted value with blanks is split into more elements */
		if (r >= 0 && w.w.lone_unquoted_var && w.w.text[strcspn(w.w.text, " \t\n")])
			model_state_unset(st, array_slot(var, n, slot, sizeof(slot)));
		else if (r >= 0)
			r = builder_state_assign_expanded(
			        st, array_slot(var, n, slot, sizeof(slot)), &w.w);
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
	int r = model_state_set(st, array_slot(var, -1, slot, sizeof(slot)), value);
	if (r >= 0 && n > 0 && !model_state_get(st, var))
		r = model_state_copy_var(st, var, array_slot(var, 0, slot, sizeof(slot)));
	return r;
}

/* NAME=VALUE node -> the command's assignment; persist: a statement of its
 * own, so the variable is set for what follows. */
static int assignment_node(struct builder *b, struct simple_command *c, const struct walk_ctx *ctx,
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
	int r = value ? word_from_node(b, &w, ctx, value, st) : builder_word_from_text(&w, "", 0);
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
		if (word)
			r = builder_state_assign(st, var, &w.w);
	}
	if (r >= 0 && c)
		return add_assign(c, var, strlen(var), &w);
	model_word_done(&w);
	return r;
}

/* ------------------------------------------------------ normalised text */

static void norm_word(struct strbuf *sb, const char *w)
{
	if (sb->len > 0)
		(void)strbuf_append_char(sb, ' ');
	bool quote = w[0] == '\0' || w[strcspn(w, " \t\n")] != '\0';
	if (quote)
		(void)strbuf_append_char(sb, '\'');
	(void)strbuf_append_str(sb, w);
	if (quote)
		(void)strbuf_append_char(sb, '\'');
}

static int normalize(struct simple_command *c)
{
	struct strbuf sb = strbuf_init(NORMALIZED_MAX_BYTES);
	for (size_t i = 0; i < c->n_wrappers; i++)
		for (size_t j = 0; j < c->wrappers[i].argc; j++)
			norm_word(&sb, c->wrappers[i].argv[j]);
	for (size_t i = 0; i < c->n_assigns; i++) {
		_cleanup_free_ char *a = NULL;
		if (asprintf(&a, "%s=%s", c->assigns[i].name, c->assigns[i].value.w.text) < 0) {
			strbuf_done(&sb);
			return -ENOMEM;
		}
		norm_word(&sb, a);
	}
	for (size_t i = 0; i < c->argc; i++)
		norm_word(&sb, c->argv[i].w.text);
	c->normalized = strbuf_take(&sb);
	return c->normalized ? 0 : -ENOMEM;
}

/* ------------------------------------------------------------ unwrapping */

/* Take the wrappers off the front of argv (sudo -u root env A=1 nice rm ...).
 * Returns the index of the real command's first word. */
static size_t unwrap(struct builder *b, struct simple_command *c, char *const *texts, char **chdir)
{
	size_t i = 0;
	while (i < c->argc && !b->error) {
		if (!builder_word_is_static(&c->argv[i]))
			break;
		const struct wrapper *w = wrapper_find(base_name(texts[i]));
		if (!w || w->flags & WRAP_EXEC_CLAUSES)
			break;
		struct wrapper_match m;
		wrapper_match(w, (const char *const *)texts, c->argc, i, &m);
		if (m.stops || m.end >= c->argc || m.shell_join || m.string_word >= 0)
			break; /* the wrapper is the command itself (or runs a shell string) */
		b->error = add_wrapper(c, w->name, texts + i, m.end - i);
		for (size_t k = m.assign_begin; k < m.assign_end && !b->error; k++) {
			const char *eq = strchr(texts[k], '=');
			struct model_word value;
			b->error = builder_word_from_text(&value, eq + 1, c->argv[k].w.flags);
			if (!b->error)
				b->error = add_assign(c, texts[k], (size_t)(eq - texts[k]), &value);
			else
				model_word_done(&value);
		}
		if (m.chdir_word >= 0) {
			const char *dir = texts[m.chdir_word] + m.chdir_offset;
			free(*chdir);
			*chdir = strdup(dir);
			if (!*chdir)
				b->error = -ENOMEM;
		}
		if (w->flags & WRAP_ARGV_INCOMPLETE)
			c->flags |= CMD_ARGV_INCOMPLETE;
		if (m.unknown_opt)
			c->flags |= CMD_WRAPPER_UNKNOWN_OPT;
		i = m.end;
	}
	return i;
}

/* Drop argv[0..n) (moved into the wrappers). */
static void drop_front(struct simple_command *c, size_t n)
{
	if (n == 0)
		return; /* not a no-op: argv is NULL when there are no words (`A=1`) */
	for (size_t i = 0; i < n; i++)
		model_word_done(&c->argv[i]);
	memmove(c->argv, c->argv + n, (c->argc - n) * sizeof(*c->argv));
	c->argc -= n;
}

/* A word that bash takes for a keyword where a command's name would be
 * (`then`, `done`, `{` ...: each a syntax error there). */
static bool is_reserved_word(const char *source)
{
	static const char *const words[] = {
		"in",    "then",  "else", "elif",   "fi",       "do", "done", "esac", "if", "for",
		"while", "until", "case", "select", "function", "{",  "}",    "[[",   "]]",
	};
	if (!strchr("itedfwucs{}[]", source[0]) || strlen(source) > 8)
		return false; /* most names: no keyword starts so or is that long */
	for (size_t i = 0; i < ELEMENTSOF(words); i++)
		if (strcmp(source, words[i]) == 0)
			return true;
	return false;
}

static bool is_function(const struct builder *b, const char *name)
{
	for (size_t i = 0; i < b->n_functions; i++)
		if (strcmp(b->functions[i], name) == 0)
			return true;
	return false;
}

void builder_finish_command(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                            struct model_state *st, const char *inherited_chdir)
{
	_cleanup_free_ char **texts = calloc(c->argc + 1, sizeof(char *));
	_cleanup_free_ char *chdir = NULL;
	if (!texts) {
		b->error = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < c->argc; i++)
		texts[i] = c->argv[i].w.text;
	size_t first = unwrap(b, c, texts, &chdir);
	if (b->error)
		return;
	drop_front(c, first);
	for (size_t i = 0; i < c->argc; i++)
		texts[i] = c->argv[i].w.text;

	if (c->flags & CMD_ARGV_INCOMPLETE)
		b->error = builder_xargs_input(b, c, ctx->stdin_writer);
	if (b->error)
		return;
	if (c->argc > 0) {
		c->name = strdup(base_name(c->argv[0].w.text));
		if (!builder_word_is_static(&c->argv[0]))
			c->flags |= CMD_NAME_DYNAMIC;
		else if (!strchr(c->argv[0].w.text, '/') && is_function(b, c->name))
			c->flags |= CMD_FUNCTION_CALL;
	} else {
		c->name = strdup("");
	}
	if (!c->name) {
		b->error = -ENOMEM;
		return;
	}
	const char *base = inherited_chdir ? inherited_chdir : st->cwd;
	if (st->cwd_unknown && !inherited_chdir) {
		c->flags |= CMD_CWD_UNKNOWN;
	} else if (chdir || base) {
		c->cwd = chdir ? model_state_join(base, chdir) : strdup(base);
		if (!c->cwd) {
			b->error = -ENOMEM;
			return;
		}
	}
	b->error = normalize(c);
	if (b->error || c->argc == 0 || c->flags & CMD_NAME_DYNAMIC)
		return;
	if (is_reserved_word(c->argv[0].source)) {
		/* bash reads it as a keyword, never as a command: the grammar
		 * misread the syntax around it */
		c->flags |= CMD_PARTIAL;
		b->m->partial_causes |= COMMAND_MODEL_PARTIAL_SYNTAX;
		return;
	}
	if (strcmp(c->name, "coproc") == 0) {
		/* bash's reserved word, a plain word to the grammar */
		c->flags |= CMD_PARTIAL;
		b->m->partial_causes |= COMMAND_MODEL_PARTIAL_COPROC;
		return;
	}
	builder_started(b, ctx, c, texts, st);
	if (!b->error && c->flags & CMD_FUNCTION_CALL)
		builder_call_function(b, ctx, c, st);
	if (!b->error)
		builder_effects(b, c, st);
}

/* ------------------------------------------------------------- commands */

/* The grammar reads "0<" as a word 0 and a redirection "<" (a 3< is a
 * descriptor): a redirection without one that starts right where c's
 * last word, all digits, ends (prev_end) takes that word as its
 * descriptor, as bash does. The word leaves argv; -1 when there is none. */
static int fd_written_before(struct simple_command *c, const char *src,
                             const struct shell_node *redirect, uint32_t prev_end)
{
	bool touching = redirect->start == prev_end ||
	                (prev_end != UINT32_MAX &&
	                 shell_gap_is_continuation(src, prev_end, redirect->start));
	if (c->argc < 1 || !touching || shell_node_find(redirect, SN_FILE_DESCRIPTOR))
		return -1;
	struct model_word *w = &c->argv[c->argc - 1];
	const char *t = w->w.text;
	size_t len = strlen(t);
	if (!builder_word_is_static(w) || len == 0 || len > 4 || strspn(t, "0123456789") != len)
		return -1;
	int fd = atoi(t);
	model_word_done(w);
	c->argc--;
	return fd;
}

/* The length of NAME when w, before any command word, is an assignment to
 * bash: NAME=VALUE with NAME and = unquoted (the grammar reads
 * `A=x\<newline>y B=z cmd` as an assignment, then the command y with the
 * word B=z; once the continuation joined x and y, B=z is one more). */
static size_t assignment_word(const struct model_word *w)
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
static int add_assign_word(struct simple_command *c, struct model_word *w, size_t name_len)
{
	struct model_word value;
	int r = builder_word_from_text(&value, w->w.text + name_len + 1, w->w.flags);
	if (r >= 0)
		r = add_assign(c, w->w.text, name_len, &value);
	else
		model_word_done(&value);
	model_word_done(w);
	return r;
}

/* Where the words of a command being built stand: argv's allocation, and
 * the source span of the last word (a word right after it joins it). */
struct word_cursor {
	size_t alloc;
	uint32_t prev_start, prev_end;
	bool words_only; /* a list of words (a loop's): none is an assignment */
};

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

/* "$@" (or $@, "${@}") alone as a word, when $# and each of $1 ... are
 * known: the words they are (a home stays one), pushed onto c. False
 * (nothing pushed) otherwise; with no parameters too, where a word that
 * joins it would take the place of the one before. */
static bool push_positional_words(struct builder *b, struct simple_command *c, size_t *alloc,
                                  const struct model_word *w, const struct model_state *st)
{
	static const char *const forms[] = { "\"$@\"", "$@", "\"${@}\"", "${@}" };
	bool form = false;
	for (size_t i = 0; i < ELEMENTSOF(forms); i++)
		form |= strcmp(w->source, forms[i]) == 0;
	const char *count = form ? model_state_get(st, "#") : NULL;
	size_t n = count ? (size_t)(count[0] - '0') : 0;
	bool unquoted = w->source[0] != '"';
	for (size_t k = 1; k <= n; k++) {
		char p[2] = { (char)('0' + k), '\0' };
		const char *value = model_state_get(st, p);
		if (!value || !value_stays_one_word(value, unquoted))
			return false;
	}
	for (size_t k = 1; k <= n && !b->error; k++) {
		char p[2] = { (char)('0' + k), '\0' };
		b->error = push_value_word(b, c, alloc, st, p, unquoted);
	}
	return n > 0;
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
	const char *count = model_state_get(st, array_slot(var, -1, slot, sizeof(slot)));
	long n = count ? strtol(count, NULL, 10) : 0;
	for (long k = 0; k < n; k++) {
		const char *value = model_state_get(st, array_slot(var, k, slot, sizeof(slot)));
		if (!value || !value_stays_one_word(value, !quoted))
			return false;
	}
	for (long k = 0; k < n && !b->error; k++) {
		b->error = push_value_word(b, c, alloc, st, array_slot(var, k, slot, sizeof(slot)),
		                           !quoted);
	}
	return n > 0;
}

/* Append the word node wn to c's argv: a word of its own, or the rest of
 * the word before it when nothing separates them (the grammar splits
 * `${A}-$1`). */
static int push_word_node(struct builder *b, struct simple_command *c, const struct walk_ctx *ctx,
                          const struct shell_node *wn, struct model_state *st,
                          struct word_cursor *wc)
{
	struct model_word w;
	int r = word_from_node(b, &w, ctx, wn, st);
	bool joins = c->argc > 0 && wn->start == wc->prev_end;
	size_t name_len;
	if (r < 0)
		model_word_done(&w);
	else if (c->argc == 0 && !wc->words_only && (name_len = assignment_word(&w)) > 0)
		r = add_assign_word(c, &w, name_len);
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

/* The grammar gives a redirection the words that follow its target
 * (`git push > /dev/null --force`, `cat <<EOF x`); bash gives them to the
 * command, after the words before them. */
static int push_redirect_words(struct builder *b, struct simple_command *c,
                               const struct walk_ctx *ctx, const struct shell_node *redirect,
                               struct model_state *st, struct word_cursor *wc)
{
	bool after_target = redirect_closes(ctx->src, redirect);
	for (uint32_t i = 0; i < redirect->n_children; i++) {
		const struct shell_node *k = &redirect->children[i];
		if (k->kind == SN_HEREDOC_START || (!after_target && shell_node_is_word(k))) {
			after_target = true;
			continue;
		}
		if (after_target && shell_node_is_word(k)) {
			int r = push_word_node(b, c, ctx, k, st, wc);
			if (r < 0)
				return r;
		} else if (after_target && k->kind == SN_ERROR) {
			/* words the grammar could not place (`3>&- x`): still words */
			for (uint32_t j = 0; j < k->n_children; j++) {
				int r = shell_node_is_word(&k->children[j])
				                ? push_word_node(b, c, ctx, &k->children[j], st, wc)
				                : 0;
				if (r < 0)
					return r;
			}
		}
	}
	return 0;
}

/* `(( x > 1 ))` as a command: arithmetic, not a program to run. */
static bool is_arithmetic_command(const struct walk_ctx *ctx, const struct shell_node *n)
{
	const struct shell_node *name = shell_node_find(n, SN_COMMAND_NAME);
	return n->n_children == 1 && name && name->n_children == 1 &&
	       name->children[0].kind == SN_ARITH_EXPANSION && ctx->src[name->start] == '(';
}

int builder_expand_words(struct builder *b, const struct walk_ctx *ctx,
                         const struct shell_node *const *list, size_t n, struct model_state *st,
                         struct simple_command **ret)
{
	struct simple_command *c = calloc(1, sizeof(*c));
	struct word_cursor wc = { .prev_end = UINT32_MAX, .words_only = true };
	int r = c ? 0 : -ENOMEM;
	for (size_t i = 0; i < n && r >= 0; i++)
		r = push_word_node(b, c, ctx, list[i], st, &wc);
	if (r >= 0)
		r = expand_braces(b, c, &wc.alloc);
	if (r < 0) {
		simple_command_free(c);
		c = NULL;
	}
	*ret = c;
	return r;
}

void builder_command(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                     struct model_state *st)
{
	if (is_arithmetic_command(ctx, n)) {
		builder_forget_assigned(ctx, n, st);
		builder_walk_substitutions(b, ctx, n, st, ctx->parent);
		return;
	}
	struct simple_command *c = builder_command_new(b, ctx, n);
	if (!c)
		return;
	struct word_cursor wc = { .prev_end = UINT32_MAX };
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		const struct shell_node *k = &n->children[i];
		if (k->kind == SN_VAR_ASSIGN) {
			b->error = assignment_node(b, c, ctx, k, st, false);
		} else if (shell_node_is_redirect(k)) {
			b->error = add_redirect(b, c, ctx->src, k, st,
			                        fd_written_before(c, ctx->src, k, wc.prev_end));
			if (!b->error)
				b->error = push_redirect_words(b, c, ctx, k, st, &wc);
		} else if (k->kind == SN_COMMAND_NAME || shell_node_is_word(k) ||
		           k->kind == SN_OTHER) {
			const struct shell_node *wn = k;
			if (k->kind == SN_COMMAND_NAME) {
				if (k->n_children == 0)
					continue;
				wn = &k->children[0];
			}
			b->error = push_word_node(b, c, ctx, wn, st, &wc);
		}
	}
	/* the redirections of a `cmd > f` around it, in order, with the words
	 * the grammar gave them (`git push > f --force` runs git push --force) */
	for (size_t i = b->inherited_base; i < b->n_inherited && !b->error; i++) {
		const struct inherited_redirect *ir = &b->inherited[i];
		if (!ir->active)
			continue;
		b->error = add_redirect(
		        b, c, ir->src, ir->node, st,
		        ir->src == ctx->src ? fd_written_before(c, ctx->src, ir->node, wc.prev_end)
		                            : -1);
		if (!b->error && ir->target == n)
			b->error = push_redirect_words(b, c, ctx, ir->node, st, &wc);
	}
	if (!b->error)
		b->error = expand_braces(b, c, &wc.alloc);
	/* only assignments (once a continuation joined `G=ch\<newline>mod`):
	 * they stay set for what follows, as bash keeps them */
	for (uint32_t i = 0; c->argc == 0 && i < n->n_children && !b->error; i++)
		if (n->children[i].kind == SN_VAR_ASSIGN)
			b->error = assignment_node(b, NULL, ctx, &n->children[i], st, true);
	if (b->error)
		return;
	builder_finish_command(b, ctx, c, st, NULL);
	/* substitutions in the words and redirections run before the command */
	builder_walk_substitutions(b, ctx, n, st, (long)c->index);
	for (uint32_t i = 0; i < n->n_children && !b->error; i++)
		builder_walk_heredoc_tail(b, ctx, &n->children[i], st);
}

/* export A=b / declare -x A / local x / readonly / unset / A=1 B=2. */
void builder_declaration(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                         struct model_state *st)
{
	struct simple_command *c = builder_command_new(b, ctx, n);
	if (!c)
		return;
	size_t alloc = 0;
	bool assigns_only = n->kind == SN_VAR_ASSIGN || n->kind == SN_VAR_ASSIGNS;
	const struct shell_node *only = n->kind == SN_VAR_ASSIGN ? n : NULL;
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		const struct shell_node *k = &n->children[i];
		if (only)
			break;
		if (k->kind == SN_VAR_ASSIGN) {
			if (assigns_only) {
				b->error = assignment_node(b, c, ctx, k, st, true);
				continue;
			}
			b->error = assignment_node(b, NULL, ctx, k, st, true);
		} else if (k->kind == SN_VAR_NAME && n->kind == SN_UNSET) {
			model_state_unset_n(st, ctx->src + k->start, k->end - k->start);
		} else if (k->kind == SN_VAR_NAME && n->kind == SN_DECLARATION) {
			if (ctx->src[n->start] == 'l') /* local X: unset here */
				model_state_unset_n(st, ctx->src + k->start, k->end - k->start);
		} else if (k->kind == SN_TOKEN && i > 0) {
			continue;
		}
		if (b->error || assigns_only)
			continue;
		struct model_word w;
		b->error = word_from_node(b, &w, ctx, k, st);
		if (!b->error)
			b->error = builder_push_arg(b, c, &alloc, &w);
		else
			model_word_done(&w);
	}
	if (only && !b->error)
		b->error = assignment_node(b, c, ctx, only, st, true);
	if (b->error)
		return;
	builder_finish_command(b, ctx, c, st, NULL);
	builder_walk_substitutions(b, ctx, n, st, (long)c->index);
}
