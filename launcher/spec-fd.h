/* SPDX-License-Identifier: MIT */
/*
 * sluice-launch --spec-fd N: the options and the environment read from a
 * descriptor (the format is LAUNCH_SPEC_MAX's comment in launch-spec.h),
 * for a caller that starts the launcher before it knows them.
 * Not for: the options' meaning (options.c parses what this returns).
 */
#ifndef SLUICE_LAUNCH_SPEC_FD_H
#define SLUICE_LAUNCH_SPEC_FD_H

#include "errors.h"

/*
 * When argv is exactly "sluice-launch --spec-fd N": read descriptor N to
 * its end and close it, replace *argv with argv[0] and the options read
 * (*argc to match), and environ with the environment read; returns 1. The
 * new strings live until exec. When the first word is
 * LAUNCH_SPEC_NAMESPACE_AHEAD, on_ahead(userdata) runs as soon as it has
 * arrived, before the rest is read. Any other argv: returns 0, nothing
 * changed. -errno with err when the descriptor is bad, no options arrived
 * (-ECANCELED: the caller withdrew), or what arrived is not the format.
 */
int spec_fd_take(int *argc, char ***argv, void (*on_ahead)(void *), void *userdata,
                 struct sluice_error *err);

/* What spec_fd_take() read and the options array it returned, held until
 * exec (or exit: so that a leak checker finds them reachable, where a
 * static variable only ever written might be optimised away). */
extern char *spec_fd_buffer;
extern char **spec_fd_options;

#endif
