/* SPDX-License-Identifier: MIT */
/*
 * The shell layer's syntax tree (struct shell_node, struct shell_tree) and
 * the small questions every reader of it asks (is this node a word, a
 * statement, this token?). Beneath both the parser (shell-parse.c), which
 * fills a tree, and the corrections to a parse (shell-reread.c), which
 * change one: neither needs the other to walk a tree.
 * Not for: parsing (shell-parse) or meaning (the command model).
 */
#ifndef SLUICE_SHELL_TREE_H
#define SLUICE_SHELL_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct shell_arena;

/* The node kinds the model relies on; every other grammar symbol is
 * SN_OTHER (named) or SN_TOKEN (anonymous: operators, keywords, quotes). */
enum shell_node_kind {
	SN_OTHER = 0,
	SN_TOKEN,
	SN_ERROR,
	SN_PROGRAM,
	SN_COMMAND,
	SN_COMMAND_NAME,
	SN_LIST,
	SN_PIPELINE,
	SN_SUBSHELL,
	SN_COMPOUND,
	SN_REDIRECTED,
	SN_NEGATED,
	SN_IF,
	SN_ELIF,
	SN_ELSE,
	SN_WHILE,
	SN_FOR,
	SN_C_FOR,
	SN_DO_GROUP,
	SN_CASE,
	SN_CASE_ITEM,
	SN_FUNCTION,
	SN_DECLARATION,
	SN_UNSET,
	SN_TEST,
	SN_VAR_ASSIGN,
	SN_VAR_ASSIGNS,
	SN_VAR_NAME,
	SN_SPECIAL_VAR,
	SN_FILE_REDIRECT,
	SN_HEREDOC_REDIRECT,
	SN_HERESTRING_REDIRECT,
	SN_HEREDOC_START,
	SN_HEREDOC_BODY,
	SN_HEREDOC_END,
	SN_FILE_DESCRIPTOR,
	SN_WORD,
	SN_NUMBER,
	SN_STRING,
	SN_STRING_CONTENT,
	SN_RAW_STRING,
	SN_ANSI_C_STRING,
	SN_TRANSLATED_STRING,
	SN_CONCATENATION,
	SN_SIMPLE_EXPANSION,
	SN_EXPANSION,
	SN_CMD_SUBST,
	SN_PROC_SUBST,
	SN_ARITH_EXPANSION,
	SN_BRACE_EXPRESSION,
	SN_EXTGLOB,
	SN_COMMENT,
	SN_ARRAY,
	SN_HEREDOC_CONTENT,
	SN__COUNT
};

struct shell_node {
	uint16_t kind;       /* enum shell_node_kind */
	bool error;          /* this node is ERROR or MISSING */
	uint32_t start, end; /* byte offsets into the parsed text */
	uint32_t n_children;
	struct shell_node *children; /* owned array of n_children */
};

/* A parsed text: the tree borrows nothing (offsets refer to the text the
 * caller passed, which the caller keeps). */
struct shell_tree {
	struct shell_node root;
	bool has_error;     /* an ERROR or MISSING node somewhere */
	bool timed_out;     /* the time limit stopped the parse: root is empty */
	bool depth_limited; /* nodes deeper than the cap were left out */
	/* A carriage return, form feed or vertical tab between tokens: the
	 * grammar skips it as a blank, bash reads it as part of a word (so
	 * `true \r# ; cmd` runs cmd, which the tree holds as a comment). */
	bool blank_control;
	/* A byte that is neither blank nor in any node: text the grammar
	 * dropped (`cat - 2>f` loses its `-`). Its offset, or UINT32_MAX. */
	uint32_t dropped_at;
	struct shell_arena *arena; /* owns every node array (one free per tree) */
};

/* Release what a parse left in tree (its nodes); the tree is empty after. */
void shell_tree_done(struct shell_tree *tree);

/* Is n's text in src (the text n was parsed from) exactly text? */
static inline bool shell_node_text_is(const char *src, const struct shell_node *n, const char *text)
{
	size_t len = strlen(text);
	return n->end - n->start == len && memcmp(src + n->start, text, len) == 0;
}

/* Is n the operator or keyword text (`&&`, `;`, `then`, ...)? */
static inline bool shell_node_is_token(const char *src, const struct shell_node *n,
                                       const char *text)
{
	return n->kind == SN_TOKEN && shell_node_text_is(src, n, text);
}

/* A redirection: `> f`, `<<EOF ...`, `<<< word`. */
static inline bool shell_node_is_redirect(const struct shell_node *n)
{
	return n->kind == SN_FILE_REDIRECT || n->kind == SN_HEREDOC_REDIRECT ||
	       n->kind == SN_HERESTRING_REDIRECT;
}

/* n bytes of zeroed memory that live as long as tree (the shell layer's
 * repairs of a tree, shell-reread.c), or NULL (-ENOMEM). */
void *shell_tree_alloc(struct shell_tree *tree, size_t bytes);

/* The first child of the given kind, or NULL. */
const struct shell_node *shell_node_find(const struct shell_node *n, enum shell_node_kind kind);

/* True for the node kinds that are words (arguments, targets, values). */
bool shell_node_is_word(const struct shell_node *n);

/* Is text[from..to) one or more line continuations (backslash-newline) and
 * nothing else? Bash removes them before it reads words, so two words
 * separated by them only are one word. */
bool shell_gap_is_continuation(const char *text, uint32_t from, uint32_t to);

/* True for the kinds that are statements (command, list, pipeline, compound
 * statements, function definitions, ...). */
bool shell_node_is_statement(const struct shell_node *n);

#endif
