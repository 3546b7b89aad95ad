/* SPDX-License-Identifier: MIT */
/*
 * The parts of one interpreter language the recognizer knows (interp.h):
 * how its code is split into tokens (comments, string literals with their
 * quoting and escapes), and the calls that remove, write or run a shell,
 * with the expressions that mean the home directory. The tables are
 * interp-tables.c; the tokens interp-lexer.c; the reading interp-reader.c.
 * Not for: anyone outside those files.
 */
#ifndef SLUICE_MODEL_INTERP_LANG_H
#define SLUICE_MODEL_INTERP_LANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a language's code is split (struct interp_lang.lex). */
enum {
	LEX_HASH_COMMENT = 1u << 0,   /* # to the end of the line */
	LEX_SLASH_COMMENT = 1u << 1,  /* // and block comments */
	LEX_PY_STRINGS = 1u << 2,     /* r"", f"", b"" prefixes, triple quotes */
	LEX_TEMPLATE = 1u << 3,       /* `...${x}...` is a string (JavaScript) */
	LEX_BACKTICK_SHELL = 1u << 4, /* `...` runs a shell (perl, ruby, php) */
	LEX_SIGILS = 1u << 5,         /* $name and @name are names */
	LEX_DOLLAR_INTERP = 1u << 6,  /* "...$x..." interpolates (perl, php) */
	LEX_HASH_INTERP = 1u << 7,    /* "...#{x}..." interpolates (ruby) */
	LEX_RAW_SINGLE = 1u << 8,     /* '...' knows only \\ and \' */
	LEX_PERL_QUOTES = 1u << 9,    /* q() qq() qx() qw(), m// s/// tr/// y/// */
	LEX_RUBY_PERCENT = 1u << 10,  /* %q() %Q() %() %x() %w() */
	LEX_REGEX = 1u << 11,         /* /.../ where a value may start */
	LEX_REQUIRE = 1u << 12,       /* require('fs').x is named fs.x */
	LEX_NO_SINGLE = 1u << 13,     /* ' is no quote (awk) */
	LEX_JULIA_INTERP = 1u << 14,  /* "...$x..." and "...$(e)..." interpolate (julia) */
};

enum interp_call_kind {
	CALL_REMOVE_TREE,    /* its first argument is removed with all in it */
	CALL_REMOVE_FILES,   /* every argument is a file removed */
	CALL_REMOVE_DIR,     /* its first argument, an empty directory, is removed */
	CALL_WRITE,          /* its first argument is written over */
	CALL_OPEN,           /* open(PATH, MODE): written over when MODE has w, a */
	CALL_PERL_OPEN,      /* perl's open(FH, MODE, PATH): written over when MODE is > or +> */
	CALL_SHELL,          /* its first argument is a shell command */
	CALL_SHELL_OR_ARGV,  /* one argument: a shell command; more: a program's words */
	CALL_SUBPROCESS,     /* python's subprocess: a list of words, or a string with shell=True */
	CALL_PROGRAM_ARGS,   /* node's spawn / execFile: a program, then a list of words */
	CALL_RECEIVER_FILE,  /* PATH.unlink(): the receiver is a file removed */
	CALL_RECEIVER_DIR,   /* PATH.rmdir() */
	CALL_RECEIVER_WRITE, /* PATH.write_text() */
	CALL_AWK_OUTPUT,     /* awk's print / printf > FILE or | COMMAND */
	CALL_AWK_GETLINE,    /* awk's COMMAND | getline */
	CALL_REMOVE_MAYBE_TREE, /* its first argument is removed, with all in it when
	                           an argument says recursive=TRUE (R's unlink, julia's rm) */
};

/* struct interp_call.flags */
enum {
	CALL_EXACT = 1u << 0,     /* the name alone: never x.NAME */
	CALL_NO_PARENS = 1u << 1, /* called without parentheses too (perl, ruby) */
};

struct interp_call {
	const char *name; /* a dotted name: "shutil.rmtree" also matches x.shutil.rmtree */
	uint8_t kind;     /* enum interp_call_kind */
	uint8_t flags;
};

struct interp_lang {
	const char *name; /* "python" */
	uint32_t lex;     /* LEX_* */
	const struct interp_call *calls;
	size_t n_calls;
	/* expressions meaning the home directory, as the reader's canonical()
	 * (interp-reader.c) writes them ("os.path.expanduser('~')") */
	const char *const *home_forms;
	/* calls whose one string argument has its leading ~ expanded
	 * ("expanduser", "File.expand_path") */
	const char *const *tilde_calls;
	/* a name that makes a path from one string: Path('x') is 'x' */
	const char *const *path_ctors;
	/* calls that join paths: a part that starts with / is added after a /
	 * (node's path.join('/a', '/b') is /a/b; R's file.path) */
	const char *const *join_calls;
	/* calls that join paths where a part that starts with / starts the path
	 * again (python's os.path.join('/a', '/b') is /b; node's path.resolve) */
	const char *const *resolve_calls;
	/* what joins two strings: "+" (python, node), "*" (julia), "." (perl,
	 * php), ".." (lua), " " (awk: two values side by side); NULL: none */
	const char *concat;
	/* its file calls expand a leading ~ themselves (R: unlink("~")) */
	bool tilde_in_paths;
};

/* The language an interpreter of this name speaks, or NULL. */
const struct interp_lang *interp_lang_of(const char *name);

/* The row of lang's table that a call of the dotted name is, or NULL:
 * "shutil.rmtree" (also "x.shutil.rmtree"), "rmtree" alone where the row
 * is CALL_EXACT. */
const struct interp_call *interp_lang_call(const struct interp_lang *lang, const char *name);

/* ------------------------------------------------------------- tokens */

enum interp_token_type {
	TOK_NAME,   /* a dotted name (a.b, A::B, a->b: "a.b"); ".x" after a value */
	TOK_STRING, /* a string literal: text is its value */
	TOK_PUNCT,  /* one character */
};

struct interp_token {
	uint8_t type;
	bool dynamic;    /* a string whose value is not known (interpolation) */
	bool command;    /* a string that runs a shell (`...`, qx, %x) */
	bool line_start; /* a newline comes before it */
	bool home;       /* a string that is the home and a literal rest: "$ENV{HOME}/x" is "~/x" */
	char punct;
	char *text; /* NAME, STRING: owned */
};

#define INTERP_MAX_TOKENS 8192

struct interp_tokens {
	struct interp_token *v;
	size_t n, alloc;
	bool truncated;      /* more than INTERP_MAX_TOKENS */
	bool shell_leftover; /* a $ or ` outside strings, left by the shell */
};

/* Split code[0..len) of lang into *ret. shell_expanded: see interp_read.
 * 0 or -ENOMEM (ret is then empty). */
int interp_lex(const struct interp_lang *lang, const char *code, size_t len, bool shell_expanded,
               struct interp_tokens *ret);
void interp_tokens_done(struct interp_tokens *t);

/* Rewrite the NAME tokens of t that use a name the code gave a module or
 * a call (`import shutil as s`: s.rmtree is shutil.rmtree; interp-aliases.c)
 * to the full name. 0 or -ENOMEM. */
int interp_resolve_aliases(const struct interp_lang *lang, struct interp_tokens *t);

#endif
