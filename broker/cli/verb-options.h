/* SPDX-License-Identifier: MIT */
/*
 * A verb's long options as one table: the same rows parse argv and print
 * `sluice VERB --help`, so the two cannot drift apart.
 * Not for: the launcher (its options are its own), or short options.
 */
#ifndef SLUICE_VERB_OPTIONS_H
#define SLUICE_VERB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "errors.h"

struct verb_option {
	const char *name; /* without the leading "--" */
	const char *arg;  /* the argument's name in --help, or NULL for a flag */
	const char *help; /* one line */
};

/* What verb_options_parse found. */
struct verb_args {
	const char **values;      /* per table row: NULL unset; "" for a given flag */
	const char **positionals; /* borrowed from argv */
	size_t n_positionals;
	int help; /* --help was given */
};

/*
 * Parse argv[1..argc) against opts[0..n): "--name", "--name=value",
 * "--name value"; "--" ends the options; other words are positionals.
 * args->values and args->positionals are allocated here (free with
 * verb_args_done). Returns 0, -EINVAL (unknown option, missing argument,
 * a flag given a value) with reterr naming the option, or -ENOMEM.
 */
int verb_options_parse(const struct verb_option *opts, size_t n, int argc, char **argv,
                       struct verb_args *args, struct sluice_error *reterr);

void verb_args_done(struct verb_args *args);

/* "Usage: sluice USAGE" and one line per option. */
void verb_options_help(FILE *out, const char *usage, const struct verb_option *opts, size_t n);

/*
 * A verb's start: verb_options_parse(), an error logged for verb, --help
 * printed with usage. Returns 0 to go on, 1 when the help was printed (the
 * verb exits 0), -EINVAL or -ENOMEM when the error was logged.
 */
int verb_options_parse_or_help(const char *verb, const char *usage, const struct verb_option *opts,
                               size_t n, int argc, char **argv, struct verb_args *args);

#endif
