/* SPDX-License-Identifier: MIT */
/*
 * The launcher process of one run, from its start to the moment the pump
 * takes it: the one owner of its pid, its pipes and the descriptor that
 * tells whether its exec succeeded. Its functions are the only code that
 * touches them; the state says which of them hold anything.
 * Not for: what the launcher is started with (run-spawn.c fills the spawn
 * request), when it starts (runner.c, run-warmup.c), or watching the
 * command (pump.c).
 *
 *   state              pid   spec  command  out/err/report/end  exec status
 *   NONE               -     -     -        -                   -
 *   AWAITING_OPTIONS   yes   yes   yes      yes                 yes
 *   AWAITING_COMMAND   yes   -     yes      yes                 maybe
 *   RUNNING            yes   -     -        yes                 maybe
 *   HANDED             -     -     -        -                   maybe
 *
 * The egress proxy's audit channel (egress-log.h) is made with the
 * launcher when its run may have an allowlist (one started unconfigured
 * always: its options are not known yet), kept while it runs, and handed
 * over with its pipes; so is its ask channel (egress-asks.h) when the run
 * may also ask an approver about a host not on the list.
 *
 *   NONE --start_unconfigured--> AWAITING_OPTIONS --configure--> AWAITING_COMMAND
 *   NONE --start_waiting--> AWAITING_COMMAND --send_command--> RUNNING
 *   NONE --start_with_command--> RUNNING --hand_over--> HANDED
 *   any --withdraw--> NONE (one not yet HANDED is ended and reaped; one
 *                          RUNNING killed with its process group first)
 */
#ifndef SLUICE_LAUNCHER_PROC_H
#define SLUICE_LAUNCHER_PROC_H

#include <sys/types.h>

#include "run/cpu-placement.h"
#include "run/spawner.h"

enum launcher_proc_state {
	LAUNCHER_PROC_NONE,             /* nothing started, or it was withdrawn */
	LAUNCHER_PROC_AWAITING_OPTIONS, /* exec'd before the configuration was read */
	LAUNCHER_PROC_AWAITING_COMMAND, /* building its sandbox, then waiting for the command */
	LAUNCHER_PROC_RUNNING,          /* it has its command; the pump has not taken it */
	LAUNCHER_PROC_HANDED,           /* the pump owns its pid and its output pipes */
};

/* One launcher process. Initialise with launcher_proc_init(); release with
 * launcher_proc_withdraw(). The fields are private to launcher-proc.c. */
struct launcher_proc {
	enum launcher_proc_state state;
	pid_t pid;
	int spec_fd;    /* write end: its options (AWAITING_OPTIONS) */
	int command_fd; /* write end: its command (until RUNNING) */
	int out_r, err_r, report_r;
	int end_r;        /* where its monitor says the run is over (LAUNCH_OPT_END_FD) */
	int egress_audit; /* the egress proxy's audit channel, or -1 */
	int egress_ask;   /* this end of the egress proxy's ask channel, or -1 */
	/* spawn_exec_status()'s, until the exec is known to have succeeded:
	 * a launcher started unconfigured only */
	int exec_fd;
	struct cpu_placement cpus; /* its CPUs until its options are sent */
};

/* Nothing started. */
void launcher_proc_init(struct launcher_proc *lp);

enum launcher_proc_state launcher_proc_state(const struct launcher_proc *lp);

/* Start the launcher at sr->launcher (the only field read) now, before the
 * configuration is read: it is exec'd while this process goes on, on
 * another CPU where there is one, then waits for its options. From NONE to
 * AWAITING_OPTIONS; 0, or -errno with nothing started. */
int launcher_proc_start_unconfigured(struct launcher_proc *lp, struct spawn_request *sr);

/* Start the launcher for sr (run_spawn_prepare()): it builds its sandbox,
 * then waits for its command (launcher_proc_send_command()). From NONE to
 * AWAITING_COMMAND; 0, or -errno with nothing started. */
int launcher_proc_start_waiting(struct launcher_proc *lp, struct spawn_request *sr);

/* Start the launcher for sr with sr->command in its arguments. From NONE
 * to RUNNING; 0, or -errno with nothing started. */
int launcher_proc_start_with_command(struct launcher_proc *lp, struct spawn_request *sr);

/* Tell a launcher AWAITING_OPTIONS that its options will plan the
 * namespace layer: it enters its namespaces meanwhile. Best effort (a
 * launcher that is gone is found by launcher_proc_configure()); nothing in
 * another state. */
void launcher_proc_namespace_ahead(struct launcher_proc *lp);

/* Send a launcher AWAITING_OPTIONS its options and environment for sr
 * (run_spawn_prepare()), its CPUs given back first. To AWAITING_COMMAND;
 * 0, or -errno with the launcher withdrawn (NONE). */
int launcher_proc_configure(struct launcher_proc *lp, struct spawn_request *sr);

/* Send a launcher AWAITING_COMMAND its working directory and command;
 * RUNNING then whatever happened: -EPIPE when it is gone (its exit status
 * and stderr say why). Nothing, 0, in another state. */
int launcher_proc_send_command(struct launcher_proc *lp, const char *dir, const char *command);

/* Give the pump a RUNNING launcher: its pid, and its stdout, stderr,
 * report and end pipes' read ends (owned by the caller now). To HANDED. */
pid_t launcher_proc_hand_over(struct launcher_proc *lp, int *ret_out, int *ret_err, int *ret_report,
                              int *ret_end);

/* The egress proxy's audit channel of a launcher whose run has an
 * allowlist (owned by the caller now), or -1. Once, after
 * launcher_proc_hand_over(). */
int launcher_proc_take_egress_audit(struct launcher_proc *lp);

/* This end of the egress proxy's ask channel of a launcher whose run may
 * ask (owned by the caller now), or -1. Once, after
 * launcher_proc_hand_over(). */
int launcher_proc_take_egress_ask(struct launcher_proc *lp);

/* Whether the exec of a launcher started unconfigured succeeded, waiting
 * for it if need be: 0 (also when there is nothing to ask), or the exec's
 * -errno. Asked once: the descriptor is closed. */
int launcher_proc_exec_status(struct launcher_proc *lp);

/* A launcher that will not run a command: closing its pipes makes it exit
 * without running anything (one still awaiting its options is killed: it
 * has nothing yet); one RUNNING already has its command, so it is killed
 * with its process group first; it is reaped here. One HANDED is left to
 * the pump. NONE after. */
void launcher_proc_withdraw(struct launcher_proc *lp);

#endif
