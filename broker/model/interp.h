/* SPDX-License-Identifier: MIT */
/*
 * Code in another language that a command runs (python3 -c, node -e, perl
 * -e, ruby -e, php -r, awk's program, and the same read from a heredoc or
 * here-string): where it is among the command's words, and what of it sluice
 * reads, as a shell script the model walks like a nested shell's string
 * (shell strings handed to os.system, system, backticks ...; removals and
 * writes as the rm, rmdir and `: >` that do the same). A small recognizer
 * per language, not a parser: what it cannot read in a call that removes or
 * runs a shell is a reason to ask.
 * Not for: script files (python3 build.py), or code the language builds
 * at run time (exec, eval): neither is read.
 */
#ifndef SLUICE_MODEL_INTERP_H
#define SLUICE_MODEL_INTERP_H

#include <stdbool.h>
#include <stddef.h>

struct interp_lang; /* one language's recognizer (interp-tables.c) */

/* -e may be given more than once (perl, ruby): each word is a line. */
#define INTERP_MAX_CODE_WORDS 8

enum interp_code_source {
	INTERP_CODE_NONE,  /* a script file, a module (-m), or no code at all */
	INTERP_CODE_WORDS, /* the words code_words[] */
	INTERP_CODE_STDIN, /* read on standard input (python3 -, node <<EOF) */
};

struct interp_invocation {
	const struct interp_lang *lang;
	enum interp_code_source source;
	size_t code_words[INTERP_MAX_CODE_WORDS];   /* indexes into the words */
	size_t code_offsets[INTERP_MAX_CODE_WORDS]; /* where the code starts in
	                                               each (-e'code': 2) */
	size_t n_code;
	bool more_code;      /* more -e than INTERP_MAX_CODE_WORDS */
	size_t first_option; /* where the interpreter's own words end (the wrapper) */
	/* perl -i / ruby -i: the files from files_from on are edited in place */
	bool in_place;
	size_t files_from;
};

/* Is name (argv[0]'s last component) an interpreter sluice reads the code
 * of? If so, fill *ret with where its code is, from words[0..n) (words[0]:
 * the name). */
bool interp_invocation_find(const char *name, const char *const *words, size_t n,
                            struct interp_invocation *ret);

/* The language's name, as a message says it ("python"). */
const char *interp_lang_name(const struct interp_lang *lang);

/* What sluice reads in code[0..len). */
struct interp_reading {
	/* the shell commands it stands for, one per line (owned); NULL: none */
	char *script;
	/* why it asks: "calls shutil.rmtree on a value sluice cannot read";
	 * empty: nothing */
	char reason[160];
};

/* Read code[0..len) of lang into *ret (freed with interp_reading_done).
 * shell_expanded: the shell expanded parts of the code before the
 * interpreter sees it (a double-quoted -c word, an unquoted heredoc): a
 * string literal with a $ or a backquote in it is not known. 0 or -ENOMEM. */
int interp_read(const struct interp_lang *lang, const char *code, size_t len, bool shell_expanded,
                struct interp_reading *ret);
void interp_reading_done(struct interp_reading *r);

/* Append text to sb as one shell word that bash reads back as text
 * (single-quoted unless it needs no quotes). */
struct strbuf;
void interp_shell_quote(struct strbuf *sb, const char *text);

#endif
