/* SPDX-License-Identifier: MIT */
/*
 * Asking the launcher's tidier to remove the protected folders a run made
 * (protect-folders.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "launch-spec.h"
#include "run/detached.h"
#include "run/protect-folders.h"
#include "strv.h"

/* The workspace's lock file named by suffix: in jobs_dir (sluice's own,
 * which no sandboxed command sees), named by the workspace root's device
 * and inode so that every path to it names the same one. */
static int lock_path(const char *jobs_dir, const char *workspace, const char *suffix, char *buf,
                     size_t size)
{
	struct stat st;
	if (stat(workspace, &st) < 0)
		return neg_errno();
	if (snprintf(buf, size, "%s/folders-%llx-%llx%s", jobs_dir, (unsigned long long)st.st_dev,
	             (unsigned long long)st.st_ino, suffix) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

int protect_folders_runs_lock(const char *jobs_dir, const char *workspace, char *buf, size_t size)
{
	return lock_path(jobs_dir, workspace, ".runs", buf, size);
}

/* Whether a tidier waits already: its lock held (a look, not a claim: the
 * tidier takes it itself, and a second one started meanwhile leaves). */
static bool tidier_waits(const char *path)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	return fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
}

int protect_folders_tidy(const char *launcher, const char *jobs_dir, const char *workspace,
                         const struct run_settings *s)
{
	if (!launcher || !jobs_dir || !workspace ||
	    s->sandbox_mode != SANDBOX_MODE_WORKSPACE_WRITE || s->n_protect == 0)
		return 0;
	char lock[4096], runs[4096];
	int r = lock_path(jobs_dir, workspace, ".lock", lock, sizeof(lock));
	if (r >= 0)
		r = protect_folders_runs_lock(jobs_dir, workspace, runs, sizeof(runs));
	if (r < 0)
		return r;
	if (s->protect_folders_idle > 0 && tidier_waits(lock))
		return 0;
	char after[32];
	snprintf(after, sizeof(after), "%llums", (unsigned long long)s->protect_folders_idle);
	_cleanup_strv_free_ char **argv = NULL;
	r = strv_extend(&argv, launcher);
	const char *const fixed[] = { LAUNCH_OPT_TIDY_PROTECTED, lock,
		                      LAUNCH_OPT_TIDY_AFTER,     after,
		                      LAUNCH_OPT_PROTECT_LOCK,   runs,
		                      LAUNCH_OPT_WORKSPACE,      workspace };
	for (size_t i = 0; r >= 0 && i < sizeof(fixed) / sizeof(fixed[0]); i++)
		r = strv_extend(&argv, fixed[i]);
	for (size_t i = 0; r >= 0 && i < s->n_protect; i++) {
		r = strv_extend(&argv, LAUNCH_OPT_PROTECT);
		if (r >= 0)
			r = strv_extend(&argv, s->protect[i]);
	}
	if (r < 0)
		return r;
	struct sluice_error err = { 0 };
	return detached_start(argv, "the protected folders' tidier", &err);
}
