/* SPDX-License-Identifier: MIT */
/*
 * The command model made readable: `sluice check --explain` prints it as text
 * (golden-tested) or as JSON. Reads the model through its public accessors
 * only, as a plugin would.
 * Not for: verdicts (verdict.c) or the display form (display.c).
 */
#ifndef SLUICE_MODEL_EXPLAIN_H
#define SLUICE_MODEL_EXPLAIN_H

#include <jansson.h>
#include <stdio.h>

#include "model/command-model.h"

/* Print the model, one block per simple command. Returns 0 or -EIO. */
int model_explain_text(const struct command_model *m, FILE *out);

/* The model as a new JSON object ({"partial", "limits", "commands": [...]}),
 * or NULL on -ENOMEM. The caller owns the reference. */
json_t *model_explain_json(const struct command_model *m);

/* A new JSON string for s; bytes that are not valid UTF-8 are replaced by
 * U+FFFD (JSON must be UTF-8). NULL on -ENOMEM. */
json_t *explain_json_string(const char *s);

#endif
