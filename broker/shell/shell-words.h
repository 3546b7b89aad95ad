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

/* What a word holds, as bits (0 means a fully static word). The command
 * model forwards them unchanged (command-model.h), and so does the plugin ABI:
 * the values are fixed forever. */
enum shell_word_flag {
	WORD_PARAM = 1u << 0,      /* parameter expansion: $X, ${X}, ${X:-y}, $1, $@ */
	WORD_TILDE = 1u << 1,      /* an unquoted leading ~ (or ~user), expanded by bash */
	WORD_GLOB = 1u << 2,       /* unquoted glob characters: * ? [ ] or extglob */
	WORD_CMDSUBST = 1u << 3,   /* $(...) or `...` */
	WORD_PROCSUBST = 1u << 4,  /* <(...) or >(...) */
	WORD_ARITH = 1u << 5,      /* $((...)) */
	WORD_BRACE = 1u << 6,      /* unquoted brace expansion {a,b} / {1..3} */
	WORD_QUOTED = 1u << 7,     /* some part was quoted or escaped (informative) */
	WORD_RESOLVED = 1u << 8,   /* held a variable resolved from an earlier literal assignment */
	WORD_UNKNOWN = 1u << 9,    /* content not known at all (e.g. unparsable) */
	WORD_SPLIT = 1u << 10,     /* an unquoted expansion: bash may split it into several words */
	WORD_ANSI_C = 1u << 11,    /* held a $'...' string (informative) */
	WORD_TRANSLATED = 1u << 12 /* held a $"..." string (informative) */
};

/* Bits that make a word's final value unknown before bash runs it. */
#define WORD_DYNAMIC_MASK                                                                    \
	(WORD_PARAM | WORD_TILDE | WORD_GLOB | WORD_CMDSUBST | WORD_PROCSUBST | WORD_ARITH | \
	 WORD_BRACE | WORD_UNKNOWN)

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
