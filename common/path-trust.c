/* SPDX-License-Identifier: MIT */
/*
 * The trust check of path-trust.h: the path resolved once with realpath(),
 * then lstat() of it and of each directory above it, up to "/".
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cleanup.h"
#include "path-trust.h"

/* One component: owned by root or uid, writable by no one else. */
static int check_one(const char *path, bool is_dir, uid_t uid, struct sluice_error *reterr)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return sluice_error_set(reterr, neg_errno(), "'%s'", path);
	if (st.st_uid != 0 && st.st_uid != uid)
		return sluice_error_set(reterr, -EPERM,
		                        "'%s' is owned by uid %u, neither root nor the user "
		                        "running sluice (uid %u)",
		                        path, (unsigned)st.st_uid, (unsigned)uid);
	if (!(st.st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	/* /tmp: anyone may add an entry, but only its owner may replace it */
	if (is_dir && (st.st_mode & S_ISVTX) && st.st_uid == 0)
		return 0;
	return sluice_error_set(reterr, -EPERM, "'%s' is writable by %s", path,
	                        st.st_mode & S_IWOTH ? "everyone" : "its group");
}

int path_trust_check(const char *path, uid_t uid, struct sluice_error *reterr)
{
	_cleanup_free_ char *real = realpath(path, NULL);
	if (!real)
		return sluice_error_set(reterr, neg_errno(), "'%s'", path);
	int r = check_one(real, false, uid, reterr);
	/* each directory above, by cutting the path at its last '/' */
	for (char *slash; r >= 0 && (slash = strrchr(real, '/'));) {
		if (slash == real) {
			r = check_one("/", true, uid, reterr);
			break;
		}
		*slash = '\0';
		r = check_one(real, true, uid, reterr);
	}
	if (r == -EPERM)
		sluice_error_prefix(reterr, "not trusted");
	return r;
}
