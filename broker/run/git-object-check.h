/* SPDX-License-Identifier: MIT */
/*
 * Whether a loose object file holds the object its name says
 * (git-object-check.c): its content inflated (zlib) and hashed (SHA-1,
 * or SHA-256 in a sha256 repository). git reads a loose object without
 * checking its hash, so a file the command wrote over one of HEAD's is
 * what `git reset --hard` or `git checkout` writes into the work tree.
 * Not for: packs (git index-pack --verify checks those: git-later-objects.c).
 */
#ifndef SLUICE_GIT_OBJECT_CHECK_H
#define SLUICE_GIT_OBJECT_CHECK_H

/* The loose object file name in the fan-out folder dir, whose id is hex
 * (the folder's two digits and name: 40 digits, or 64 in a sha256
 * repository): 1 when it holds that object as git writes one (a header
 * "TYPE SIZE" of one of git's four types, SIZE bytes after it, nothing
 * after the stream), 0 when it holds anything else, -errno when it could
 * not be read (-EINVAL: hex is no object id). */
int git_loose_object_check(int dir, const char *name, const char *hex);

#endif
