/* SPDX-License-Identifier: MIT */
/*
 * One shell word as bash will see it: quote removal ('...', "...", $'...',
 * backslashes, concatenations) where the word is static, and flags for what
 * only bash can know (parameter expansion and which variable, tilde, unquoted
 * glob or brace, command / process substitution, arithmetic).
 * Not for: finding the commands inside substitutions (the model walks them).
 */
#ifndef SLUICE_SHELL_WORDS_H
#define SLUICE_SHELL_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "command-model.h" /* enum shell_word_flag */
#include "shell-parse.h"

#define SHELL_WORD_MAX_VARS 8
#define SHELL_WORD_MAX_BYTES ((size_t)64 * 1024)

struct shell_word {
	char *text; /* owned, NUL-terminated, after quote removal */
	/* owned, as long as text: 'u' for each byte bash sees unquoted, 'q'
	 * quoted, 'v' from an unquoted variable's value; NULL when unknown
	 * (a word made from text: nothing in it is expanded) */
	char *mask;
	uint32_t flags; /* enum shell_word_flag */
	size_t n_vars;
	char *vars[SHELL_WORD_MAX_VARS]; /* owned variable names, without $ */
	bool lone_unquoted_var;          /* the word is exactly one unquoted $X / ${X} */
};

/* The value of a variable assigned a literal earlier, or NULL when unknown.
 * The returned string is borrowed for the duration of the call. */
typedef const char *(*shell_var_lookup_fn)(void *userdata, const char *name);

/*
 * Expand the word node n of text src into *ret (release with
 * shell_word_done). lookup may be NULL (no variable is resolved). A word
 * longer than SHELL_WORD_MAX_BYTES is cut and flagged WORD_UNKNOWN.
 * Returns 0 or -ENOMEM.
 */
int shell_word_expand(const char *src, const struct shell_node *n, shell_var_lookup_fn lookup,
                      void *userdata, struct shell_word *ret);

void shell_word_done(struct shell_word *w);

/* WORD_GLOB, WORD_BRACE and WORD_TILDE as t[0..len) with its mask has them
 * (a brace only a hint: brace_expand() knows). */
uint32_t shell_word_unquoted_flags(const char *t, const char *mask, size_t len);

/* True for the node kinds that are words (arguments, targets, values). */
bool shell_word_node_is_word(const struct shell_node *n);

/* True when s is a valid shell variable name (NAME in NAME=VALUE). */
bool shell_word_is_name(const char *s, size_t len);

#endif
