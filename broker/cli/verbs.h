/* SPDX-License-Identifier: MIT */
/*
 * The table of sluice's verbs (run, check, doctor, ...): one row each, the
 * function that implements it and its command line (struct verb_spec, in
 * its cmd-<verb>.c, from which `sluice help` takes its line).
 * Not for: option parsing inside a verb (verb-options.c, from the spec).
 */
#ifndef SLUICE_VERBS_H
#define SLUICE_VERBS_H

#include <stdio.h>

#include "cli/verb-options.h"

/* A verb's entry point: argv[0] is the verb's name. Returns the process exit
 * status (the interface's: 0, 1, 2, 77, 124, 125, ...). */
typedef int (*verb_fn)(int argc, char **argv);

struct verb {
	verb_fn run;
	const struct verb_spec *spec; /* its name, summary and options */
};

/* The verbs (cmd-<verb>.c) and their command lines. */
int cmd_check(int argc, char **argv);
int cmd_display(int argc, char **argv);
int cmd_plugins(int argc, char **argv);
extern const struct verb_spec check_spec, display_spec, plugins_spec;

/* The verb named name, or NULL. The returned row is static. */
const struct verb *verb_find(const char *name);

/* The usage text: one line per verb, in table order. */
void verbs_print_usage(FILE *out);

#endif
