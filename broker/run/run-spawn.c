/* SPDX-License-Identifier: MIT */
/*
 * What a run needs before the launcher can start, and its start: the
 * private TMPDIR of a sandboxed run, the environment from the allowlist,
 * the launcher's path, the spawn request; then the pipes and the launcher.
 * Not for: when it starts (runner.c, run-warmup.c) or watching it (pump.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "run/environment.h"
#include "run/run-spawn.h"
#include "run/run-tmpdir.h"
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
	if (prepare_tmpdir(o) < 0)
		return -1;
	int r = o->env ? 0
	               : environment_build(environ, s->env_drop, s->n_env_drop, s->env_set,
	                                   s->n_env_set, &o->env);
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
		.network_holder = o->network_holder,
		.command = o->decision.command,
		.env = o->env,
		.stdout_fd = -1,
		.stderr_fd = -1,
		.report_fd = -1,
		.command_fd = -1,
		.spec_fd = -1,
	};
	return 0;
}

int run_spawn_launch(struct run_outcome *o, struct spawn_request *sr, unsigned flags)
{
	bool unconfigured = flags & RUN_SPAWN_UNCONFIGURED;
	bool with_command = unconfigured || (flags & RUN_SPAWN_COMMAND);
	int r = spawn_become_subreaper();
	_cleanup_close_ int out_w = -1, err_w = -1, rep_w = -1, cmd_r = -1, spec_r = -1;
	_cleanup_close_ int out_r = -1, err_r = -1, rep_r = -1, cmd_w = -1, spec_w = -1;
	int fds[2];
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (out_r = fds[0], out_w = fds[1], 0);
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (err_r = fds[0], err_w = fds[1], 0);
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (rep_r = fds[0], rep_w = fds[1], 0);
	if (r >= 0 && with_command)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (cmd_r = fds[0], cmd_w = fds[1], 0);
	if (r >= 0 && unconfigured)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (spec_r = fds[0], spec_w = fds[1], 0);
	/* Room for the whole message, so that sending it never waits for a
	 * slow launcher before the pump and its timeout start (best effort, as
	 * the pump widens its pipes). */
	if (r >= 0 && with_command)
		(void)fcntl(cmd_w, F_SETPIPE_SZ, LAUNCH_COMMAND_MESSAGE_MAX);
	sr->stdout_fd = out_w;
	sr->stderr_fd = err_w;
	sr->report_fd = rep_w;
	sr->command_fd = cmd_r;
	sr->spec_fd = spec_r;
	pid_t pid = -1;
	int exec_fd = -1;
	/* The launcher's exec and the start of its sandbox then run while
	 * this process reads its configuration and decides. */
	if (unconfigured)
		cpu_placement_prepare(&o->early_cpus);
	if (r >= 0)
		r = unconfigured ? spawn_start_unconfigured(sr, &o->early_cpus, &pid, &exec_fd)
		                 : spawn_start(sr, &pid);
	if (r < 0)
		return r;
	if (unconfigured)
		cpu_placement_apart(pid, &o->early_cpus);
	o->exec_fd = exec_fd;
	/* Only the child keeps the write ends: EOF then means it is done. */
	o->early_pid = pid;
	o->out_r = TAKE_FD(out_r);
	o->err_r = TAKE_FD(err_r);
	o->rep_r = TAKE_FD(rep_r);
	o->command_fd = TAKE_FD(cmd_w);
	o->spec_fd = TAKE_FD(spec_w);
	return 0;
}

int run_spawn_configure(struct run_outcome *o, struct spawn_request *sr)
{
	/* the descriptors the launcher was started with, by their numbers there */
	sr->report_fd = SPAWN_REPORT_FD;
	sr->command_fd = SPAWN_COMMAND_FD;
	sr->spec_fd = -1;
	/* A failed exec is reported as starting a configured launcher would
	 * be; one still under way is not waited for (the evaluation of a
	 * launcher that failed without a report asks again). */
	int r = spawn_exec_status(o->exec_fd, false);
	if (r != 1)
		o->exec_fd = safe_close(o->exec_fd);
	/* every CPU back before it can go on, for the command it runs */
	if (r >= 0)
		r = cpu_placement_restore(o->early_pid, &o->early_cpus);
	if (r >= 0) {
		r = spawn_send_spec(o->spec_fd, sr);
		o->spec_fd = -1; /* closed */
	}
	if (r < 0)
		run_outcome_withdraw_launcher(o);
	return r;
}
