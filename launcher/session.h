/* SPDX-License-Identifier: MIT */
/*
 * The first two steps: a new session without a controlling terminal and
 * stdin from /dev/null ("session"), then every inherited descriptor above 2
 * closed ("close-fds"), except the --report-fd and --command-fd descriptors.
 * Not for: changing directory or the environment (main.c's small steps).
 */
#ifndef SLUICE_LAUNCHER_SESSION_H
#define SLUICE_LAUNCHER_SESSION_H

#include "errors.h"

struct launch_spec;
struct launch_state;

/* Step "session": setsid(); when the caller made us a process group leader
 * (an interactive shell does), setsid() is refused, so the controlling
 * terminal is given up with TIOCNOTTY instead. Either way /dev/tty cannot
 * be opened afterwards (checked). Then stdin from /dev/null unless
 * --keep-stdin. */
int apply_session(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err);

/* Step "close-fds": close_range(3, ~0U) around the report and command
 * descriptors and the egress proxy's audit and ask channels, which are
 * kept and marked close-on-exec (the proxy's channels closed again in step
 * "egress-audit"). -EBADF when one of them is not open. */
int apply_close_fds(const struct launch_spec *spec, struct launch_state *state,
                    struct sluice_error *err);

#endif
