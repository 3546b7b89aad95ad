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

#include "shell/shell-parse.h"
#include "sluice/policy.h" /* the SLUICE_WORD_* values */

/* What a word holds, as bits (0 means a fully static word). Each is its
 * twin in the plugin ABI (sluice/policy.h), whose values are fixed forever:
 * the command model and the ABI forward them unchanged. */
enum shell_word_flag {
	/* parameter expansion: $X, ${X}, ${X:-y}, $1, $@ */
	WORD_PARAM = SLUICE_WORD_PARAM,
	/* an unquoted leading ~ (or ~user), expanded by bash */
	WORD_TILDE = SLUICE_WORD_TILDE,
	/* unquoted glob characters: * ? [ ] or extglob */
	WORD_GLOB = SLUICE_WORD_GLOB,
	/* $(...) or `...` */
	WORD_CMDSUBST = SLUICE_WORD_CMDSUBST,
	/* <(...) or >(...) */
	WORD_PROCSUBST = SLUICE_WORD_PROCSUBST,
	/* $((...)) */
	WORD_ARITH = SLUICE_WORD_ARITH,
	/* unquoted brace expansion {a,b} / {1..3} */
	WORD_BRACE = SLUICE_WORD_BRACE,
	/* some part was quoted or escaped (informative) */
	WORD_QUOTED = SLUICE_WORD_QUOTED,
	/* held a variable resolved from an earlier literal assignment */
	WORD_RESOLVED = SLUICE_WORD_RESOLVED,
	/* content not known at all (e.g. unparsable) */
	WORD_UNKNOWN = SLUICE_WORD_UNKNOWN,
	/* an unquoted expansion: bash may split it into several words */
	WORD_SPLIT = SLUICE_WORD_SPLIT,
	/* held a $'...' string (informative) */
	WORD_ANSI_C = SLUICE_WORD_ANSI_C,
	/* held a $"..." string (informative) */
	WORD_TRANSLATED = SLUICE_WORD_TRANSLATED,
};

/* Bits that make a word's final value unknown before bash runs it. */
#define WORD_DYNAMIC_MASK SLUICE_WORD_DYNAMIC

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
 * The returned string is borrowed for the duration of the call. *flags:
 * enum shell_word_flag bits a word that holds it gets (WORD_TILDE for a
 * value bash tilde-expanded when it assigned it: D=~ holds a home). */
typedef const char *(*shell_var_lookup_fn)(void *userdata, const char *name, uint32_t *flags);

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

/* The next command substitution in backquotes in s[0..n) that the grammar
 * left as text (inside `${X:-...}`, a heredoc's body): the script starts
 * at *start and ends before *end (the closing backquote). A backquote after
 * a backslash is a character; an unclosed one runs to the end, as bash
 * reads it. False when there is none. */
bool shell_backquote_find(const char *s, size_t n, size_t *start, size_t *end);

/* The script of s[0..n), the inside of backquotes, as bash reads it: a
 * backslash before \, ` or $ is removed. A new string, or NULL (-ENOMEM). */
char *shell_backquote_script(const char *s, size_t n);

/* Is the delimiter of the heredoc redirection (<<'EOF', <<"EOF", <<\EOF)
 * quoted? Then its body is text: nothing in it is expanded or run. */
bool shell_heredoc_is_quoted(const char *src, const struct shell_node *redirect);

/* The body of a heredoc with an unquoted delimiter as bash reads it, in
 * place: a backslash before \, $ or ` is removed, a backslash-newline is
 * removed; other backslashes stay. */
void shell_heredoc_unescape(char *body);

/* True when s is a valid shell variable name (NAME in NAME=VALUE). */
bool shell_word_is_name(const char *s, size_t len);

#endif
