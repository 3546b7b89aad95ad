/* SPDX-License-Identifier: MIT */
/*
 * The launcher process of one run (see launcher-proc.h for its states):
 * its pipes made and the launcher started, its options and its command
 * sent, handed to the pump, or withdrawn. The only code that touches its
 * pid and descriptors.
 * Not for: what it is started with (run-spawn.c) or when (runner.c,
 * run-warmup.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "launch-spec.h"
#include "run/egress-asks.h"
#include "run/egress-log.h"
#include "run/launcher-proc.h"

void launcher_proc_init(struct launcher_proc *lp)
{
	*lp = (struct launcher_proc){
		.state = LAUNCHER_PROC_NONE,
		.spec_fd = -1,
		.command_fd = -1,
		.out_r = -1,
		.err_r = -1,
		.report_r = -1,
		.end_r = -1,
		.egress_audit = -1,
		.egress_ask = -1,
		.exec_fd = -1,
	};
}

enum launcher_proc_state launcher_proc_state(const struct launcher_proc *lp)
{
	return lp->state;
}

/* How start() starts the launcher: the state it is in once started. */
static int start(struct launcher_proc *lp, struct spawn_request *sr,
                 enum launcher_proc_state started)
{
	bool unconfigured = started == LAUNCHER_PROC_AWAITING_OPTIONS;
	bool with_command = started != LAUNCHER_PROC_RUNNING;
	int r = spawn_become_subreaper();
	_cleanup_close_ int out_w = -1, err_w = -1, rep_w = -1, cmd_r = -1, spec_r = -1, end_w = -1;
	_cleanup_close_ int out_r = -1, err_r = -1, rep_r = -1, cmd_w = -1, spec_w = -1, end_r = -1;
	_cleanup_close_ int egress_audit = -1, ask_ours = -1, ask_theirs = -1;
	int fds[2];
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (out_r = fds[0], out_w = fds[1], 0);
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (err_r = fds[0], err_w = fds[1], 0);
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (rep_r = fds[0], rep_w = fds[1], 0);
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (end_r = fds[0], end_w = fds[1], 0);
	if (r >= 0 && with_command)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (cmd_r = fds[0], cmd_w = fds[1], 0);
	if (r >= 0 && unconfigured)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (spec_r = fds[0], spec_w = fds[1], 0);
	/* an unconfigured launcher's run may turn out to have an allowlist */
	if (r >= 0 && (unconfigured || (sr->settings && spawn_wants_egress_audit(sr->settings))))
		r = egress_audit = egress_log_channel_open();
	/* likewise, an approver to ask about a host not on it */
	if (r >= 0 && (unconfigured || (sr->settings && spawn_wants_egress_ask(sr->settings))))
		r = egress_asks_channel_open(&ask_ours, &ask_theirs);
	/* Room for the whole message, so that sending it never waits for a
	 * slow launcher before the pump and its timeout start (best effort, as
	 * the pump widens its pipes). */
	if (r >= 0 && with_command)
		(void)fcntl(cmd_w, F_SETPIPE_SZ, LAUNCH_COMMAND_MESSAGE_MAX);
	sr->stdout_fd = out_w;
	sr->stderr_fd = err_w;
	sr->report_fd = rep_w;
	sr->end_fd = end_w;
	sr->command_fd = cmd_r;
	sr->spec_fd = spec_r;
	sr->egress_audit_fd = egress_audit;
	sr->egress_ask_fd = ask_theirs;
	pid_t pid = -1;
	int exec_fd = -1;
	/* The launcher's exec and the start of its sandbox then run while
	 * this process reads its configuration and decides. */
	if (unconfigured)
		cpu_placement_prepare(&lp->cpus);
	if (r >= 0)
		r = unconfigured ? spawn_start_unconfigured(sr, &lp->cpus, &pid, &exec_fd)
		                 : spawn_start(sr, &pid);
	if (r < 0)
		return r;
	if (unconfigured)
		cpu_placement_apart(pid, &lp->cpus);
	lp->exec_fd = exec_fd;
	/* Only the child keeps the write ends: EOF then means it is done. */
	lp->pid = pid;
	lp->out_r = TAKE_FD(out_r);
	lp->err_r = TAKE_FD(err_r);
	lp->report_r = TAKE_FD(rep_r);
	lp->end_r = TAKE_FD(end_r);
	lp->command_fd = TAKE_FD(cmd_w);
	lp->spec_fd = TAKE_FD(spec_w);
	lp->egress_audit = TAKE_FD(egress_audit);
	lp->egress_ask = TAKE_FD(ask_ours);
	lp->state = started;
	return 0;
}

int launcher_proc_start_unconfigured(struct launcher_proc *lp, struct spawn_request *sr)
{
	return start(lp, sr, LAUNCHER_PROC_AWAITING_OPTIONS);
}

int launcher_proc_start_waiting(struct launcher_proc *lp, struct spawn_request *sr)
{
	return start(lp, sr, LAUNCHER_PROC_AWAITING_COMMAND);
}

int launcher_proc_start_with_command(struct launcher_proc *lp, struct spawn_request *sr)
{
	return start(lp, sr, LAUNCHER_PROC_RUNNING);
}

void launcher_proc_namespace_ahead(struct launcher_proc *lp)
{
	if (lp->state == LAUNCHER_PROC_AWAITING_OPTIONS)
		(void)spawn_send_namespace_ahead(lp->spec_fd);
}

int launcher_proc_configure(struct launcher_proc *lp, struct spawn_request *sr)
{
	/* the descriptors the launcher was started with, by their numbers there */
	sr->report_fd = SPAWN_REPORT_FD;
	sr->command_fd = SPAWN_COMMAND_FD;
	sr->end_fd = SPAWN_END_FD;
	sr->spec_fd = -1;
	sr->egress_audit_fd = lp->egress_audit >= 0 ? SPAWN_EGRESS_AUDIT_FD : -1;
	sr->egress_ask_fd = lp->egress_ask >= 0 ? SPAWN_EGRESS_ASK_FD : -1;
	/* not named to the launcher (it closes its copy in step "close-fds"):
	 * nothing will ask */
	if (!spawn_wants_egress_ask(sr->settings))
		lp->egress_ask = safe_close(lp->egress_ask);
	/* A failed exec is reported as starting a configured launcher would
	 * be; one still under way is not waited for (the evaluation of a
	 * launcher that failed without a report asks again). */
	int r = spawn_exec_status(lp->exec_fd, false);
	if (r != 1)
		lp->exec_fd = safe_close(lp->exec_fd);
	/* every CPU back before it can go on, for the command it runs */
	if (r >= 0)
		r = cpu_placement_restore(lp->pid, &lp->cpus);
	if (r >= 0) {
		r = spawn_send_spec(lp->spec_fd, sr);
		lp->spec_fd = -1; /* closed */
		lp->state = LAUNCHER_PROC_AWAITING_COMMAND;
	}
	if (r < 0)
		launcher_proc_withdraw(lp);
	return r;
}

int launcher_proc_send_command(struct launcher_proc *lp, const char *dir, const char *command)
{
	if (lp->state != LAUNCHER_PROC_AWAITING_COMMAND)
		return 0;
	int r = spawn_send_command(lp->command_fd, dir, command);
	lp->command_fd = -1; /* closed */
	lp->state = LAUNCHER_PROC_RUNNING;
	return r;
}

pid_t launcher_proc_hand_over(struct launcher_proc *lp, int *ret_out, int *ret_err, int *ret_report,
                              int *ret_end)
{
	*ret_out = TAKE_FD(lp->out_r);
	*ret_err = TAKE_FD(lp->err_r);
	*ret_report = TAKE_FD(lp->report_r);
	*ret_end = TAKE_FD(lp->end_r);
	pid_t pid = lp->pid;
	lp->pid = 0;
	lp->state = LAUNCHER_PROC_HANDED;
	return pid;
}

int launcher_proc_take_egress_audit(struct launcher_proc *lp)
{
	return TAKE_FD(lp->egress_audit);
}

int launcher_proc_take_egress_ask(struct launcher_proc *lp)
{
	return TAKE_FD(lp->egress_ask);
}

int launcher_proc_exec_status(struct launcher_proc *lp)
{
	int r = lp->exec_fd >= 0 ? spawn_exec_status(lp->exec_fd, true) : 0;
	lp->exec_fd = safe_close(lp->exec_fd);
	return r;
}

void launcher_proc_withdraw(struct launcher_proc *lp)
{
	if (lp->spec_fd >= 0 && lp->pid > 0)
		(void)kill(lp->pid, SIGKILL);
	/* RUNNING: it has its command, which closing its pipes does not stop,
	 * and the wait below would last as long as the command. Its process
	 * group goes first (the launcher's session, made before the exec of
	 * the command), then the launcher itself (should it not have made it
	 * yet, it has run nothing). */
	if (lp->state == LAUNCHER_PROC_RUNNING && lp->pid > 0) {
		(void)kill(-lp->pid, SIGKILL);
		(void)kill(lp->pid, SIGKILL);
	}
	lp->spec_fd = safe_close(lp->spec_fd);
	lp->exec_fd = safe_close(lp->exec_fd);
	lp->command_fd = safe_close(lp->command_fd);
	lp->out_r = safe_close(lp->out_r);
	lp->err_r = safe_close(lp->err_r);
	lp->report_r = safe_close(lp->report_r);
	lp->end_r = safe_close(lp->end_r);
	lp->egress_audit = safe_close(lp->egress_audit);
	lp->egress_ask = safe_close(lp->egress_ask);
	if (lp->pid > 0)
		while (waitpid(lp->pid, NULL, 0) < 0 && errno == EINTR)
			;
	lp->pid = 0;
	lp->state = LAUNCHER_PROC_NONE;
}
