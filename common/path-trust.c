/* SPDX-License-Identifier: MIT */
/*
 * The trust check of path-trust.h: the path resolved once with realpath(),
 * then lstat() of it and of each directory above it, up to "/".
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cleanup.h"
#include "path-trust.h"

/*
 * The owner root's files show with in this process's user namespace: 0,
 * or, in a namespace that does not map the parent namespace's root
 * (`unshare -r`, a sandbox an agent already runs in), the overflow uid
 * (/proc/sys/kernel/overflowuid, usually 65534), which stands for every
 * owner the namespace does not map. Nothing inside can tell root's files
 * from another unmapped user's then; they are taken as root's, as the
 * mode bits still say who else may write. 0 when it cannot be told.
 */
static uid_t root_as_seen(void)
{
	_cleanup_fclose_ FILE *map = fopen("/proc/self/uid_map", "re");
	if (!map)
		return 0;
	unsigned long inside, outside, count;
	bool any = false;
	while (fscanf(map, "%lu %lu %lu", &inside, &outside, &count) == 3) {
		any = true;
		if (outside == 0 && count > 0)
			return 0; /* root is mapped: its files show as their uid */
	}
	if (!any)
		return 0;
	_cleanup_fclose_ FILE *f = fopen("/proc/sys/kernel/overflowuid", "re");
	unsigned long overflow;
	if (!f || fscanf(f, "%lu", &overflow) != 1)
		return 0;
	return (uid_t)overflow;
}

/* One component: owned by root or uid, writable by no one else. */
static int check_one(const char *path, bool is_dir, uid_t uid, uid_t root,
                     struct sluice_error *reterr)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return sluice_error_set(reterr, neg_errno(), "'%s'", path);
	if (st.st_uid != 0 && st.st_uid != root && st.st_uid != uid)
		return sluice_error_set(reterr, -EPERM,
		                        "'%s' is owned by uid %u, neither root nor the user "
		                        "running sluice (uid %u)",
		                        path, (unsigned)st.st_uid, (unsigned)uid);
	if (!(st.st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	/* /tmp: anyone may add an entry, but only its owner may replace it */
	if (is_dir && (st.st_mode & S_ISVTX) && (st.st_uid == 0 || st.st_uid == root))
		return 0;
	return sluice_error_set(reterr, -EPERM, "'%s' is writable by %s", path,
	                        st.st_mode & S_IWOTH ? "everyone" : "its group");
}

int path_trust_check(const char *path, uid_t uid, struct sluice_error *reterr)
{
	_cleanup_free_ char *real = realpath(path, NULL);
	if (!real)
		return sluice_error_set(reterr, neg_errno(), "'%s'", path);
	uid_t root = root_as_seen();
	int r = check_one(real, false, uid, root, reterr);
	/* each directory above, by cutting the path at its last '/' */
	for (char *slash; r >= 0 && (slash = strrchr(real, '/'));) {
		if (slash == real) {
			r = check_one("/", true, uid, root, reterr);
			break;
		}
		*slash = '\0';
		r = check_one(real, true, uid, root, reterr);
	}
	if (r == -EPERM)
		sluice_error_prefix(reterr, "not trusted");
	return r;
}
