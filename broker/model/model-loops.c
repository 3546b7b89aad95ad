/* SPDX-License-Identifier: MIT */
/*
 * Loops in the model: what a loop's body may have changed in an earlier
 * round (builder_forget_assigned()), and the first rounds of a while or
 * until loop walked in order from the state before it
 * (builder_loop_rounds()): `d=~; while true; do rm -rf "$d"; done` removes
 * ~ in its first round, and `set -- ~ /; while [ $# -gt 0 ]; do rm -rf
 * "$1"; shift; done` ~ in its first and / in its second. Part of the model
 * builder (model-builder.h).
 * Not for: a for loop's words (model-builder.c's walk_loop_values()).
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "model/model-builder.h"

/* Rounds of a loop that shifts its parameters walked one by one, at most. */
#define LOOP_MAX_ROUNDS 8

/* Does n (a loop, or anything in one) run a command named name? */
static bool runs_command(const char *src, const struct shell_node *n, const char *name)
{
	if (n->kind == SN_COMMAND_NAME && shell_node_text_is(src, n, name))
		return true;
	for (uint32_t i = 0; i < n->n_children; i++)
		if (runs_command(src, &n->children[i], name))
			return true;
	return false;
}

static void forget_positional(struct model_state *st)
{
	static const char *const names[] = { "1", "2", "3", "4", "5", "6",
		                             "7", "8", "9", "#", "@", "*" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		model_state_unset(st, names[i]);
}

void builder_forget_assigned(const struct walk_ctx *ctx, const struct shell_node *n,
                             struct model_state *st)
{
	/* $d and ${d%/} read their variable and assign nothing; ${d:=x} and
	 * one with arithmetic or a substitution inside may */
	if (n->kind == SN_SIMPLE_EXPANSION)
		return;
	if (n->kind == SN_EXPANSION && !memchr(ctx->src + n->start, '=', n->end - n->start) &&
	    !memchr(ctx->src + n->start, '(', n->end - n->start))
		return;
	if (n->kind == SN_VAR_ASSIGN || n->kind == SN_VAR_NAME) {
		const struct shell_node *name =
		        n->kind == SN_VAR_NAME ? n : shell_node_find(n, SN_VAR_NAME);
		if (name)
			model_state_unset_n(st, ctx->src + name->start, name->end - name->start);
	} else if (n->kind == SN_COMMAND_NAME) {
		if (shell_node_text_is(ctx->src, n, "cd") ||
		    shell_node_text_is(ctx->src, n, "pushd") ||
		    shell_node_text_is(ctx->src, n, "popd"))
			(void)model_state_cd(st, NULL);
		if (shell_node_text_is(ctx->src, n, "shift") ||
		    shell_node_text_is(ctx->src, n, "set"))
			forget_positional(st);
	} else if (n->kind == SN_WORD && st->n_vars > 0) {
		/* read X, printf -v X, ...: any word naming a known variable */
		model_state_unset_n(st, ctx->src + n->start, n->end - n->start);
	}
	for (uint32_t i = 0; i < n->n_children; i++)
		builder_forget_assigned(ctx, &n->children[i], st);
}

/* The condition, then the body, from st (the first round, when the
 * condition holds), and once more from where that round ended (what the
 * body assigns after a use is the use's value in the second round:
 * `until false; do rm -rf "$d"; d=~; done`); a loop that shifts its
 * parameters once more for each parameter left, each round starting where
 * the one before ended. What a
 * round knows is not kept after the loop: the walk with what the body
 * assigns forgotten did that. */
void builder_loop_rounds(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                         const struct model_state *st)
{
	bool shifts = runs_command(ctx->src, n, "shift");
	struct model_state round;
	if ((b->error = model_state_copy(&round, st)) < 0)
		return;
	for (size_t k = 0; k < (shifts ? LOOP_MAX_ROUNDS : 2) && !b->error; k++) {
		if (shifts && k > 0 && !model_state_get(&round, "1"))
			break; /* no parameter left, or none known */
		for (uint32_t i = 0; i < n->n_children && !b->error; i++) {
			const struct shell_node *c = &n->children[i];
			if (c->kind == SN_DO_GROUP) {
				builder_walk_statements(b, ctx, c, &round);
			} else if (shell_node_is_statement(c) &&
			           builder_push_frame(b, FRAME_CONDITION)) {
				builder_walk_statement(b, ctx, c, &round);
				builder_pop_frame(b);
			}
		}
	}
	model_state_done(&round);
}
