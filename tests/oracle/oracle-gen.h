/* SPDX-License-Identifier: MIT */
/*
 * Commands for the model oracle, generated from a grammar of the shapes bash
 * reads: words in every quoting style, redirections in every position,
 * assignments, wrappers, lists, pipelines, compound commands, functions,
 * nested shells, substitutions, heredocs and line continuations, combined
 * at random. The same seed always gives the same commands.
 * Not for: commands that do anything outside the oracle's sandbox: every
 * name is one the oracle's stubs stand in for, every file /dev/null or one
 * under $TMPDIR, and every loop ends.
 */
#ifndef SLUICE_ORACLE_GEN_H
#define SLUICE_ORACLE_GEN_H

#include <stdint.h>

/* The index-th command of the seed's sequence, as a new string (NULL on
 * -ENOMEM). Each command depends only on (seed, index). */
char *oracle_gen_command(uint64_t seed, uint64_t index);

/* The command names the generator uses (NULL-terminated; static), for the
 * stub directory. */
extern const char *const oracle_gen_names[];

#endif
