/* SPDX-License-Identifier: MIT */
/*
 * A verb's command line as one table: the same rows parse argv, print
 * `sluice VERB --help` and the verb's line in `sluice help`, so none of
 * them can drift from the others.
 * Not for: the launcher (its options are its own).
 */
#ifndef SLUICE_VERB_OPTIONS_H
#define SLUICE_VERB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "errors.h"

struct verb_option {
	const char *name; /* without the leading "--" */
	char short_name;  /* also -X VALUE (or -XVALUE), or 0 */
	const char *arg;  /* the argument's name in --help, or NULL for a flag */
	const char *help; /* one line */
};

/* Options several verbs share, each described once. */
#define VERB_OPTION_CONFIG                                                           \
	{                                                                            \
		"config", 0, "FILE", "read this configuration file after the others" \
	}
#define VERB_OPTION_DIRECTORY                                                                  \
	{                                                                                      \
		"directory", 'C', "DIR", "the workspace root (default: the current directory)" \
	}
#define VERB_OPTION_SANDBOX                                                                   \
	{                                                                                     \
		"sandbox", 0, "MODE",                                                         \
		        "unrestricted, workspace-write or restricted (never looser than the " \
		        "configuration's)"                                                    \
	}
#define VERB_OPTION_FORMAT                                                \
	{                                                                 \
		"format", 0, "text|json", "output format (default: text)" \
	}

enum verb_parse_flags {
	/* Options end at the first word that is not one: the words after it
	 * are a command's own (`sluice run ls -la`). */
	VERB_OPTIONS_FIRST = 1u << 0,
	/* A long option may be cut to a prefix no other option has
	 * (`--time` for `--timeout`), as getopt_long() allows. */
	VERB_OPTIONS_ABBREVIATE = 1u << 1,
};

/* A verb's command line, written once. */
struct verb_spec {
	const char *name;
	const char *summary;     /* one line: what it does */
	const char *args;        /* the words after the options ("[--] COMMAND", "JOB", "") */
	const char *more_usage;  /* NULL, or another form of the line, after "sluice VERB " */
	const char *description; /* NULL, or a paragraph after the usage */
	const struct verb_option *options;
	size_t n_options;
	unsigned flags; /* enum verb_parse_flags */
};

/* What verb_options_parse found. */
struct verb_args {
	const char **values;      /* per table row: NULL unset; "" for a given flag */
	const char **positionals; /* borrowed from argv */
	size_t n_positionals;
	int help; /* --help (or -h) was given */
};

/*
 * Parse argv[1..argc) against spec's options: "--name", "--name=value",
 * "--name value", "-X value", "-Xvalue"; "--" ends the options; other words
 * are positionals (and, with VERB_OPTIONS_FIRST, so is every word after
 * the first of them). args->values and args->positionals are allocated
 * here (free with verb_args_done). Returns 0, -EINVAL (unknown or
 * ambiguous option, missing argument, a flag given a value) with reterr
 * naming the option, or -ENOMEM.
 */
int verb_options_parse(const struct verb_spec *spec, int argc, char **argv, struct verb_args *args,
                       struct sluice_error *reterr);

void verb_args_done(struct verb_args *args);

/* `sluice VERB --help`: "Usage: sluice VERB [OPTION...] ARGS", the other
 * form, the description, one line per option. args NULL: spec->args (a
 * verb whose arguments are known only at run time passes its own). */
void verb_options_help(FILE *out, const struct verb_spec *spec, const char *args);

/* The verb's arguments as `sluice help` lists them: "[OPTIONS] ARGS" into
 * buf. */
void verb_options_brief(const struct verb_spec *spec, char *buf, size_t size);

/*
 * A verb's start: verb_options_parse(), an error logged for the verb,
 * --help printed. Returns 0 to go on, 1 when the help was printed (the verb
 * exits 0), -EINVAL or -ENOMEM when the error was logged.
 */
int verb_options_parse_or_help(const struct verb_spec *spec, int argc, char **argv,
                               struct verb_args *args);

#endif
