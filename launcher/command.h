/* SPDX-License-Identifier: MIT */
/*
 * Step "command": with --command-fd, the command arrives only after the
 * sandbox is built, so that a caller can start the launcher while it is
 * still deciding whether the command may run at all.
 * Not for: the other steps, or checking what the command does.
 */
#ifndef SLUICE_LAUNCHER_COMMAND_H
#define SLUICE_LAUNCHER_COMMAND_H

#include "errors.h"

struct launch_spec;
struct launch_state;

/* Read "DIR\0COMMAND\0" from spec->command_fd to end of file and close it;
 * state->argv becomes spec->argv plus COMMAND, state->chdir DIR (unless
 * empty). -ECANCELED when nothing arrived (the caller withdrew), -EPIPE when
 * the final NUL is missing (the caller withdrew or died mid-message: a
 * prefix of the command never runs), -E2BIG past LAUNCH_COMMAND_MAX, -EINVAL
 * for a NUL inside COMMAND. Without --command-fd it does nothing. */
int apply_command(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err);

#endif
