/* SPDX-License-Identifier: MIT */
/*
 * What git runs besides itself, read from its words: an alias defined with
 * -c (a git command, or with `!` a shell command), a -c config value that
 * is a command (core.sshCommand, core.pager, diff.external ...), the shell
 * commands of subcommands that take them (rebase --exec, submodule
 * foreach, bisect run, filter-branch filters, difftool --extcmd, grep -O),
 * and what cannot be known (--exec-path=DIR, -c include.path=F,
 * core.hooksPath ...). Long options of those subcommands may be cut short as
 * git's parse-options allows, when only one option begins so; an ambiguous
 * one is an error in git and runs nothing.
 * Not for: walking what it finds (model-command.c does), or judging git
 * itself (the git plugins do).
 */
#ifndef SLUICE_GIT_H
#define SLUICE_GIT_H

#include <stdbool.h>
#include <stddef.h>

enum git_run_kind {
	GIT_RUN_SCRIPT,  /* a shell command: words[word] from offset (a -c value, an alias) */
	GIT_RUN_ARGV,    /* a command: words [from, to) */
	GIT_RUN_GIT,     /* an alias: the git command argv (owned) */
	GIT_RUN_UNKNOWN, /* something runs that is not known from the words */
};

struct git_run {
	enum git_run_kind kind;
	size_t word, offset; /* GIT_RUN_SCRIPT */
	size_t from, to;     /* GIT_RUN_ARGV; GIT_RUN_SCRIPT of a `!` alias: its arguments */
	char **argv;         /* GIT_RUN_GIT: owned strv */
	/* GIT_RUN_SCRIPT: git appends arguments not in the words (the file
	 * to edit, ssh's host and command: `sh -c 'VALUE "$@"' ...`) */
	bool args_appended;
};

#define GIT_MAX_RUNS 8

struct git_runs {
	struct git_run v[GIT_MAX_RUNS];
	size_t n;
	bool more; /* more than GIT_MAX_RUNS were found: the rest are not here */
};

/*
 * Read `git ARGS...`: words[start] is git (directory removed), words[i]
 * the quote-removed text of word i, dynamic[i] whether it is not static (a
 * value that is not static is a GIT_RUN_UNKNOWN). Fills *ret (release with
 * git_runs_done). Returns 0 or -ENOMEM.
 */
int git_runs_find(const char *const *words, const bool *dynamic, size_t n, size_t start,
                  struct git_runs *ret);

void git_runs_done(struct git_runs *r);

/* `git [global options] config [set] [options] KEY VALUE`, read as git
 * reads it (words as for git_runs_find()): does it set a key? Its words
 * into *key and *value. Reading, unsetting, listing and editing set
 * nothing here. */
bool git_config_sets(const char *const *words, size_t n, size_t start, size_t *key, size_t *value);

/* Does the config key change what git runs or how it pushes: an alias, a
 * key whose value is a command or brings in code (as -c ones are read
 * above), a mirror remote or a remote's push refspecs? */
bool git_config_key_matters(const char *key, size_t len);

/* Is it one of those that bring in what the words do not show (hooks from
 * a directory, another config file)? */
bool git_config_key_opaque(const char *key, size_t len);

/* What git does with the environment variable name set for it: a shell
 * command (GIT_SSH_COMMAND, GIT_EDITOR ...: GIT_RUN_SCRIPT), a program
 * (GIT_SSH: GIT_RUN_ARGV), something not known (GIT_EXEC_PATH,
 * GIT_CONFIG_*: GIT_RUN_UNKNOWN); -1 for a variable that runs nothing. */
int git_env_run(const char *name);

#endif
