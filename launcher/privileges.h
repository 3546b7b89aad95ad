/* SPDX-License-Identifier: MIT */
/*
 * Step "privileges": no_new_privs, the optional switch to --user (as root),
 * and every capability set emptied (capset for the capability sets,
 * PR_CAP_AMBIENT for the ambient set, PR_CAPBSET_DROP for the bounding set).
 * Not for: rlimits (rlimits.c), even though the process limit only binds
 * once the uid is not 0.
 */
#ifndef SLUICE_LAUNCHER_PRIVILEGES_H
#define SLUICE_LAUNCHER_PRIVILEGES_H

#include "errors.h"
#include "user-ids.h"

struct launch_spec;
struct launch_state;

/* The ids of the user --user names (spec->user must be set): --user-ids
 * when given, else looked up in the user databases of the C library
 * sluice-launch is built with (user_ids_lookup()). */
int privileges_user(const struct launch_spec *spec, struct user_ids *ret, struct sluice_error *err);

/* PR_SET_NO_NEW_PRIVS; as root with --user NAME: the bounding set cleared,
 * then NAME's groups, gid and uid (privileges_user(), user_ids_become());
 * then effective, permitted, inheritable, ambient and bounding sets emptied
 * whenever any capability is held, and
 * the result checked. --user as non-root is accepted only for our own uid
 * (-EPERM otherwise); an unknown user is -ENOENT. */
int apply_privileges(const struct launch_spec *spec, struct launch_state *state,
                     struct sluice_error *err);

#endif
