/* SPDX-License-Identifier: MIT */
/*
 * The display form of a command (interface: "Display form"): a leading
 * `cd DIR &&` or `cd DIR;` is left out when DIR is the working directory; a
 * `cd DIR || ...` never is; in `cd DIR && cmd || fallback` only the cd goes.
 * Read from the parse, never by matching strings.
 * Not for: anything a policy decides on (display is for people).
 */
#ifndef SLUICE_DISPLAY_H
#define SLUICE_DISPLAY_H

#include "model/command-model.h"

/*
 * The display form of m's source for working directory cwd (absolute; NULL:
 * nothing is stripped) in *ret (owned by the caller). `~` in DIR is $HOME.
 * Returns 0 or -ENOMEM.
 */
int display_form(const struct command_model *m, const char *cwd, char **ret);

/*
 * The display form of what runs: of rewrite (parsed with parser) when a
 * plugin rewrote m's command, else of m. Returns 0, or -ENOMEM / -EINVAL
 * (a rewrite that does not parse) with reterr filled.
 */
int display_form_of_run(struct command_model_parser *parser, const struct command_model *m,
                        const char *rewrite, const char *cwd, char **ret,
                        struct sluice_error *reterr);

#endif
