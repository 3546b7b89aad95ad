/* SPDX-License-Identifier: MIT */
/*
 * The wrappers a command can run under (sudo, env, nice, timeout, xargs,
 * find -exec, watch, ...) as one table, and the shells whose -c string,
 * here-string or heredoc is itself a command. Adding a wrapper is one row:
 * its options (which take an argument), positional words before the
 * command, and what it does to the command (assignments, cwd, argv).
 * Not for: deciding what a wrapped command means (the model and policies do).
 */
#ifndef SLUICE_WRAPPERS_H
#define SLUICE_WRAPPERS_H

#include <stdbool.h>
#include <stddef.h>

enum wrapper_flag {
	WRAP_ASSIGNMENTS = 1u << 0,     /* NAME=VALUE words before the command (env, sudo) */
	WRAP_ARGV_INCOMPLETE = 1u << 1, /* arguments are appended at run time (xargs) */
	WRAP_EXEC_CLAUSES = 1u << 2,    /* find: commands in -exec ... ; clauses; find stays */
	WRAP_SHELL_JOIN = 1u << 3,      /* watch: the words are joined and run by sh -c */
	WRAP_NUMERIC_OPT = 1u << 4,     /* -N is an option (nice -10) */
	/* after the positionals, -c or --command STRING is a shell string
	 * (flock FILE -c CMD); any other word is the command */
	WRAP_COMMAND_AFTER = 1u << 5,
	/* the words after a command string are its arguments (env -S 'a b' c);
	 * without this flag they are the wrapper's (script -c CMD FILE) */
	WRAP_STRING_ARGS = 1u << 6,
	/* options may follow operands, as GNU getopt reorders them (script
	 * log -c CMD): every word is read; the wrapper runs no argv of its own */
	WRAP_PERMUTE = 1u << 7,
	/* every long option is one word (--name or --name=value: valgrind,
	 * firejail), so one the row does not list still ends where it ends */
	WRAP_LONG_ANY = 1u << 8,
	/* the positional words come before the options (setarch ARCH -R) */
	WRAP_POSITIONALS_FIRST = 1u << 9,
};

struct wrapper {
	const char *name;
	const char *short_with_arg; /* short options that take an argument */
	const char *short_flags;    /* short options without one */
	const char *short_attached; /* options whose argument can only be attached (xargs -i{}) */
	/* "user=,login,...": '=' marks an argument (attached or the next
	 * word), '==' two (the next words), '?' an optional one (attached) */
	const char *longopts;
	const char *stop_opts;       /* short options with which nothing is run (command -v) */
	const char *stop_longopts;   /* the same, long ("list,edit,...") */
	const char *chdir_opts;      /* short options whose argument is the new cwd (env -C) */
	const char *chdir_longopts;  /* the same, long */
	const char *direct_opts;     /* WRAP_SHELL_JOIN off: run argv directly (watch -x) */
	const char *string_opts;     /* the argument is a command string (env -S, script -c) */
	const char *string_longopts; /* the same, long */
	/* a project runner's subcommands that run a command ("run": uv run,
	 * poetry run), a comma list: the wrapper's options follow one; with
	 * any other word after the name (uv pip install) it is the command */
	const char *subcommands;
	/* a package manager that runs a project's bin by its name when the
	 * word is none of its own commands (yarn rimraf dist, pnpm tsc): its
	 * own commands, a comma list; any other word that is no option is the
	 * command (after the subcommands above) */
	const char *builtins;
	unsigned positionals; /* words between the options and the command (timeout 5) */
	unsigned flags;       /* enum wrapper_flag */
};

/* The wrapper row for a command name (directory already removed), or NULL. */
const struct wrapper *wrapper_find(const char *name);

/* What wrapper_match() found in a wrapper's own words. */
struct wrapper_match {
	size_t end;          /* index of the wrapped command's first word (n: none) */
	size_t assign_begin; /* NAME=VALUE words are [assign_begin, assign_end) */
	size_t assign_end;
	long chdir_word;                    /* the word naming a new working directory, or -1 */
	long string_word;                   /* the word holding a command string, or -1 */
	size_t chdir_offset, string_offset; /* where the value starts in that word
	                                       ("-Cdir": 2, "--chdir=dir": 8) */
	bool unknown_opt; /* an option the table does not know (taken as a flag) */
	bool stops;       /* an option means no command is run (command -v, sudo -l) */
	bool shell_join;  /* the rest is joined and run by sh -c (watch without -x) */
};

/*
 * Read the wrapper's words: words[start] is the wrapper's name; its options,
 * assignments and positionals follow. words[i] is the quote-removed text of
 * word i; n the count.
 */
void wrapper_match(const struct wrapper *w, const char *const *words, size_t n, size_t start,
                   struct wrapper_match *ret);

/* The option that the long option word (without its "--", with any
 * "=value") spells in the comma list (the longopts syntax of struct
 * wrapper), as getopt_long and git's parse-options take it: named so, or
 * the only one it begins. Its name into *item, *item_len, the words of
 * arguments it takes into *args. False when none or several do (an
 * ambiguous option is refused: nothing runs). */
bool wrapper_long_option(const char *list, const char *word, const char **item, size_t *item_len,
                         unsigned *args);

/* One `-exec CMD... ;` (or `+`) clause of find: words [begin, end). */
struct wrapper_clause {
	size_t begin, end;
};

/* The exec clauses of a WRAP_EXEC_CLAUSES wrapper whose name is words[start],
 * at most max; returns how many there are (may exceed max: the rest were not
 * stored). */
size_t wrapper_exec_clauses(const char *const *words, size_t n, size_t start,
                            struct wrapper_clause *clauses, size_t max);

/* How a shell command (bash, sh, dash, zsh, ksh, ...) gets its commands. */
enum shell_script_source {
	SHELL_SCRIPT_NONE = 0, /* not a shell (or su / runuser without -c) */
	SHELL_SCRIPT_ARG,   /* -c STRING: *script_word is its index (su: maybe --command=STRING) */
	SHELL_SCRIPT_STDIN, /* reads commands from stdin (no -c, no file, or -s) */
	SHELL_SCRIPT_FILE,  /* runs a script file (*script_word): not known to the model */
};

/* A shell whose language is not bash's (csh, tcsh, fish, ...): the model
 * reads its scripts as bash, which they may not be. */
bool wrapper_shell_is_foreign(const char *name);

/* su and runuser: a shell command as another user (`su -c CMD root`). */
bool wrapper_is_user_switch(const char *name);

/* Classify words[start..n) as a shell invocation; name is the command's
 * name (words[start], directory removed), words[start] itself is not read.
 * For SHELL_SCRIPT_ARG the script starts *script_offset bytes into word
 * *script_word (su -cCMD, su --command=CMD; 0 for a word of its own). */
enum shell_script_source wrapper_shell_script(const char *name, const char *const *words, size_t n,
                                              size_t start, size_t *script_word,
                                              size_t *script_offset);

#endif
