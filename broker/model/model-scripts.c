/* SPDX-License-Identifier: MIT */
/*
 * The scripts inside the text being walked, each parsed in turn (within
 * the parse budget, shell_budget) and walked with the model builder: the
 * statements of $(...), `...`, <(...) and >(...), backquotes the grammar
 * left as text (${X:-`cmd`}, a heredoc's body), and the string of a nested
 * shell. Part of the model builder (model-builder.h).
 * Not for: the statements of the text itself (model-builder.c).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "model/model-builder.h"

static void walk_backquotes(struct builder *b, const struct walk_ctx *ctx,
                            const struct shell_node *n, const struct model_state *st, long parent);

/* ------------------------------------------------------ substitutions */

static void walk_backquotes(struct builder *b, const struct walk_ctx *ctx,
                            const struct shell_node *n, const struct model_state *st, long parent);

/* The statements inside every $(...), `...`, <(...) and >(...) below n, each
 * in a subshell of its own. parent: the command whose words hold them. */
void builder_walk_substitutions(struct builder *b, const struct walk_ctx *ctx,
                                const struct shell_node *n, const struct model_state *st,
                                long parent)
{
	if (b->error)
		return;
	if (n->kind == SN_CMD_SUBST && ctx->src[n->start] == '`') {
		/* bash finds the closing backquote in the text, where the grammar
		 * can read `a` `b` as one substitution */
		struct shell_node text = { .kind = SN_WORD, .start = n->start, .end = n->end };
		walk_backquotes(b, ctx, &text, st, parent);
		return;
	}
	if (n->kind == SN_CMD_SUBST || n->kind == SN_PROC_SUBST) {
		enum command_frame f = n->kind == SN_CMD_SUBST ? FRAME_CMDSUBST : FRAME_PROCSUBST;
		if (!builder_push_frame(b, f))
			return;
		struct walk_ctx sub = *ctx;
		sub.parent = parent;
		sub.negated = sub.background = sub.stdin_piped = false;
		struct model_state copy;
		b->error = model_state_copy(&copy, st);
		if (!b->error)
			builder_walk_statements(b, &sub, n, &copy);
		model_state_done(&copy);
		builder_pop_frame(b);
		return;
	}
	if (n->kind == SN_WORD || n->kind == SN_HEREDOC_BODY) {
		/* reached only in a heredoc with an unquoted delimiter */
		walk_backquotes(b, ctx, n, st, parent);
		return;
	}
	/* a heredoc with a quoted delimiter: its body is text, nothing runs */
	bool quoted_heredoc =
	        n->kind == SN_HEREDOC_REDIRECT && shell_heredoc_is_quoted(ctx->src, n);
	for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
		const struct shell_node *c = &n->children[i];
		/* statements (the grammar's heredoc tails) are walked as such by the
		 * caller; assignments inside a command are words here */
		if (shell_node_is_statement(c) && c->kind != SN_VAR_ASSIGN &&
		    c->kind != SN_VAR_ASSIGNS)
			continue;
		if (quoted_heredoc && c->kind == SN_HEREDOC_BODY)
			continue;
		builder_walk_substitutions(b, ctx, c, st, parent);
	}
}

/* ------------------------------------------------------- nested shells */

/* Parse text, a script found inside the text being walked, within what is
 * left of the time limit. *unparsed: the limit stopped it (the tree is
 * empty). Returns 0 or -ENOMEM; on success the tree is the caller's. */
static int parse_script(struct builder *b, const char *text, size_t len, struct shell_tree *tree,
                        bool *unparsed)
{
	*unparsed = false;
	if (b->m->limits_reached & COMMAND_MODEL_LIMIT_TIME) { /* spent on an earlier part */
		b->m->limits_reached |= COMMAND_MODEL_LIMIT_TIME;
		*unparsed = true;
		memset(tree, 0, sizeof(*tree));
		return 0;
	}
	int r = shell_parse(b->parser, text, len, &b->budget, BUILDER_TREE_DEPTH, tree);
	if (r < 0)
		return r;
	if (tree->timed_out) {
		b->m->limits_reached |= COMMAND_MODEL_LIMIT_TIME;
		*unparsed = true;
	}
	if (tree->depth_limited)
		b->m->limits_reached |= COMMAND_MODEL_LIMIT_DEPTH;
	b->m->partial_causes |= builder_partial_causes(tree);
	return 0;
}

/* The context of a script found inside the current text: its commands'
 * spans are the span of what holds it. */
static struct walk_ctx script_ctx(const struct walk_ctx *ctx, const char *text, size_t start,
                                  size_t end, long parent, const struct shell_tree *tree)
{
	return (struct walk_ctx){
		.src = text,
		.nested = true,
		.span_start = ctx->nested ? ctx->span_start : start,
		.span_end = ctx->nested ? ctx->span_end : end,
		.parent = parent,
		.has_error = tree->has_error,
	};
}

int builder_walk_nested(struct builder *b, const struct walk_ctx *ctx, struct simple_command *cmd,
                        const char *text, size_t len, struct model_state *st,
                        const struct model_wrapper *extra)
{
	if (!builder_push_frame(b, FRAME_NESTED_SHELL)) {
		cmd->flags |= CMD_NESTED_UNPARSED;
		return 0;
	}
	struct shell_tree tree;
	bool unparsed;
	int r = parse_script(b, text, len, &tree, &unparsed);
	if (r < 0 || unparsed) {
		if (unparsed)
			cmd->flags |= CMD_NESTED_UNPARSED;
		if (r >= 0)
			shell_tree_done(&tree);
		builder_pop_frame(b);
		return r;
	}

	size_t saved_prefix = builder_set_prefix(b, cmd, extra);
	size_t saved_base = b->inherited_base;
	b->inherited_base = b->n_inherited; /* the outer redirections are the nested shell's */

	struct walk_ctx sub =
	        script_ctx(ctx, text, cmd->span_start, cmd->span_end, (long)cmd->index, &tree);
	builder_walk_statements(b, &sub, &tree.root, st);

	b->inherited_base = saved_base;
	builder_restore_prefix(b, saved_prefix);
	shell_tree_done(&tree);
	builder_pop_frame(b);
	return b->error;
}

/* The command substitutions in backquotes that the grammar left as text in
 * n (a word inside ${X:-`cmd`}, a line of a heredoc's body): each is
 * parsed and walked as a $(...) would be. */
static void walk_backquotes(struct builder *b, const struct walk_ctx *ctx,
                            const struct shell_node *n, const struct model_state *st, long parent)
{
	const char *text = ctx->src + n->start;
	size_t len = n->end - n->start, at = 0, start, end;
	if (n->kind == SN_HEREDOC_BODY) {
		/* its text between the substitutions the grammar found */
		uint32_t pos = n->start;
		for (uint32_t i = 0; i <= n->n_children && !b->error; i++) {
			const struct shell_node *c = i < n->n_children ? &n->children[i] : NULL;
			uint32_t upto = c ? c->start : n->end;
			if (upto > pos) {
				/* the grammar misses a $( at the start of a <<- body */
				if (memmem(ctx->src + pos, upto - pos, "$(", 2))
					b->m->partial_causes |= COMMAND_MODEL_PARTIAL_SYNTAX;
				struct shell_node gap = { .kind = SN_WORD,
					                  .start = pos,
					                  .end = upto };
				walk_backquotes(b, ctx, &gap, st, parent);
			}
			if (c && c->kind == SN_HEREDOC_CONTENT) {
				struct shell_node text_part = { .kind = SN_WORD,
					                        .start = c->start,
					                        .end = c->end };
				walk_backquotes(b, ctx, &text_part, st, parent);
			} else if (c) {
				builder_walk_substitutions(b, ctx, c, st, parent);
			}
			if (c && c->end > pos)
				pos = c->end;
		}
		return;
	}
	while (!b->error && at < len && shell_backquote_find(text + at, len - at, &start, &end)) {
		_cleanup_free_ char *script =
		        shell_backquote_script(text + at + start, end - start);
		at += end + 1;
		if (!script) {
			b->error = -ENOMEM;
			return;
		}
		if (!builder_push_frame(b, FRAME_CMDSUBST))
			return;
		struct shell_tree tree;
		bool unparsed;
		b->error = parse_script(b, script, strlen(script), &tree, &unparsed);
		struct model_state copy;
		if (!b->error && !unparsed && !(b->error = model_state_copy(&copy, st))) {
			struct walk_ctx sub =
			        script_ctx(ctx, script, n->start, n->end, parent, &tree);
			builder_walk_statements(b, &sub, &tree.root, &copy);
			model_state_done(&copy);
		}
		if (!b->error)
			shell_tree_done(&tree);
		builder_pop_frame(b);
	}
}
