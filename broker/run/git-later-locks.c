/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the lock files a run left (git-later-locks.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "run/git-later-locks.h"
#include "run/git-later.h"
#include "run/git-sweep-state.h"

/* The files whose locks the check's git takes: in the gitdir, and in the
 * common directory. */
static const char *const gitdir_locks[] = { "index.lock", "HEAD.lock", "ORIG_HEAD.lock", NULL };
static const char *const common_locks[] = { "packed-refs.lock", "refs/stash.lock", NULL };

static bool made_during_run(const struct git_later *g, const struct stat *st)
{
	return git_sweep_ctime_since(st, &g->started);
}

/* name in dir (at path), removed where the run made it: 1, or 0. */
static int remove_lock(struct git_later *g, struct git_sweep *s, int dir, const char *path,
                       const char *name)
{
	struct stat st;
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode) ||
	    !made_during_run(g, &st))
		return 0;
	if (unlinkat(dir, name, 0) < 0) {
		git_sweep_fail(
		        s,
		        "the check of what git would restore later: the lock %s/%s the command "
		        "left could not be removed: %s",
		        path, name, strerror(errno));
		return 0;
	}
	_cleanup_free_ char *full = NULL;
	if (asprintf(&full, "%s/%s", path, name) < 0)
		return 0;
	git_sweep_note_item(s, full,
	                    "a lock file the command left (no process of the run is left to hold "
	                    "it; git would refuse to change the file until the user removed it): "
	                    "removed",
	                    NULL);
	return 1;
}

int git_later_locks_end(struct git_later *g, struct git_sweep *s,
                        const struct git_later_ref_change *changes, size_t n)
{
	int found = 0;
	_cleanup_close_ int gfd = open(g->gitdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int cfd = open(g->common, O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (size_t i = 0; gfd >= 0 && gitdir_locks[i]; i++)
		found += remove_lock(g, s, gfd, g->gitdir, gitdir_locks[i]);
	for (size_t i = 0; cfd >= 0 && common_locks[i]; i++)
		found += remove_lock(g, s, cfd, g->common, common_locks[i]);
	for (size_t i = 0; cfd >= 0 && i < n; i++) {
		size_t len = strlen(changes[i].name);
		if (!changes[i].before && len > 5 &&
		    strcmp(changes[i].name + len - 5, ".lock") == 0)
			found += remove_lock(g, s, cfd, g->common, changes[i].name);
	}
	return found;
}
