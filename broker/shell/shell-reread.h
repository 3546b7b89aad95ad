/* SPDX-License-Identifier: MIT */
/*
 * Shell text read as bash reads it where the grammar reads it otherwise: the
 * shell layer's corrections to a parse (shell_parse() applies them).
 * - two words with only line continuations between them are one word
 *   (`r\<newline>m` is rm), and an assignment the grammar ended too early
 *   takes the word that touches it;
 * - `cat <<EOF 2>&1 | tee log`: the rest of a heredoc's line, which the
 *   grammar reads as an error inside the redirection, is the pipeline or
 *   list it is to bash;
 * - places the grammar reads right once the text is changed without moving
 *   a byte (so every offset stays): `time` before a compound command is
 *   blanked, a newline inside one command becomes `;`, a `$` that starts no
 *   expansion becomes `_`, `<>`'s `>` is blanked (and given back), a blank
 *   before a closing keyword after a compound command becomes `;`, a `-`
 *   the grammar dropped becomes `_`. The words are still read from the text
 *   as written.
 * Not for: parsing (shell-parse.c) or meaning (the command model).
 */
#ifndef SLUICE_SHELL_REREAD_H
#define SLUICE_SHELL_REREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shell/shell-tree.h"

/* Join the children of n that are one word to bash (see above); text is
 * what the tree was parsed from. 0 or -ENOMEM. */
int shell_reread_join_words(struct shell_tree *tree, const char *text, struct shell_node *n);

/* `a | b | c || d` is `(a | b | c) || d` to bash; inside a substitution
 * the grammar can read `a | (b | c || d)`: a pipeline p whose last part is
 * a list becomes the list, with the pipeline as its first operand.
 * 0 or -ENOMEM. */
int shell_reread_pipeline(struct shell_tree *tree, struct shell_node *p);

/* Repair the heredoc lines of tree (see above); tree->has_error is then
 * whether an error is left. 0 or -ENOMEM. */
int shell_reread_repair(struct shell_tree *tree, const char *text);

/* Mark tree as not understood (has_error) where the grammar's reading
 * cannot be repaired: a heredoc's delimiter that takes in a metacharacter
 * (`<<EOF; cmd` read as the delimiter `EOF;` and a word `cmd`). */
void shell_reread_check(struct shell_tree *tree, const char *text, size_t len);

/* A place where the grammar reads text otherwise than bash: text[start,
 * end) is to become fill. */
struct shell_misreading {
	uint32_t start, end;
	char fill;
	bool read_write; /* `<>`: the `<` token is to be given its `>` back */
};

/* The first misreading in tree (parsed from text[0..len)), into *out. */
bool shell_reread_find(const char *text, size_t len, const struct shell_tree *tree,
                       struct shell_misreading *out);

/* Give back, after the last parse, the `>` of each `<>` blanked at the
 * offsets at[0..n): the `<` tokens there end one byte later. */
void shell_reread_restore_read_write(struct shell_node *root, const uint32_t *at, size_t n);

#endif
