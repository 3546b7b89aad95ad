/* SPDX-License-Identifier: MIT */
/*
 * sluice-launch: builds the sandbox around itself, then execs the program.
 * main() is the step table below, in order, then exec: the order of the
 * table is the security argument. One step may come earlier: with
 * --spec-fd, LAUNCH_SPEC_NAMESPACE_AHEAD makes the namespaces before the
 * options are read, before "features", "session" and "close-fds" (none of
 * which the namespaces weaken); step "namespaces" then takes what it got.
 * From step "monitor" on, the steps may run in a child of the launcher
 * (monitor.h): the launcher stays outside, waits, and exits as the
 * program did.
 * Any failed step ends the launcher with status 125 and "sluice-launch:
 * STEP: DETAIL: ERROR", also as a JSON line on --report-fd; no path from a
 * failed step reaches exec.
 * Not for: parsing shell text or loading plugins.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "egress-proxy.h"
#include "git-excludes.h"
#include "protections.h"
#include "landlock.h"
#include "launch-spec.h"
#include "log.h"
#include "monitor.h"
#include "monotonic.h"
#include "mounts.h"
#include "namespaces.h"
#include "net-holder.h"
#include "protect-tidy.h"
#include "options.h"
#include "overlays.h"
#include "privileges.h"
#include "rlimits.h"
#include "seccomp-filter.h"
#include "session.h"
#include "spec-fd.h"

/* Step "chdir": the directory from --command-fd, else --chdir; after
 * Landlock (which does not restrict chdir) so that relative --workspace and
 * --rw paths mean the caller's directory. */
static int apply_chdir(const struct launch_spec *spec, struct launch_state *state,
                       struct sluice_error *err)
{
	const char *dir = state->chdir ? state->chdir : spec->chdir;
	if (dir && chdir(dir) < 0)
		return sluice_error_set(err, neg_errno(), "'%s'", dir);
	return 0;
}

/* Step "private-tmpdir": the program's TMPDIR. The private /tmp where
 * step "mounts" made one; else --tmpdir, unless --tmpdir-fallback says
 * that other runs share it (no mount namespace here): then
 * --tmpdir-fallback, made now (0700; one that exists is refused). After
 * "mounts"; before "privileges" (it is made as the caller) and "landlock"
 * (which makes it writable). */
static int apply_private_tmpdir(const struct launch_spec *spec, struct launch_state *state,
                                struct sluice_error *err)
{
	state->tmpdir = state->private_tmp ? PRIVATE_TMP : spec->tmpdir;
	if (!spec->tmpdir_fallback || state->private_tmp)
		return 0;
	if (mkdir(spec->tmpdir_fallback, 0700) < 0)
		return sluice_error_set(err, neg_errno(), "making '%s'", spec->tmpdir_fallback);
	state->tmpdir = spec->tmpdir_fallback;
	return 0;
}

/* Step "tmpdir": export the TMPDIR ("private-tmpdir"); the rest of the
 * environment is the caller's business. */
static int apply_tmpdir(const struct launch_spec *spec, struct launch_state *state,
                        struct sluice_error *err)
{
	(void)spec;
	if (state->tmpdir && setenv("TMPDIR", state->tmpdir, 1) < 0)
		return sluice_error_set(err, neg_errno(), "setting TMPDIR");
	return 0;
}

/* Step "die-with-parent": SIGKILL when the parent ends, so that a program
 * nothing watches any more does not run on past its timeout. Below a
 * monitor (step "monitor"), the parent is the monitor, which watches the
 * --die-with-parent parent itself: the PID namespace's init dies with it
 * (and the namespace with the init), and so does the program of a
 * subreaper. Else, with --die-with-parent PID, that parent. After
 * "privileges": a change of uid clears the setting. A parent that ended
 * before this step would never send it: the parent must still be there
 * (the monitor's pipe still open, or PID still the parent). */
static int apply_die_with_parent(const struct launch_spec *spec, struct launch_state *state,
                                 struct sluice_error *err)
{
	if (state->monitor_fd < 0 && spec->die_with_parent == 0)
		return 0;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return sluice_error_set(err, neg_errno(), "PR_SET_PDEATHSIG");
	if (state->monitor_fd >= 0) {
		struct pollfd p = { .fd = state->monitor_fd, .events = POLLIN };
		int n = poll(&p, 1, 0);
		(void)close(state->monitor_fd);
		state->monitor_fd = -1;
		if (n != 0)
			return sluice_error_set(err, -ESRCH, "the launcher's monitor is gone");
		return 0;
	}
	if (getppid() != spec->die_with_parent)
		return sluice_error_set(err, -ESRCH, "the parent %d is gone",
		                        (int)spec->die_with_parent);
	return 0;
}

struct launch_step {
	const char *name;
	int (*apply)(const struct launch_spec *spec, struct launch_state *state,
	             struct sluice_error *err);
};

static const struct launch_step steps[] = {
	{ LAUNCH_STEP_FEATURES, apply_features }, /* refuse what this kernel cannot enforce */
	{ "session", apply_session },             /* setsid (no tty), stdin </dev/null */
	{ "close-fds", apply_close_fds },         /* close_range(3, ~0U) but --report-fd */
	{ "namespaces", apply_namespaces },       /* mounts, IPC, PIDs, network, where possible */
	{ "egress-audit", apply_egress_audit },   /* the proxy's audit channel closed here */
	{ "monitor", apply_monitor },             /* fork: the PID namespace's init, or a reaper */
	{ "mounts", apply_mounts },               /* read-only but the writable; /tmp; hide */
	{ "overlays", apply_overlays },           /* tools' caches writable through an overlay */
	{ "proc", apply_proc },                   /* the PID namespace's own /proc */
	{ "private-tmpdir", apply_private_tmpdir },   /* /tmp, --tmpdir, or the fallback made */
	{ "rlimits", apply_rlimits },                 /* all but the address space; core 0 */
	{ "privileges", apply_privileges },           /* no_new_privs, --user, drop capabilities */
	{ "die-with-parent", apply_die_with_parent }, /* PR_SET_PDEATHSIG, parent checked */
	{ "landlock", apply_landlock },               /* filesystem, TCP, ioctl, scopes */
	{ "seccomp", apply_seccomp },                 /* socket families, connect, io_uring */
	{ "command", apply_command },                 /* --command-fd: wait for DIR and COMMAND */
	{ "chdir", apply_chdir },                     /* --chdir */
	{ "tmpdir", apply_tmpdir },                   /* TMPDIR="private-tmpdir"'s */
	{ "git-excludes", apply_git_excludes },       /* the protected paths ignored by git here */
	{ "egress-env", apply_egress_env },           /* HTTPS_PROXY... when a proxy runs */
	{ "address-space", apply_rlimit_as },         /* RLIMIT_AS, last: nothing allocates after */
	{ "report", apply_report },                   /* one JSON line on --report-fd */
};
/* every step and "namespace-ahead" has its time in the report */
_Static_assert(ELEMENTSOF(steps) + 1 <= LAUNCH_STEP_TIMES_MAX, "room for each step's time");

/* A step's wall time, for the report (step "report" writes those before
 * it). */
static void step_time_add(struct launch_state *state, const char *name, uint64_t us)
{
	if (state->n_step_times < ELEMENTSOF(state->step_times))
		state->step_times[state->n_step_times++] =
		        (struct step_time){ .name = name, .us = (uint32_t)us };
}

/* A failure before the steps. Once --namespace-ahead made a PID namespace
 * for this process's children, leave with _exit: a sanitizer's leak check
 * at exit clones its tracer into that namespace, where it cannot see this
 * process, and spins for ever. */
static int fail_before_steps(const struct namespace_ahead *ahead)
{
	if (ahead->entered)
		_exit(LAUNCH_EXIT_FAILURE);
	return LAUNCH_EXIT_FAILURE;
}

/* The steps from first on, then the exec; never returns. Step "monitor"
 * may go on with them in a child (resume_steps()). */
static _Noreturn void run_steps(const struct launch_spec *spec, struct launch_state *state,
                                size_t first)
{
	struct sluice_error err;
	for (size_t i = first; i < ELEMENTSOF(steps); i++) {
		err = (struct sluice_error){ 0 };
		state->step = i;
		state->step_start_us = monotonic_us();
		int r = steps[i].apply(spec, state, &err);
		step_time_add(state, steps[i].name, monotonic_us() - state->step_start_us);
		if (r < 0) {
			if (err.code == 0)
				err.code = r;
			protections_report_error(spec, steps[i].name, &err);
			log_sluice_error(&err, "%s", steps[i].name);
			_exit(LAUNCH_EXIT_FAILURE);
		}
	}

	char **program = state->argv ? state->argv : spec->argv;
	err = (struct sluice_error){ 0 };
	(void)monitor_exec(spec, state, program, &err);
	protections_report_error(spec, LAUNCH_STEP_EXEC, &err);
	log_sluice_error(&err, LAUNCH_STEP_EXEC);
	_exit(LAUNCH_EXIT_FAILURE);
}

/* state->resume_steps: the step running (which succeeded) timed, then
 * the steps after it. */
static void resume_steps(const struct launch_spec *spec, struct launch_state *state)
{
	step_time_add(state, steps[state->step].name, monotonic_us() - state->step_start_us);
	run_steps(spec, state, state->step + 1);
}

int main(int argc, char **argv)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	struct namespace_ahead ahead = { 0 };
	if (spec_fd_take(&argc, &argv, namespaces_ahead, &ahead, &err) < 0) {
		log_sluice_error(&err, "options");
		return fail_before_steps(&ahead);
	}
	if (options_parse(argc, argv, &spec, &err) < 0) {
		log_sluice_error(&err, "options");
		return fail_before_steps(&ahead);
	}
	/* --help, --version and --print-features run no program: the word
	 * was meant for a run (and --print-features would probe from inside
	 * the namespaces entered). */
	if (ahead.entered && spec.action != LAUNCH_RUN) {
		sluice_error_set(&err, -EINVAL, "%s came before options that run nothing",
		                 LAUNCH_SPEC_NAMESPACE_AHEAD);
		log_sluice_error(&err, "options");
		return fail_before_steps(&ahead);
	}
	switch (spec.action) {
	case LAUNCH_HELP:
		options_help(stdout);
		return fflush(stdout) == 0 ? 0 : LAUNCH_EXIT_FAILURE;
	case LAUNCH_VERSION:
		printf("sluice-launch %s\n", PACKAGE_VERSION);
		return fflush(stdout) == 0 ? 0 : LAUNCH_EXIT_FAILURE;
	case LAUNCH_PRINT_FEATURES:
		return protections_print(stdout) < 0 ? LAUNCH_EXIT_FAILURE : 0;
	case LAUNCH_HOLD_NETWORK:
		if (net_holder_start(spec.hold_network, spec.hold_idle_ms, &err) < 0) {
			log_sluice_error(&err, "hold-network");
			return LAUNCH_EXIT_FAILURE;
		}
		return 0;
	case LAUNCH_TIDY_PROTECTED:
		if (protect_tidy(&spec, &err) < 0) {
			log_sluice_error(&err, "tidy-protected");
			return LAUNCH_EXIT_FAILURE;
		}
		return 0;
	case LAUNCH_RUN:
		break;
	}

	struct launch_state state = {
		.ahead = &ahead,
		.monitor_fd = -1,
		.status_fd = -1,
		.read_rules_fd = -1,
		.network_holder_fd = -1,
		.egress_proxy = { .channel = -1 },
		.resume_steps = resume_steps,
	};
	if (ahead.entered)
		step_time_add(&state, LAUNCH_STEP_NAMESPACE_AHEAD, ahead.us);
	run_steps(&spec, &state, 0);
}
