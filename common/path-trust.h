/* SPDX-License-Identifier: MIT */
/*
 * Whether a file sluice runs code from (a policy plugin, the approver
 * program) can be trusted as sudo trusts a plugin: the file and every
 * directory above it owned by root or by the invoking user, and writable
 * by no one else. A world-writable directory with the sticky bit that
 * root owns (/tmp) is accepted: no one else may rename or remove what it
 * holds. In a user namespace that does not map root, root's files show as
 * owned by the overflow uid, as every unmapped owner's do: they are taken
 * as root's (path-trust.c).
 * Not for: what the file is (the plugin loader and the approver check that).
 */
#ifndef SLUICE_COMMON_PATH_TRUST_H
#define SLUICE_COMMON_PATH_TRUST_H

#include <sys/types.h>

#include "errors.h"

/* Check path (symbolic links resolved first, so that the directories of
 * the file really opened are the ones checked) for uid. Returns 0, or
 * -EPERM with reterr naming the file or directory at fault and why, or
 * another -errno (the path cannot be resolved or examined). */
int path_trust_check(const char *path, uid_t uid, struct sluice_error *reterr);

#endif
