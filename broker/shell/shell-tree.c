/* SPDX-License-Identifier: MIT */
/*
 * The syntax tree's memory (one arena per tree) and the questions asked of
 * its nodes; see shell-tree.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "shell/shell-tree.h"

/* The node arrays of one tree, carved from a few growing blocks: a parse
 * makes one allocation per block instead of one per node. */
struct shell_arena {
	struct shell_arena *next;
	size_t size, used;
	max_align_t data[];
};

#define ARENA_FIRST_BLOCK 4096

void *shell_tree_alloc(struct shell_tree *tree, size_t bytes)
{
	struct shell_arena *a = tree->arena;
	bytes = (bytes + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!a || a->size - a->used < bytes) {
		size_t size = a ? a->size * 2 : ARENA_FIRST_BLOCK;
		while (size < bytes)
			size *= 2;
		struct shell_arena *b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		*b = (struct shell_arena){ .next = a, .size = size };
		tree->arena = a = b;
	}
	void *p = (char *)a->data + a->used;
	a->used += bytes;
	memset(p, 0, bytes);
	return p;
}

void shell_tree_done(struct shell_tree *tree)
{
	while (tree->arena) {
		struct shell_arena *next = tree->arena->next;
		free(tree->arena);
		tree->arena = next;
	}
	tree->root.children = NULL;
	tree->root.n_children = 0;
}

bool shell_gap_is_continuation(const char *text, uint32_t from, uint32_t to)
{
	if (from >= to || (to - from) % 2)
		return false;
	for (uint32_t i = from; i < to; i += 2)
		if (text[i] != '\\' || text[i + 1] != '\n')
			return false;
	return true;
}

const struct shell_node *shell_node_find(const struct shell_node *n, enum shell_node_kind kind)
{
	for (uint32_t i = 0; i < n->n_children; i++)
		if (n->children[i].kind == kind)
			return &n->children[i];
	return NULL;
}

bool shell_node_is_word(const struct shell_node *n)
{
	switch ((enum shell_node_kind)n->kind) {
	case SN_WORD:
	case SN_NUMBER:
	case SN_STRING:
	case SN_RAW_STRING:
	case SN_ANSI_C_STRING:
	case SN_TRANSLATED_STRING:
	case SN_CONCATENATION:
	case SN_SIMPLE_EXPANSION:
	case SN_EXPANSION:
	case SN_CMD_SUBST:
	case SN_PROC_SUBST:
	case SN_ARITH_EXPANSION:
	case SN_BRACE_EXPRESSION:
	case SN_EXTGLOB:
		return true;
	default:
		return false;
	}
}

bool shell_node_is_statement(const struct shell_node *n)
{
	switch ((enum shell_node_kind)n->kind) {
	case SN_COMMAND:
	case SN_LIST:
	case SN_PIPELINE:
	case SN_SUBSHELL:
	case SN_COMPOUND:
	case SN_REDIRECTED:
	case SN_NEGATED:
	case SN_IF:
	case SN_WHILE:
	case SN_FOR:
	case SN_C_FOR:
	case SN_CASE:
	case SN_FUNCTION:
	case SN_DECLARATION:
	case SN_UNSET:
	case SN_TEST:
	case SN_VAR_ASSIGN:
	case SN_VAR_ASSIGNS:
		return true;
	default:
		return false;
	}
}
