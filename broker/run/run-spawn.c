/* SPDX-License-Identifier: MIT */
/*
 * What a run needs before the launcher can start: the private TMPDIR of a
 * sandboxed run, the environment from the allowlist, the launcher's path,
 * the workspace's network, the spawn request.
 * Not for: starting the launcher (launcher-proc.c), when it starts
 * (runner.c, run-warmup.c) or watching it (pump.c).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "strv.h"

#include "cleanup.h"
#include "run/environment.h"
#include "run/run-spawn.h"
#include "run/run-tmpdir.h"
#include "run/tool-caches.h"
#include "run/workspace-network.h"

#include "launch-spec.h"

extern char **environ;

/* Whether the run may take the shared mount point for its TMPDIR: one in
 * the foreground (a background job's outlives this process and its hold),
 * in its own tmpfs (the namespace planned), not as another user (who could
 * not enter the jobs directory). */
static bool may_share_tmpdir(const struct run_outcome *o)
{
	return o->foreground && !o->settings.user && spawn_plans_namespace(&o->settings);
}

/* A sandboxed command may write nowhere outside the workspace but here, so
 * mktemp and compilers' scratch files keep working. */
static int prepare_tmpdir(struct run_outcome *o)
{
	if (o->tmpdir || o->settings.sandbox_mode == SANDBOX_MODE_UNRESTRICTED)
		return 0;
	struct sluice_error err = { 0 };
	int r = run_outcome_jobs_dir(o, &err);
	/* The point the runs share where it serves; else (not this user's,
	 * claimed by the sweep) a directory of the run's own. */
	if (r >= 0 && may_share_tmpdir(o)) {
		struct sluice_error ignored = { 0 };
		if (run_tmpdir_share(o->jobs_dir, &o->tmpdir, &o->tmpdir_fallback, &o->tmpdir_hold,
		                     &ignored) == 0)
			return 0;
	}
	if (r >= 0)
		r = run_tmpdir_create(o->jobs_dir, o->settings.user, &o->tmpdir, &o->tmpdir_hold,
		                      &err);
	if (r < 0)
		return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED, "the private TMPDIR: %s: %s",
		                        err.detail, strerror(-r));
	return 0;
}

/* Whether o's run has its workspace's tool caches: workspace-write (a
 * restricted run writes nothing that stays), the key on, as the broker's
 * user (another user could not enter the folder). */
static bool wants_tool_caches(const struct run_outcome *o)
{
	const struct run_settings *s = &o->settings;
	return o->root && s->sandbox_mode == SANDBOX_MODE_WORKSPACE_WRITE && s->tool_caches &&
	       !s->user;
}

/* The workspace's tool caches' folder, made and held for the run; tidied
 * now and then (tool_caches_tidy_due()), after it is held. */
static int prepare_tool_caches(struct run_outcome *o)
{
	if (o->tool_cache || !wants_tool_caches(o))
		return 0;
	struct sluice_error err = { 0 };
	int r = run_outcome_jobs_dir(o, &err);
	if (r >= 0)
		r = tool_caches_open(o->jobs_dir, o->root, &o->tool_cache, &o->tool_cache_hold,
		                     &err);
	if (r < 0)
		return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED,
		                        "the tool caches' folder: %s: %s (or set [sandbox] "
		                        "tool_caches = no)",
		                        err.detail, strerror(-r));
	(void)tool_caches_tidy_due(o->jobs_dir, o->settings.tool_caches_size);
	return 0;
}

/* Whether the sandboxed run reaches no network at all: denied, and no
 * [network] allow list for the egress proxy. */
static bool network_refused(const struct run_settings *s)
{
	return s->sandbox_mode != SANDBOX_MODE_UNRESTRICTED && !s->network &&
	       s->n_egress_allow == 0;
}

/* The command's environment: the allowlist's, with the tools' caches and
 * their no-retry settings where the network is refused set before [env]
 * set, so that an administrator's setting of the same variable wins. */
static int build_environment(struct run_outcome *o)
{
	const struct run_settings *s = &o->settings;
	size_t n_quiet = 0;
	const char *const *quiet = network_refused(s) ? environment_no_network(&n_quiet) : NULL;
	size_t room = TOOL_CACHES_VARS + n_quiet + s->n_env_set;
	_cleanup_strv_free_ char **set = calloc(room + 1, sizeof(char *));
	if (!set)
		return -ENOMEM;
	size_t n = 0;
	int r = o->tool_cache ? tool_caches_environment(o->tool_cache, set, &n) : 0;
	for (size_t i = 0; r >= 0 && i < n_quiet; i++)
		r = (set[n++] = strdup(quiet[i])) ? 0 : -ENOMEM;
	for (size_t i = 0; r >= 0 && i < s->n_env_set; i++)
		r = (set[n++] = strdup(s->env_set[i])) ? 0 : -ENOMEM;
	if (r < 0)
		return r;
	return environment_build(environ, s->env_drop, s->n_env_drop, (const char *const *)set, n,
	                         &o->env);
}

/* Whether o's run joins its workspace's network: sandboxed with the
 * namespaces, the network denied, and sharing not turned off. */
static bool wants_workspace_network(const struct run_outcome *o)
{
	const struct run_settings *s = &o->settings;
	return spawn_plans_namespace(s) && !s->network && s->workspace_network_idle > 0;
}

/* The holder of the workspace's network, found or started, and held for
 * the run; where none can be had, the run makes a network of its own and
 * its report says that the workspace's is missing. */
static void prepare_workspace_network(struct run_outcome *o)
{
	if (o->network_holder || !wants_workspace_network(o))
		return;
	struct sluice_error err = { 0 };
	int fd = o->jobs_dir ? workspace_network_hold(o->jobs_dir, o->root, o->launcher,
	                                              o->settings.workspace_network_idle,
	                                              &o->network_holder, &err)
	                     : -ENOENT;
	if (fd >= 0) {
		o->network_hold = fd;
		return;
	}
	/* the launcher's report names workspace-network missing */
	o->network_holder = strdup(LAUNCH_NETWORK_HOLDER_NONE);
}

int run_spawn_prepare(struct run_outcome *o, struct spawn_request *sr)
{
	const struct run_settings *s = &o->settings;
	if (prepare_tmpdir(o) < 0 || prepare_tool_caches(o) < 0)
		return -1;
	int r = o->env ? 0 : build_environment(o);
	if (r < 0)
		return run_outcome_fail(o, ERROR_KIND_COMMAND_FAILED,
		                        "building the environment: %s", strerror(-r));
	r = o->launcher ? 0 : spawn_find_launcher(&o->launcher);
	if (r < 0)
		return run_outcome_fail(
		        o, ERROR_KIND_COMMAND_FAILED,
		        "sluice-launch was not found (set SLUICE_LAUNCH or install it next to sluice)");
	prepare_workspace_network(o);
	*sr = (struct spawn_request){
		.launcher = o->launcher,
		.settings = s,
		.workspace = o->root,
		.chdir = o->workdir,
		.tmpdir = o->tmpdir,
		.tmpdir_fallback = o->tmpdir_fallback,
		.jobs_dir = o->jobs_dir,
		.tool_cache = o->tool_cache,
		.network_holder = o->network_holder,
		.command = o->decision.command,
		.env = o->env,
		.stdout_fd = -1,
		.stderr_fd = -1,
		.report_fd = -1,
		.command_fd = -1,
		.spec_fd = -1,
		.egress_audit_fd = -1,
		.egress_ask_fd = -1,
		.end_fd = -1,
	};
	return 0;
}
