/* SPDX-License-Identifier: MIT */
/*
 * The table of sluice's verbs (run, check, doctor, ...): one row each, with
 * the function that implements it and the line `sluice --help` shows; each
 * verb's options are its own `sluice VERB --help`.
 * Not for: option parsing inside a verb; each cmd_*() owns its own options.
 */
#ifndef SLUICE_VERBS_H
#define SLUICE_VERBS_H

#include <stdio.h>

/* A verb's entry point: argv[0] is the verb's name. Returns the process exit
 * status (the interface's: 0, 1, 2, 77, 124, 125, ...). */
typedef int (*verb_fn)(int argc, char **argv);

struct verb {
	const char *name;
	verb_fn run;
	const char *summary; /* one line: what it does (its options: VERB --help) */
};

/* The verbs (cmd-<verb>.c). */
int cmd_check(int argc, char **argv);
int cmd_display(int argc, char **argv);
int cmd_plugins(int argc, char **argv);

/* The verb named name, or NULL. The returned row is static. */
const struct verb *verb_find(const char *name);

/* The verb closest to a misspelt name, or NULL (static). */
const char *verb_suggest(const char *name);

/* The usage text: one line per verb, in table order. */
void verbs_print_usage(FILE *out);

#endif
