/* SPDX-License-Identifier: MIT */
/*
 * The environment a command runs with: sluice's own minus the variables
 * that look like secrets, plus what keeps a shell without a terminal from
 * waiting for input (editors and askpass programs that fail, pagers that do
 * not page), plus the configured [env] set and the SLUICE_RUN marker.
 * Not for: the launcher's own settings (those are its arguments).
 */
#ifndef SLUICE_ENVIRONMENT_H
#define SLUICE_ENVIRONMENT_H

#include <stdbool.h>
#include <stddef.h>

/* The marker variable: set to "1" in every command's environment. */
#define ENVIRONMENT_MARKER "SLUICE_RUN"
/* The most variables taken from the parent; more is -E2BIG. */
#define ENVIRONMENT_MAX 4096

/* The tools' own settings that make them fail at once where the network is
 * refused, instead of retrying for a minute or more (npm's fetch retries,
 * pip's, cargo's; Go's proxy off): "NAME=VALUE" each, *n of them. */
const char *const *environment_no_network(size_t *n);

/* Whether the variable called name matches one of the fnmatch(3) patterns. */
bool environment_is_dropped(const char *name, const char *const *drop, size_t n_drop);

/*
 * Build the command's environment (an owned strv in *ret): each "NAME=VALUE"
 * of parent whose name matches none of drop, with the password of any URL in
 * its value removed (scheme://user:password@host: a DATABASE_URL, an
 * https_proxy), then the non-interactive
 * defaults, then set ("NAME=VALUE" each; a later entry replaces an earlier
 * one of the same name), then the marker. Returns 0, -ENOMEM, -E2BIG, or
 * -EINVAL when an entry of set has no '='.
 */
int environment_build(char *const *parent, const char *const *drop, size_t n_drop,
                      const char *const *set, size_t n_set, char ***ret);

#endif
