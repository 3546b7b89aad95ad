/* SPDX-License-Identifier: MIT */
/*
 * Starting a command through sluice-launch and ending its whole process
 * tree. The broker makes itself a child subreaper, so every process the
 * command starts (double forks and setsid escapees included) stays a
 * descendant that /proc can find and kill.
 * Not for: reading output or timing (pump.c), or the sandbox itself.
 * (Named spawner, not spawn, so that <spawn.h> stays the C library's.)
 */
#ifndef SLUICE_SPAWNER_H
#define SLUICE_SPAWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "errors.h"
#include "core/run-settings.h"
#include "run/cpu-placement.h"

/* The descriptor numbers of the launcher's report, (with command_fd) of its
 * command pipe and (with spec_fd) of its options pipe, in the child. */
#define SPAWN_REPORT_FD 3
#define SPAWN_COMMAND_FD 4
#define SPAWN_SPEC_FD 5
/* ... and of the egress proxy's audit channel (egress-log.h) */
#define SPAWN_EGRESS_AUDIT_FD 6
/* ... and of the egress proxy's ask channel (egress-asks.h) */
#define SPAWN_EGRESS_ASK_FD 7
/* ... and of the descriptor where the launcher announces the run's end */
#define SPAWN_END_FD 8
/* The highest of them: sources at or below it are copied above it first. */
#define SPAWN_FD_TOP SPAWN_END_FD
/* The most descendants listed; a larger tree is still killed, in rounds. */
#define SPAWN_TREE_MAX 4096

/*
 * The launcher's path (owned, in *ret): $SLUICE_LAUNCH when set and no
 * system configuration is installed (config_env_overrides_allowed()); else
 * sluice-launch next to this program's executable; else the installed one.
 * -ENOENT when none is executable.
 */
int spawn_find_launcher(char **ret);

/* What one command needs to start. Strings are borrowed. */
struct spawn_request {
	const char *launcher;                /* spawn_find_launcher() */
	const struct run_settings *settings; /* sandbox mode, writable, network, rlimits, shell */
	const char *workspace;               /* absolute root */
	const char *chdir;                   /* absolute working directory */
	const char *tmpdir;                  /* private TMPDIR of a sandboxed run, or NULL */
	const char *tmpdir_fallback;         /* tmpdir shared: --tmpdir-fallback, or NULL */
	const char *jobs_dir;                /* hidden from a sandboxed command, or NULL */
	const char *
	        tool_cache; /* the workspace's tool caches (writable; the overlays' layers), or NULL */
	/* the socket of the workspace's network holder to join
	 * (workspace-network.h); LAUNCH_NETWORK_HOLDER_NONE: wanted, but none
	 * could be had; NULL: not wanted */
	const char *network_holder;
	const char *command;      /* the shell's -c text (command_fd < 0) */
	char *const *env;         /* the command's environment */
	int stdout_fd, stderr_fd; /* become the child's 1 and 2 */
	int report_fd;            /* becomes SPAWN_REPORT_FD, or -1 for no report */
	/* >= 0: the read end of a pipe that becomes SPAWN_COMMAND_FD; the
	 * launcher builds the sandbox, then waits there for the command
	 * (spawn_send_command()); command is then unused. -1: none. */
	int command_fd;
	/* >= 0: the read end of a pipe that becomes SPAWN_SPEC_FD: the launcher
	 * starts with "--spec-fd" alone and an empty environment, and waits
	 * there for its options and environment (spawn_send_spec()), so that
	 * settings, workspace, tmpdir and env may still be unknown. -1: none. */
	int spec_fd;
	/* >= 0: the egress proxy's audit channel (egress_log_channel_open()),
	 * which becomes SPAWN_EGRESS_AUDIT_FD, named to the launcher when the
	 * run has an allowlist (spawn_wants_egress_audit()). -1: none. */
	int egress_audit_fd;
	/* >= 0: the launcher's end of the egress proxy's ask channel
	 * (egress_asks_channel_open()), which becomes SPAWN_EGRESS_ASK_FD,
	 * named to the launcher when the run has an allowlist and an approver
	 * (spawn_wants_egress_ask()). -1: none. */
	int egress_ask_fd;
	/* >= 0: the write end of a pipe that becomes SPAWN_END_FD, where the
	 * launcher's monitor writes the program's wait status once every
	 * process of the run is gone (LAUNCH_OPT_END_FD). -1: none. */
	int end_fd;
	/* A background job: its PID namespace (the sandboxed profiles) lives
	 * until its last process ends, not only its shell. */
	bool wait_all;
	/* A background job: the repository's gitdirs read-only in
	 * workspace-write (unless [sandbox] git_writable), since what it
	 * planted there would act on the user's git while it lives, before
	 * the sweep at its end (docs/running.md). */
	bool git_read_only;
	/* More paths kept read-only (--read-only): a background job's nested
	 * repositories' gitdirs in the work tree (git_sweep_nested_gitdirs()),
	 * or NULL. */
	char *const *read_only;
};

/* The launcher's argv for req (an owned strv in *ret). */
int spawn_build_argv(const struct spawn_request *req, char ***ret);

/* Make the calling process a child subreaper (idempotent). */
int spawn_become_subreaper(void);

/*
 * Start the launcher (which execs the shell in a new session, so pid is also
 * the process group). The child gets the default signal mask and handlers.
 * Returns 0 and *ret_pid, or -errno (the exec's too).
 */
int spawn_start(const struct spawn_request *req, pid_t *ret_pid);

/*
 * Start the launcher with req->spec_fd (and its other descriptors): it
 * waits there for its options (spawn_send_spec()). This process does not
 * wait for the exec, and the child shares its memory until then
 * (clone-exec.h): only from a single-threaded process, once per process.
 * placement (NULL: none): prepared, so that the child moves itself off
 * this process's CPU should it take it.
 * *ret_exec_fd is read by spawn_exec_status() for the outcome of the exec.
 * Returns 0 and *ret_pid, or -errno.
 */
int spawn_start_unconfigured(const struct spawn_request *req, const struct cpu_placement *placement,
                             pid_t *ret_pid, int *ret_exec_fd);

/* Whether the exec of a launcher started unconfigured succeeded, from its
 * *ret_exec_fd: 0, or the exec's -errno; without wait, 1 while the exec
 * is still under way. fd stays open (the caller closes it). */
int spawn_exec_status(int fd, bool wait);

/*
 * Hand a launcher started with spec_fd its options and environment, those
 * req asks for (req->spec_fd unused; report_fd and command_fd >= 0 when the
 * launcher was started with them), on the pipe's write end fd, which is
 * closed. Closing fd without sending withdraws, as for spawn_send_command().
 * Returns 0, or -errno (-EPIPE: the launcher is gone).
 */
int spawn_send_spec(int fd, const struct spawn_request *req);

/* Whether the options for settings s plan the launcher's namespace layer
 * (a sandboxed mode, and the namespace not turned off). */
bool spawn_plans_namespace(const struct run_settings *s);

/* Whether a run with settings s has the egress proxy, whose records an
 * audit channel would take: sandboxed, the network denied, [network]
 * allow not empty. */
bool spawn_wants_egress_audit(const struct run_settings *s);

/* Whether a run under s has an egress proxy that may ask about a host not
 * on its list ([network] ask, with an approver). */
bool spawn_wants_egress_ask(const struct run_settings *s);

/*
 * Tell a launcher started with spec_fd, before its options, that they will
 * plan the namespace layer (spawn_plans_namespace()), on the pipe's write
 * end fd, which stays open for spawn_send_spec(): it enters its namespaces
 * meanwhile. Returns 0, or -errno (-EPIPE: the launcher is gone).
 */
int spawn_send_namespace_ahead(int fd);

/*
 * Hand a launcher started with command_fd its working directory (NULL: the
 * spawn request's) and command, on the pipe's write end fd, which is closed:
 * "DIR\0COMMAND\0". Closing fd without sending withdraws: the launcher exits
 * and runs nothing; so it does when fd closes before the final NUL (this
 * process died while writing), rather than run a prefix of the command.
 * Returns 0, or -errno (-EPIPE when the launcher is already gone: its exit
 * status and stderr say why).
 */
int spawn_send_command(int fd, const char *dir, const char *command);

/*
 * The living (not zombie) descendants of process `ancestor`, up to max, into
 * pids; returns their count (which may exceed max: only max are stored).
 */
int spawn_tree_list(pid_t ancestor, pid_t *pids, size_t max);

/* Send sig to the process group pgid (if > 0) and to every living
 * descendant of ancestor. Returns the number of descendants signalled. */
int spawn_tree_signal(pid_t ancestor, pid_t pgid, int sig);

/*
 * Reap every exited child of the caller without blocking; when one of them
 * is watch_pid, store its wait status in *ret_status and set *ret_reaped.
 * Returns whether children remain. For a subreaper whose tree this is, no
 * child left means no descendant left: orphans are re-parented to it, so
 * this answers "is anything of the tree alive?" without scanning /proc.
 */
bool spawn_reap(pid_t watch_pid, int *ret_status, bool *ret_reaped);

/*
 * SIGKILL the tree of ancestor (and group pgid) in rounds until nothing of
 * it lives, reaping as it goes, for at most timeout_ms. Returns 0, or
 * -ETIMEDOUT if something still lived (an unkillable D-state process).
 */
int spawn_tree_kill(pid_t ancestor, pid_t pgid, pid_t watch_pid, int *ret_status, bool *ret_reaped,
                    unsigned timeout_ms);

#endif
