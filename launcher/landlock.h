/* SPDX-License-Identifier: MIT */
/*
 * Step "landlock": the profile's filesystem, TCP and scoping rules, best
 * effort by ABI as samples/landlock/sandboxer.c does it.
 * Not for: sockets other than TCP (seccomp-filter.c).
 */
#ifndef SLUICE_LAUNCHER_LANDLOCK_H
#define SLUICE_LAUNCHER_LANDLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errors.h"

struct launch_spec;
struct launch_state;

#include "landlock-abi.h" /* landlock_abi_version() */

/* Apply the rights state->planned asks for: read and execute everywhere;
 * /dev/null, /dev/zero, /dev/full, /dev/urandom readable and writable;
 * the TMPDIR (state->tmpdir) and --rw paths writable; under
 * workspace-write the workspace writable, except that a workspace/.git
 * directory stays read-only (unless --git-writable), which also keeps the
 * workspace directory itself from gaining entries (see docs/launcher.md).
 * TCP bind/connect, device ioctls, signals and abstract unix sockets are
 * confined when planned. Sets the PROT_LANDLOCK_* bits it enforced.
 * -ENOENT etc. name the path. */
int apply_landlock(const struct launch_spec *spec, struct launch_state *state,
                   struct sluice_error *err);

/* Step "monitor"'s parent, while its child goes on with the steps: the
 * rules that grant read everywhere but around the --hide paths (the costly
 * part of the step: a rule for each entry beside a hidden path) built into
 * a ruleset, as they are once the mounts have hidden those paths, and its
 * descriptor sent on sock (fd-passing.h), which is then closed. Best
 * effort: where nothing came, or the mounts did not hide the paths,
 * apply_landlock() builds them itself. The rules are on the files the
 * paths name now, which the mounts' binds show unchanged; /tmp, /dev and
 * /proc, where the mounts put new filesystems that a rule on the old one
 * does not reach, are left to the child, sent the hidden paths in them
 * with the ruleset. landlock_reads_ahead() says whether a run has such
 * rules to build. */
bool landlock_reads_ahead(const struct launch_spec *spec, const struct launch_state *state);
void landlock_send_read_rules(const struct launch_spec *spec, const struct launch_state *state,
                              int sock);

/* For a process that needs no file but the few it reads (the egress
 * proxy): every filesystem right of the plan's ABI handled (TCP not), only
 * reading files granted back (those that do not exist are skipped), the
 * plan's scopes applied. Needs no_new_privs. 0 (also when the plan has no
 * Landlock), or -errno with a detail. */
int landlock_restrict_to_files(uint32_t planned, const char *const *files, size_t n,
                               struct sluice_error *err);

#endif
