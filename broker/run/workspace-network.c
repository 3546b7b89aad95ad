/* SPDX-License-Identifier: MIT */
/*
 * Finding or starting the holder. The socket is named by the workspace's
 * key, claimed by the workspace (workspace-key.h) before its holder is
 * found or started: another workspace's runs never name it, and
 * the jobs directory (0700, this user's, hidden from sandboxed commands)
 * keeps other users and the commands themselves away from it. A socket
 * left by a holder that died refuses connections: it is removed and a new
 * holder started, never joined (there is no pid to be reused: the answer
 * comes from the process at the other end, checked by SO_PEERCRED).
 *
 * Starting and connecting happen under the lock file beside the socket,
 * which the holder also takes before it leaves (net-holder.c), so that a
 * holder does not leave between being found and answering; the holder
 * removes it as it leaves, and so does a start that failed.
 *
 * The holder must not become this process's child (detached.h).
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
#include "fd-util.h"
#include "launch-spec.h"
#include "net-holder-client.h"
#include "run/detached.h"
#include "run/workspace-key.h"
#include "run/workspace-network.h"

/* Run launcher --hold-network path; 0 once the holder is ready, or -errno
 * with what it said. */
static int start_holder(const char *launcher, const char *path, uint64_t idle_ms,
                        struct sluice_error *err)
{
	char idle[32];
	snprintf(idle, sizeof(idle), "%llums", (unsigned long long)idle_ms);
	char *const argv[] = { (char *)launcher,
		               (char *)LAUNCH_OPT_HOLD_NETWORK,
		               (char *)path,
		               (char *)LAUNCH_OPT_HOLD_IDLE,
		               idle,
		               NULL };
	return detached_start(argv, "the holder", err);
}

int workspace_network_attach(const char *path)
{
	struct sluice_error ignored = { 0 };
	return net_holder_connect(path, NULL, &ignored);
}

/* The holder at path, found or started under its lock: a connection to
 * it, or -errno with reterr saying why. */
static int hold_at(const char *path, const char *launcher, uint64_t idle_ms,
                   struct sluice_error *reterr)
{
	_cleanup_free_ char *lock_path = NULL;
	if (asprintf(&lock_path, "%s%s", path, NET_HOLDER_LOCK_SUFFIX) < 0) {
		lock_path = NULL;
		return sluice_error_set(reterr, -ENOMEM, "the holder's socket path");
	}
	_cleanup_close_ int lock = net_holder_lock(lock_path, true, reterr);
	if (lock < 0)
		return lock;
	struct sluice_error ignored = { 0 };
	int fd = net_holder_connect(path, NULL, &ignored);
	if (fd == -ENOENT || fd == -ECONNREFUSED) {
		struct stat st;
		/* a dead holder's socket; anything else there is not ours to remove */
		if (lstat(path, &st) == 0) {
			if (!S_ISSOCK(st.st_mode))
				return sluice_error_set(reterr, -EEXIST,
				                        "'%s' is there and is not a socket", path);
			if (unlink(path) < 0)
				return sluice_error_set(reterr, neg_errno(), "removing '%s'", path);
		}
		int r = start_holder(launcher, path, idle_ms, reterr);
		if (r < 0) {
			/* no holder to leave with it: the lock file goes now, while
			 * it is held (net_holder_lock()'s rule) */
			(void)unlink(lock_path);
			return r;
		}
		fd = net_holder_connect(path, NULL, reterr);
	} else if (fd < 0) {
		*reterr = ignored;
	}
	return fd;
}

int workspace_network_hold(const char *jobs_dir, const char *workspace, const char *launcher,
                           uint64_t idle_ms, char **ret_path, struct sluice_error *reterr)
{
	int r = -EEXIST;
	for (unsigned probe = 0; probe < WORKSPACE_KEY_PROBES; probe++) {
		_cleanup_free_ char *path = NULL, *claim = NULL;
		if (workspace_key_paths(jobs_dir, "net-", ".sock", workspace, probe, &path,
		                        &claim) < 0)
			return sluice_error_set(reterr, -ENOMEM, "the holder's socket path");
		r = workspace_claim(claim, workspace, reterr);
		if (r == -EEXIST)
			continue;
		if (r < 0)
			return r;
		r = hold_at(path, launcher, idle_ms, reterr);
		if (r >= 0)
			*ret_path = TAKE_PTR(path);
		return r;
	}
	/* every probe another workspace's (the last one's claim named) */
	return r;
}
