/* SPDX-License-Identifier: MIT */
/*
 * The model oracle's judgement: does the command model account for every
 * argv that ran? Each simple command of the model stands for the argv bash
 * or a wrapper passes (its words, after any number of its wrappers' words);
 * a dynamic word ($X, *.c, $(...)) stands for any words; a command whose
 * arguments come at run time (xargs, find {}) for any that are added. What
 * the model cannot account for must make it ask (verdict_from_model).
 * Not for: running anything (oracle-run.c) or reading records (oracle-trace.c).
 */
#ifndef SLUICE_ORACLE_COMPARE_H
#define SLUICE_ORACLE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/command-model.h"

struct oracle_prediction;

/* What the model m says will run, in a new *ret (free with
 * oracle_prediction_free); m must outlive it. 0 or -ENOMEM. */
int oracle_prediction_new(const struct command_model *m, struct oracle_prediction **ret);
struct oracle_prediction *oracle_prediction_free(struct oracle_prediction *p);

/* True when the model itself asks (a dynamic name or script, a partial
 * parse, a limit, an unknown wrapper option ...): the policies never see
 * such a command as harmless, so whatever runs is accounted for. */
bool oracle_prediction_asks(const struct oracle_prediction *p);

/* True when argv (a NULL-terminated vector) is one the model predicts. */
bool oracle_prediction_explains(const struct oracle_prediction *p, char *const *argv);

/* Should a traced argv be left out of the comparison? The heads bash
 * traces as written (for, select, case, [[, ((), and `[` (the test
 * builtin, which runs nothing; the model does not list it). */
bool oracle_record_ignored(char *const *argv);

#endif
