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

/* Grow an array of elem-sized items to hold one more. */
int builder_grow(void **array, size_t n, size_t *alloc, size_t elem)
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
	if (builder_grow((void **)&m->commands, m->n_commands, &m->alloc_commands,
	                 sizeof(*m->commands)) < 0) {
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
				b->error = builder_add_assign(c, texts[k], (size_t)(eq - texts[k]),
				                              &value);
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

/* c is named by an alias an earlier `alias NAME=VALUE` of the same text
 * defined (kept in st as "alias NAME"): VALUE with c's words after it (as
 * written) is walked where c stands, as bash reads it when aliases are
 * expanded (an interactive shell, `shopt -s expand_aliases`); the
 * verdict judges what may run. The alias is left out while its own value
 * is walked: bash expands no alias inside itself. */
static void expand_alias(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                         struct model_state *st)
{
	char key[256];
	snprintf(key, sizeof(key), "alias %s", c->name);
	const char *value = model_state_get(st, key);
	if (!value || strlen(c->name) > 200)
		return;
	struct strbuf sb = strbuf_init(SHELL_WORD_MAX_BYTES * 4);
	(void)strbuf_append_str(&sb, value);
	for (size_t i = 1; i < c->argc; i++) {
		(void)strbuf_append_char(&sb, ' ');
		(void)strbuf_append_str(&sb, c->argv[i].source);
	}
	_cleanup_free_ char *saved = strdup(value);
	_cleanup_free_ char *script = sb.capped ? NULL : strbuf_take(&sb);
	strbuf_done(&sb);
	if (!saved || (!script && !sb.capped)) {
		b->error = -ENOMEM;
		return;
	}
	if (!script) {
		c->flags |= CMD_NESTED_DYNAMIC; /* too long to read: not known */
		return;
	}
	model_state_unset(st, key);
	b->error = builder_walk_nested(b, ctx, c, script, strlen(script), st, NULL);
	if (!b->error && !model_state_get(st, key))
		b->error = model_state_set(st, key, saved);
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
	else if (!b->error && !strchr(c->argv[0].w.text, '/'))
		expand_alias(b, ctx, c, st);
	if (!b->error)
		builder_effects(b, c, st);
}

/* `(( x > 1 ))` as a command: arithmetic, not a program to run. */
static bool is_arithmetic_command(const struct walk_ctx *ctx, const struct shell_node *n)
{
	const struct shell_node *name = shell_node_find(n, SN_COMMAND_NAME);
	return n->n_children == 1 && name && name->n_children == 1 &&
	       name->children[0].kind == SN_ARITH_EXPANSION && ctx->src[name->start] == '(';
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
			b->error = builder_assignment_node(b, c, ctx, k, st, false);
		} else if (shell_node_is_redirect(k)) {
			b->error = builder_add_redirect(
			        b, c, ctx->src, k, st,
			        builder_fd_written_before(c, ctx->src, k, wc.prev_end));
			if (!b->error)
				b->error = builder_push_redirect_words(b, c, ctx, k, st, &wc);
		} else if (k->kind == SN_COMMAND_NAME || shell_node_is_word(k) ||
		           k->kind == SN_OTHER) {
			const struct shell_node *wn = k;
			if (k->kind == SN_COMMAND_NAME) {
				if (k->n_children == 0)
					continue;
				wn = &k->children[0];
			}
			b->error = builder_push_word_node(b, c, ctx, wn, st, &wc);
		}
	}
	/* the redirections of a `cmd > f` around it, in order, with the words
	 * the grammar gave them (`git push > f --force` runs git push --force) */
	for (size_t i = b->inherited_base; i < b->n_inherited && !b->error; i++) {
		const struct inherited_redirect *ir = &b->inherited[i];
		if (!ir->active)
			continue;
		b->error = builder_add_redirect(
		        b, c, ir->src, ir->node, st,
		        ir->src == ctx->src
		                ? builder_fd_written_before(c, ctx->src, ir->node, wc.prev_end)
		                : -1);
		if (!b->error && ir->target == n)
			b->error = builder_push_redirect_words(b, c, ctx, ir->node, st, &wc);
	}
	if (!b->error)
		b->error = builder_expand_braces(b, c, &wc.alloc);
	/* only assignments (once a continuation joined `G=ch\<newline>mod`):
	 * they stay set for what follows, as bash keeps them */
	for (uint32_t i = 0; c->argc == 0 && i < n->n_children && !b->error; i++)
		if (n->children[i].kind == SN_VAR_ASSIGN)
			b->error = builder_assignment_node(b, NULL, ctx, &n->children[i], st, true);
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
	bool nameref = false; /* an option word with n: -n, -gn */
	for (uint32_t i = 1; n->kind == SN_DECLARATION && i < n->n_children; i++) {
		const struct shell_node *k = &n->children[i];
		const char *t = ctx->src + k->start;
		if (k->kind != SN_VAR_ASSIGN && k->kind != SN_VAR_NAME && t[0] == '-' &&
		    memchr(t, 'n', k->end - k->start))
			nameref = true;
	}
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		const struct shell_node *k = &n->children[i];
		if (only)
			break;
		if (k->kind == SN_VAR_ASSIGN) {
			if (assigns_only) {
				b->error = builder_assignment_node(b, c, ctx, k, st, true);
				continue;
			}
			b->error = builder_assignment_node(b, NULL, ctx, k, st, true);
			if (nameref) /* declare -n r=HOME: "$r" is $HOME, not "HOME" */
				model_state_unset_n(st, ctx->src + k->start,
				                    strcspn(ctx->src + k->start, "+=["));
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
		b->error = builder_word_from_node(b, &w, ctx, k, st);
		if (!b->error)
			b->error = builder_push_arg(b, c, &alloc, &w);
		else
			model_word_done(&w);
	}
	if (only && !b->error)
		b->error = builder_assignment_node(b, c, ctx, only, st, true);
	if (b->error)
		return;
	builder_finish_command(b, ctx, c, st, NULL);
	builder_walk_substitutions(b, ctx, n, st, (long)c->index);
}
