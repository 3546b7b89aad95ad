/* SPDX-License-Identifier: MIT */
/*
 * The walk over the syntax tree that fills the command model: statements in
 * the order bash runs them, with the nesting frames, the literal variables
 * and cd directory in effect (model-state.h), substitutions, and the strings
 * of nested shells parsed again, recursively, within the depth and time caps.
 * One simple command is finished (wrappers, nested shells) in model-command.c.
 * Not for: policy decisions.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "model/model-builder.h"

/* ------------------------------------------------------------- frames */

bool builder_push_frame(struct builder *b, enum command_frame frame)
{
	if (b->depth >= b->lim->max_depth || b->depth >= BUILDER_MAX_FRAMES) {
		b->m->limits_reached |= COMMAND_MODEL_LIMIT_DEPTH;
		return false;
	}
	b->frames[b->depth++] = (uint8_t)frame;
	return true;
}

void builder_pop_frame(struct builder *b)
{
	if (b->depth > 0)
		b->depth--;
}

size_t builder_set_prefix(struct builder *b, const struct simple_command *c,
                          const struct model_wrapper *extra)
{
	size_t saved = b->n_prefix;
	b->n_prefix = 0;
	for (size_t i = 0; i < c->n_wrappers && b->n_prefix < BUILDER_MAX_PREFIX; i++)
		b->prefix[b->n_prefix++] = &c->wrappers[i];
	if (extra && b->n_prefix < BUILDER_MAX_PREFIX)
		b->prefix[b->n_prefix++] = extra;
	return saved;
}

void builder_restore_prefix(struct builder *b, size_t saved)
{
	b->n_prefix = saved;
}

static bool top_frame_is(const struct builder *b, enum command_frame frame)
{
	return b->depth > 0 && b->frames[b->depth - 1] == frame;
}

uint32_t builder_partial_causes(const struct shell_tree *tree)
{
	return (tree->has_error ? COMMAND_MODEL_PARTIAL_SYNTAX : 0) |
	       (tree->blank_control ? COMMAND_MODEL_PARTIAL_BLANK_CONTROL : 0);
}

bool builder_subtree_has_error(const struct shell_node *n)
{
	if (n->error)
		return true;
	for (uint32_t i = 0; i < n->n_children; i++)
		if (builder_subtree_has_error(&n->children[i]))
			return true;
	return false;
}

/* ---------------------------------------------------------- statements */

static void walk_statement(struct builder *b, const struct walk_ctx *ctx,
                           const struct shell_node *n, struct model_state *st);

void builder_walk_statement(struct builder *b, const struct walk_ctx *ctx,
                            const struct shell_node *n, struct model_state *st)
{
	walk_statement(b, ctx, n, st);
}

void builder_walk_statements(struct builder *b, const struct walk_ctx *ctx,
                             const struct shell_node *n, struct model_state *st)
{
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		const struct shell_node *c = &n->children[i];
		if (c->kind == SN_TOKEN || c->kind == SN_COMMENT)
			continue;
		if (c->kind == SN_ERROR) {
			builder_walk_statements(b, ctx, c, st); /* what can be read of it */
			continue;
		}
		if (!shell_node_is_statement(c)) {
			builder_walk_substitutions(b, ctx, c, st, ctx->parent);
			continue;
		}
		struct walk_ctx sub = *ctx;
		if (i + 1 < n->n_children &&
		    shell_node_is_token(ctx->src, &n->children[i + 1], "&"))
			sub.background = true;
		walk_statement(b, &sub, c, st);
	}
}

static const struct shell_node *first_statement(const struct shell_node *n)
{
	for (uint32_t i = 0; i < n->n_children; i++)
		if (shell_node_is_statement(&n->children[i]))
			return &n->children[i];
	return NULL;
}

static const struct shell_node *last_statement(const struct shell_node *n)
{
	for (uint32_t i = n->n_children; i > 0; i--)
		if (shell_node_is_statement(&n->children[i - 1]))
			return &n->children[i - 1];
	return NULL;
}

/* `exit` or `return`: the right side of `cd x || exit` ends the shell. */
static bool is_exit(const struct walk_ctx *ctx, const struct shell_node *n)
{
	const struct shell_node *name =
	        n->kind == SN_COMMAND ? shell_node_find(n, SN_COMMAND_NAME) : NULL;
	return name && (shell_node_text_is(ctx->src, name, "exit") ||
	                shell_node_text_is(ctx->src, name, "return"));
}

static bool has_or(const char *src, const struct shell_node *n)
{
	for (uint32_t i = 0; i < n->n_children; i++)
		if (shell_node_is_token(src, &n->children[i], "||"))
			return true;
	return false;
}

/* The parts of the && chain n in order (the grammar nests `a && b && c` as
 * ((a && b) && c)); into *exits, the variables where it may stop: after
 * any part but the last, merged. */
static void walk_and_chain(struct builder *b, const struct walk_ctx *ctx,
                           const struct shell_node *n, struct model_state *st,
                           struct model_state *exits, bool *have)
{
	const struct shell_node *left = first_statement(n);
	const struct shell_node *right = last_statement(n);
	if (!left || b->error)
		return;
	if (left->kind == SN_LIST && !has_or(ctx->src, left))
		walk_and_chain(b, ctx, left, st, exits, have);
	else
		walk_statement(b, ctx, left, st);
	if (!right || right == left || b->error)
		return;
	if (*have) {
		model_state_merge_vars(exits, st);
	} else {
		b->error = model_state_copy(exits, st);
		*have = !b->error;
	}
	walk_statement(b, ctx, right, st);
}

/* a && b, a || b: b runs after a (&&) or when a failed (||); after the list,
 * either may have happened. */
static void walk_list(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                      struct model_state *st)
{
	bool pushed = !top_frame_is(b, FRAME_LIST);
	if (pushed && !builder_push_frame(b, FRAME_LIST))
		return;
	const struct shell_node *left = first_statement(n);
	const struct shell_node *right = last_statement(n);
	bool is_or = has_or(ctx->src, n);
	struct model_state before = { 0 }; /* ||: what b starts from */
	if (is_or)
		b->error = model_state_copy(&before, st);
	if (left && is_or && !b->error)
		walk_statement(b, ctx, left, st);
	if (!is_or) {
		/* b runs only once a succeeded; what follows the chain is read as
		 * the chain having succeeded for the directory (`cd x && a; b`
		 * runs b in x), but a variable is known after it only when every
		 * part it may stop after agrees (`false && S=echo; $S rm x` runs
		 * rm) */
		struct model_state exits = { 0 };
		bool have = false;
		walk_and_chain(b, ctx, n, st, &exits, &have);
		if (have)
			model_state_merge_vars(st, &exits);
		model_state_done(&exits);
	} else if (right && right != left && !b->error) {
		model_state_merge(&before, st); /* a ran to its failure */
		walk_statement(b, ctx, right, &before);
		if (!is_exit(ctx, right))
			model_state_merge(st, &before);
	}
	model_state_done(&before);
	if (pushed)
		builder_pop_frame(b);
}

/* The pipeline being walked before n's (restored when n's ends). */
struct pipe_saved {
	long pipeline;
	size_t position, length;
};

/* n's pipeline becomes the innermost: a new number, and its parts counted
 * (plus extra, parts walked elsewhere). */
static struct pipe_saved enter_pipeline(struct builder *b, const struct shell_node *n, size_t extra)
{
	struct pipe_saved saved = { b->pipeline, b->pipe_position, b->pipe_length };
	size_t parts = extra;
	for (uint32_t i = 0; i < n->n_children; i++)
		parts += shell_node_is_statement(&n->children[i]);
	b->pipeline = b->n_pipelines++;
	b->pipe_length = parts;
	return saved;
}

static void leave_pipeline(struct builder *b, struct pipe_saved saved)
{
	b->pipeline = saved.pipeline;
	b->pipe_position = saved.position;
	b->pipe_length = saved.length;
}

/* Each part of a pipeline runs in a subshell of its own. */
static void walk_pipeline(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                          const struct model_state *st)
{
	if (!builder_push_frame(b, FRAME_PIPELINE))
		return;
	struct pipe_saved saved = enter_pipeline(b, n, 0);
	size_t k = 0;
	const struct simple_command *writer = NULL; /* the part before, when one command */
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		const struct shell_node *c = &n->children[i];
		if (!shell_node_is_statement(c)) {
			if (c->kind == SN_ERROR)
				builder_walk_statements(b, ctx, c, (struct model_state *)st);
			continue;
		}
		b->pipe_position = k;
		struct walk_ctx sub = *ctx;
		sub.stdin_piped = k++ > 0;
		sub.stdin_writer = writer;
		struct model_state copy;
		size_t first = b->m->n_commands;
		b->error = model_state_copy(&copy, st);
		if (!b->error)
			walk_statement(b, &sub, c, &copy);
		model_state_done(&copy);
		writer = b->m->n_commands == first + 1 ? b->m->commands[first] : NULL;
	}
	leave_pipeline(b, saved);
	builder_pop_frame(b);
}

/* The rest of a pipeline whose first command is a heredoc's
 * (`cat <<EOF | sh`, which the grammar puts inside the heredoc): each
 * part reads the pipe. */
static void walk_pipe_tail(struct builder *b, const struct walk_ctx *ctx,
                           const struct shell_node *n, const struct model_state *st)
{
	if (!builder_push_frame(b, FRAME_PIPELINE))
		return;
	/* the heredoc's command, part 0, is not walked here */
	struct pipe_saved saved = enter_pipeline(b, n, 1);
	size_t k = 1;
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		const struct shell_node *c = &n->children[i];
		if (!shell_node_is_statement(c))
			continue;
		b->pipe_position = k++;
		struct walk_ctx sub = *ctx;
		sub.stdin_piped = true;
		struct model_state copy;
		b->error = model_state_copy(&copy, st);
		if (!b->error)
			walk_statement(b, &sub, c, &copy);
		model_state_done(&copy);
	}
	leave_pipeline(b, saved);
	builder_pop_frame(b);
}

/* Statements in a copy of st (a subshell, a branch); merged back when merge. */
static void walk_in_copy(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                         struct model_state *st, bool merge)
{
	struct model_state copy;
	b->error = model_state_copy(&copy, st);
	if (!b->error)
		builder_walk_statements(b, ctx, n, &copy);
	if (merge)
		model_state_merge(st, &copy);
	model_state_done(&copy);
}

bool builder_redirect_has_words(const char *src, const struct shell_node *redirect)
{
	unsigned words = 0;
	for (uint32_t i = 0; i < redirect->n_children; i++)
		if (shell_node_is_token(src, &redirect->children[i], ">&-") ||
		    shell_node_is_token(src, &redirect->children[i], "<&-"))
			words++; /* it takes no target: any word is one more */
	for (uint32_t i = 0; i < redirect->n_children; i++)
		if (redirect->children[i].kind == SN_HEREDOC_START ||
		    shell_node_is_word(&redirect->children[i]))
			words++;
	return words > 1;
}

/* The statements the grammar puts inside a heredoc redirect when more of
 * the list follows the `<<EOF` on its line (`cat <<EOF && rm x`). */
void builder_walk_heredoc_tail(struct builder *b, const struct walk_ctx *ctx,
                               const struct shell_node *redirect, struct model_state *st)
{
	if (redirect->kind != SN_HEREDOC_REDIRECT)
		return;
	bool any = false;
	for (uint32_t i = 0; i < redirect->n_children; i++)
		any |= shell_node_is_statement(&redirect->children[i]);
	if (!any)
		return;
	bool pushed = !top_frame_is(b, FRAME_LIST);
	if (pushed && !builder_push_frame(b, FRAME_LIST))
		return;
	for (uint32_t i = 0; i < redirect->n_children && !b->error; i++) {
		const struct shell_node *c = &redirect->children[i];
		if (c->kind == SN_PIPELINE && c->n_children > 0 && c->children[0].kind == SN_TOKEN)
			walk_pipe_tail(b, ctx, c, st); /* `cat <<EOF | sh` */
		else if (shell_node_is_statement(c))
			walk_statement(b, ctx, c, st);
	}
	if (pushed)
		builder_pop_frame(b);
}

/* `body > target`: a command gets the redirections; a compound statement
 * passes them to every command inside; a list or pipeline (the grammar's
 * reading of `a && b > f`) gives them to its last command, as bash does. */
static void walk_redirected(struct builder *b, const struct walk_ctx *ctx,
                            const struct shell_node *n, struct model_state *st)
{
	const struct shell_node *body = first_statement(n);
	if (!body) {
		/* `> f`, `>| f` alone: bash opens (and truncates) f with no
		 * command run; a command with no words carries the redirection */
		builder_command(b, ctx, n, st);
		return;
	}
	size_t mark = b->n_inherited;
	const struct shell_node *target = NULL;
	if (body && (body->kind == SN_LIST || body->kind == SN_PIPELINE)) {
		target = body;
		while (target && (target->kind == SN_LIST || target->kind == SN_PIPELINE))
			target = last_statement(target);
	} else if (body && body->kind == SN_COMMAND) {
		target = body;
	}
	for (uint32_t i = 0; i < n->n_children; i++) {
		if (!shell_node_is_redirect(&n->children[i]))
			continue;
		/* words after the target are the command's; after a compound
		 * statement they are a syntax error, and bash runs nothing */
		if ((!target || target->kind != SN_COMMAND) &&
		    builder_redirect_has_words(ctx->src, &n->children[i]))
			b->m->partial_causes |= COMMAND_MODEL_PARTIAL_SYNTAX;
		if (b->n_inherited >= BUILDER_MAX_INHERITED) {
			b->m->limits_reached |= COMMAND_MODEL_LIMIT_DEPTH;
			break;
		}
		b->inherited[b->n_inherited++] = (struct inherited_redirect){
			.src = ctx->src,
			.node = &n->children[i],
			.target = target,
			.active = target == NULL,
		};
	}
	/* a list / pipeline body: only its last part is redirected (no frame) */
	bool framed = target == NULL;
	bool pushed = framed && builder_push_frame(b, FRAME_REDIRECTED);
	if (!framed || pushed) {
		if (body)
			walk_statement(b, ctx, body, st);
	}
	if (pushed)
		builder_pop_frame(b);
	b->n_inherited = mark;
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		if (!shell_node_is_redirect(&n->children[i]))
			continue;
		builder_walk_substitutions(b, ctx, &n->children[i], st, ctx->parent);
		builder_walk_heredoc_tail(b, ctx, &n->children[i], st);
	}
}

/* if / elif / else: conditions in order, each branch in a copy, merged. */
static void walk_if_part(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                         struct model_state *st, struct model_state *acc, bool *have_acc,
                         bool *have_else)
{
	bool body = n->kind == SN_ELSE;
	struct model_state branch = { 0 };
	bool in_branch = false;
	if (body) {
		*have_else = true;
		b->error = model_state_copy(&branch, st);
		in_branch = true;
	}
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		const struct shell_node *c = &n->children[i];
		if (shell_node_is_token(ctx->src, c, "then")) {
			body = true;
			b->error = model_state_copy(&branch, st);
			in_branch = !b->error;
			continue;
		}
		if (c->kind == SN_ELIF || c->kind == SN_ELSE) {
			walk_if_part(b, ctx, c, st, acc, have_acc, have_else);
			continue;
		}
		if (!shell_node_is_statement(c))
			continue;
		if (body) {
			walk_statement(b, ctx, c, &branch);
		} else if (builder_push_frame(b, FRAME_CONDITION)) {
			walk_statement(b, ctx, c, st);
			builder_pop_frame(b);
		}
	}
	if (in_branch) {
		if (*have_acc) {
			model_state_merge(acc, &branch);
		} else {
			model_state_done(acc);
			*acc = branch; /* moved: the first branch is the start */
			branch = (struct model_state){ 0 };
			*have_acc = true;
		}
	}
	model_state_done(&branch);
}

static void walk_if(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                    struct model_state *st)
{
	if (!builder_push_frame(b, FRAME_IF))
		return;
	struct model_state acc = { 0 };
	bool have_acc = false, have_else = false;
	walk_if_part(b, ctx, n, st, &acc, &have_acc, &have_else);
	if (have_acc) {
		if (!have_else)
			model_state_merge(&acc, st);
		model_state_done(st);
		*st = acc;
	}
	builder_pop_frame(b);
}

/* Loop values walked one by one, at most (`for d in a b`). */
#define LOOP_MAX_VALUES 8

/* `for NAME in WORDS; do BODY; done` whose words, expanded with what st
 * knows (variables, "$@", "${NAME[@]}"), are all known: static words, a
 * home, or a glob (each value one of the names it matches: the round with
 * NAME the glob stands for them all). The body once more for each value in
 * turn, with NAME set to it (`for d in / /usr; do rm -rf "$d"; done`
 * removes /). Nothing of it is kept after the loop: the walk with NAME
 * unknown did that. */
static void walk_loop_values(struct builder *b, const struct walk_ctx *ctx,
                             const struct shell_node *n, const struct model_state *st)
{
	const struct shell_node *var = shell_node_find(n, SN_VAR_NAME);
	const struct shell_node *body = shell_node_find(n, SN_DO_GROUP);
	if (!var || !body)
		return;
	const struct shell_node *list[LOOP_MAX_VALUES];
	size_t count = 0;
	bool in = false;
	for (uint32_t i = 0; i < n->n_children; i++) {
		const struct shell_node *c = &n->children[i];
		if (shell_node_is_token(ctx->src, c, "in"))
			in = true;
		else if (in && shell_node_is_word(c) && count++ < LOOP_MAX_VALUES)
			list[count - 1] = c;
	}
	if (!in || count == 0 || count > LOOP_MAX_VALUES)
		return;
	struct model_state round;
	if ((b->error = model_state_copy(&round, st)) < 0)
		return;
	struct simple_command *values = NULL;
	b->error = builder_expand_words(b, ctx, list, count, &round, &values);
	bool usable = values && values->argc > 0 && values->argc <= LOOP_MAX_VALUES;
	for (size_t k = 0; usable && k < values->argc; k++) {
		uint32_t dynamic = values->argv[k].w.flags & WORD_DYNAMIC_MASK;
		usable = (dynamic & ~(WORD_TILDE | WORD_GLOB)) == 0; /* `in / ~ *` */
	}
	_cleanup_free_ char *name = strndup(ctx->src + var->start, var->end - var->start);
	if (!name && !b->error)
		b->error = -ENOMEM;
	/* each round starts where the one before ended */
	for (size_t k = 0; usable && k < values->argc && !b->error; k++) {
		b->error = builder_state_assign_expanded(&round, name, &values->argv[k].w);
		if (!b->error)
			builder_walk_statements(b, ctx, body, &round);
	}
	simple_command_free(values);
	model_state_done(&round);
}

/* while / until / for / for ((;;)): the body may run any number of times. */
static void walk_loop(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                      struct model_state *st)
{
	if (!builder_push_frame(b, FRAME_LOOP))
		return;
	struct model_state before;
	bool values = n->kind == SN_FOR || n->kind == SN_WHILE;
	if (values && (b->error = model_state_copy(&before, st)) < 0) {
		builder_pop_frame(b);
		return;
	}
	builder_forget_assigned(ctx, n, st); /* the for variable too */
	bool forgot =
	        values && (before.n_vars != st->n_vars || before.cwd_unknown != st->cwd_unknown);
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		const struct shell_node *c = &n->children[i];
		if (c->kind == SN_DO_GROUP || (c->kind == SN_COMPOUND && n->kind != SN_WHILE)) {
			walk_in_copy(b, ctx, c, st, true);
		} else if (n->kind == SN_C_FOR) {
			builder_walk_substitutions(b, ctx, c, st, ctx->parent);
		} else if (shell_node_is_statement(c)) {
			if (builder_push_frame(b, FRAME_CONDITION)) {
				walk_statement(b, ctx, c, st);
				builder_pop_frame(b);
			}
		} else {
			builder_walk_substitutions(b, ctx, c, st, ctx->parent);
		}
	}
	if (values) {
		if (!b->error && n->kind == SN_FOR)
			walk_loop_values(b, ctx, n, &before);
		else if (!b->error && forgot)
			builder_loop_rounds(b, ctx, n, &before);
		model_state_done(&before);
	}
	builder_pop_frame(b);
}

static void walk_case(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                      struct model_state *st)
{
	if (!builder_push_frame(b, FRAME_CASE))
		return;
	struct model_state acc;
	b->error = model_state_copy(&acc, st); /* no pattern matched */
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		const struct shell_node *c = &n->children[i];
		if (c->kind != SN_CASE_ITEM) {
			builder_walk_substitutions(b, ctx, c, st, ctx->parent);
			continue;
		}
		struct model_state branch;
		b->error = model_state_copy(&branch, st);
		for (uint32_t k = 0; k < c->n_children && !b->error; k++) {
			const struct shell_node *item = &c->children[k];
			if (shell_node_is_statement(item))
				walk_statement(b, ctx, item, &branch);
			else
				builder_walk_substitutions(b, ctx, item, st, ctx->parent);
		}
		model_state_merge(&acc, &branch);
		model_state_done(&branch);
	}
	model_state_done(st);
	*st = acc;
	builder_pop_frame(b);
}

/* A function body runs wherever the function is called: nothing about the
 * variables or directory at that point is known. */
static void walk_function(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n)
{
	const struct shell_node *name = NULL;
	for (uint32_t i = 0; i < n->n_children && !name; i++)
		if (n->children[i].kind == SN_WORD)
			name = &n->children[i];
	char *fname = name ? strndup(ctx->src + name->start, name->end - name->start) : strdup("");
	if (!fname) {
		b->error = -ENOMEM;
		return;
	}
	size_t idx = b->n_functions;
	if (b->n_functions < BUILDER_MAX_FUNCTIONS) {
		b->function_nodes[b->n_functions] = n;
		b->function_srcs[b->n_functions] = ctx->src;
		b->function_active[b->n_functions] = true; /* a call in its own body */
		b->functions[b->n_functions++] = fname;
	} else {
		free(fname);
		fname = NULL;
	}
	if (!builder_push_frame(b, FRAME_FUNCTION)) {
		if (idx < b->n_functions)
			b->function_active[idx] = false;
		return;
	}
	const char *saved = b->function;
	b->function = fname;
	struct model_state fresh = { 0 };
	(void)model_state_cd(&fresh, NULL);
	for (uint32_t i = 0; i < n->n_children && !b->error; i++)
		if (shell_node_is_statement(&n->children[i]))
			walk_statement(b, ctx, &n->children[i], &fresh);
	model_state_done(&fresh);
	b->function = saved;
	if (idx < b->n_functions)
		b->function_active[idx] = false;
	builder_pop_frame(b);
}

void builder_call_function(struct builder *b, const struct walk_ctx *ctx,
                           const struct simple_command *c, const struct model_state *st)
{
	size_t k = b->n_functions;
	while (k > 0 && strcmp(b->functions[k - 1], c->name) != 0)
		k--;
	/* a definition from another text (eval 'f() {...}') is not kept; one
	 * being walked already is a recursion, walked once */
	if (k-- == 0 || b->function_srcs[k] != ctx->src || b->function_active[k])
		return;
	if (!builder_push_frame(b, FRAME_FUNCTION))
		return;
	struct model_state call;
	b->error = model_state_copy(&call, st);
	if (!b->error)
		b->error = builder_set_positional(&call, c->argv + 1, c->argc - 1);
	const char *saved = b->function;
	b->function = b->functions[k];
	b->function_active[k] = true;
	struct walk_ctx sub = *ctx;
	sub.parent = (long)c->index;
	sub.negated = sub.background = sub.stdin_piped = false;
	const struct shell_node *def = b->function_nodes[k];
	for (uint32_t i = 0; i < def->n_children && !b->error; i++)
		if (shell_node_is_statement(&def->children[i]))
			walk_statement(b, &sub, &def->children[i], &call);
	b->function_active[k] = false;
	b->function = saved;
	model_state_done(&call);
	builder_pop_frame(b);
}

static void walk_statement(struct builder *b, const struct walk_ctx *ctx,
                           const struct shell_node *n, struct model_state *st)
{
	if (b->error)
		return;
	/* redirections of an enclosing `a && b > f` apply from their target on */
	for (size_t i = 0; i < b->n_inherited; i++)
		if (b->inherited[i].target == n)
			b->inherited[i].active = true;
	struct walk_ctx sub = *ctx;
	switch ((enum shell_node_kind)n->kind) {
	case SN_COMMAND:
		builder_command(b, ctx, n, st);
		break;
	case SN_DECLARATION:
	case SN_UNSET:
	case SN_VAR_ASSIGN:
	case SN_VAR_ASSIGNS:
		builder_declaration(b, ctx, n, st);
		break;
	case SN_LIST:
		walk_list(b, ctx, n, st);
		break;
	case SN_PIPELINE:
		walk_pipeline(b, ctx, n, st);
		break;
	case SN_SUBSHELL:
		if (builder_push_frame(b, FRAME_SUBSHELL)) {
			walk_in_copy(b, ctx, n, st, false);
			builder_pop_frame(b);
		}
		break;
	case SN_COMPOUND:
		if (builder_push_frame(b, FRAME_GROUP)) {
			builder_walk_statements(b, ctx, n, st);
			builder_pop_frame(b);
		}
		break;
	case SN_REDIRECTED:
		walk_redirected(b, ctx, n, st);
		break;
	case SN_NEGATED:
		sub.negated = true;
		builder_walk_statements(b, &sub, n, st);
		break;
	case SN_IF:
		walk_if(b, ctx, n, st);
		break;
	case SN_WHILE:
	case SN_FOR:
	case SN_C_FOR:
		walk_loop(b, ctx, n, st);
		break;
	case SN_CASE:
		walk_case(b, ctx, n, st);
		break;
	case SN_FUNCTION:
		walk_function(b, ctx, n);
		break;
	case SN_TEST:
		/* [[ ... ]] and (( ... )): no command, but (( x = 1 )) assigns */
		builder_forget_assigned(ctx, n, st);
		builder_walk_substitutions(b, ctx, n, st, ctx->parent);
		break;
	default:
		builder_walk_statements(b, ctx, n, st);
		break;
	}
	for (size_t i = 0; i < b->n_inherited; i++)
		if (b->inherited[i].target == n)
			b->inherited[i].active = false;
}

/* --------------------------------------------------------------- entry */

int model_build(struct command_model *m, struct shell_parser *parser,
                const struct command_model_limits *limits)
{
	struct shell_budget budget = shell_budget_init(limits->parse_timeout_us);
	int r = shell_parse(parser, m->source, m->len, &budget, BUILDER_TREE_DEPTH, &m->tree);
	if (r < 0)
		return r;
	if (m->tree.timed_out)
		m->limits_reached |= COMMAND_MODEL_LIMIT_TIME;
	if (m->tree.depth_limited)
		m->limits_reached |= COMMAND_MODEL_LIMIT_DEPTH;
	m->partial_causes |= builder_partial_causes(&m->tree);

	struct builder b = {
		.m = m,
		.pipeline = -1,
		.lim = limits,
		.parser = parser,
		.budget = budget,
		.resolve_budget = BUILDER_RESOLVE_BUDGET,
	};
	struct walk_ctx ctx = {
		.src = m->source,
		.parent = -1,
		.has_error = m->tree.has_error,
	};
	struct model_state st = { 0 };
	builder_walk_statements(&b, &ctx, &m->tree.root, &st);
	model_state_done(&st);
	for (size_t i = 0; i < b.n_functions; i++)
		free(b.functions[i]);
	for (size_t i = 0; i < b.n_git_config; i++)
		free(b.git_config[i]);
	return b.error;
}
