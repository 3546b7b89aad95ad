/* SPDX-License-Identifier: MIT */
/*
 * A user's uid, gid and supplementary groups: looked up by name, written as
 * the text of sluice-launch's --user-ids (UID:GID[:GID,...]) and read back.
 * The broker looks the `[sandbox] user` up through the system's user
 * databases and passes the text; the launcher reads it and never looks the
 * name up itself (a static launcher's C library may not see every user
 * database: docs/building.md).
 * Not for: what a switch of user must do besides (capabilities, checks:
 * launcher/privileges.c).
 */
#ifndef SLUICE_COMMON_USER_IDS_H
#define SLUICE_COMMON_USER_IDS_H

#include <stddef.h>
#include <sys/types.h>

#include "errors.h"

/* At most this many supplementary groups. */
#define USER_IDS_GROUPS_MAX 256

struct user_ids {
	uid_t uid;
	gid_t gid;
	gid_t groups[USER_IDS_GROUPS_MAX]; /* supplementary, for setgroups(2) */
	size_t n_groups;
};

/* name's ids through getpwnam_r and getgrouplist (the primary group among
 * the groups). 0; -ENOENT for an unknown user, -E2BIG for one in more than
 * USER_IDS_GROUPS_MAX groups, or another -errno; reterr names the user. */
int user_ids_lookup(const char *name, struct user_ids *ret, struct sluice_error *reterr);

/* Become u for good, as root: its groups, then its gid, then its uid (the
 * first two need the privileges the last one gives up). 0, or -errno with
 * *step naming the call that failed ("setgroups", "setresgid",
 * "setresuid"). */
int user_ids_become(const struct user_ids *u, const char **step);

/* u as "UID:GID[:GID,...]" in *ret (free() it); 0 or -ENOMEM. */
int user_ids_format(const struct user_ids *u, char **ret);

/* "UID:GID[:GID,...]" (decimal ids below 4294967295) into ret; 0, -EINVAL
 * for any other text, -E2BIG for more than USER_IDS_GROUPS_MAX groups. */
int user_ids_parse(const char *text, struct user_ids *ret);

#endif
