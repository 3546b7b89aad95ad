/* SPDX-License-Identifier: MIT */
/*
 * What this kernel can enforce, what a profile asks for, and what was
 * enforced: the protection bits every step reports into, the "features"
 * step that refuses a profile the kernel cannot fully enforce (unless
 * --best-effort), --print-features, and the --report-fd lines.
 * Not for: applying any protection (each step's own file does that).
 */
#ifndef SLUICE_LAUNCHER_PROTECTIONS_H
#define SLUICE_LAUNCHER_PROTECTIONS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "egress-proxy.h"
#include "errors.h"

/* One bit per protection; names (LAUNCH_PROT_*) in protections.c's table. */
enum protection {
	PROT_SESSION = 1u << 0,
	PROT_CLOSE_FDS = 1u << 1,
	PROT_NO_NEW_PRIVS = 1u << 2,
	PROT_NO_CAPS = 1u << 3,
	PROT_RLIMIT_NPROC = 1u << 4,
	PROT_LANDLOCK_FS = 1u << 5,
	PROT_LANDLOCK_REFER = 1u << 6,
	PROT_LANDLOCK_TRUNCATE = 1u << 7,
	PROT_LANDLOCK_TCP = 1u << 8,
	PROT_LANDLOCK_IOCTL_DEV = 1u << 9,
	PROT_LANDLOCK_SCOPE_UNIX = 1u << 10,
	PROT_LANDLOCK_SCOPE_SIGNAL = 1u << 11,
	PROT_SECCOMP_SOCKETS = 1u << 12,
	PROT_SECCOMP_UNIX_CONNECT = 1u << 13,
	PROT_SECCOMP_IO_URING = 1u << 14,
	PROT_SECCOMP_OTHER_PROCESSES = 1u << 15,
	PROT_SECCOMP_SETID_MODES = 1u << 16,
	PROT_MOUNT_NAMESPACE = 1u << 17,
	PROT_IPC_NAMESPACE = 1u << 18,
	PROT_TMPDIR_TMPFS = 1u << 19,
	PROT_HIDDEN_PATHS = 1u << 20,
	PROT_READ_ONLY_PATHS = 1u << 21,
	PROT_SECCOMP_KEYRINGS_LEASES = 1u << 22,
	PROT_GIT_INCLUDES = 1u << 23,
	PROT_PROTECTED_PATHS = 1u << 24,
	PROT_MINIMAL_DEV = 1u << 25,
	PROT_PID_NAMESPACE = 1u << 26,
	PROT_NET_NAMESPACE = 1u << 27,
	PROT_PIDS_LIMIT = 1u << 28,
	PROT_REAPER = 1u << 29,
	PROT_PRIVATE_TMP = 1u << 30,
	PROT_WORKSPACE_NETWORK = 1u << 31,
};

/* The namespace layer and what depends on it: asked for by the sandboxed
 * profiles, enforced where the system allows, reported as missing where it
 * does not, and never a reason to refuse a profile. */
#define PROT_OPTIONAL                                                                         \
	(PROT_MOUNT_NAMESPACE | PROT_IPC_NAMESPACE | PROT_TMPDIR_TMPFS | PROT_PRIVATE_TMP |   \
	 PROT_HIDDEN_PATHS | PROT_READ_ONLY_PATHS | PROT_PROTECTED_PATHS | PROT_MINIMAL_DEV | \
	 PROT_PID_NAMESPACE | PROT_NET_NAMESPACE | PROT_PIDS_LIMIT | PROT_REAPER |            \
	 PROT_WORKSPACE_NETWORK)

#define PROT_LANDLOCK_ANY                                                                      \
	(PROT_LANDLOCK_FS | PROT_LANDLOCK_REFER | PROT_LANDLOCK_TRUNCATE | PROT_LANDLOCK_TCP | \
	 PROT_LANDLOCK_IOCTL_DEV | PROT_LANDLOCK_SCOPE_UNIX | PROT_LANDLOCK_SCOPE_SIGNAL)
#define PROT_SECCOMP_ANY                                                            \
	(PROT_SECCOMP_SOCKETS | PROT_SECCOMP_UNIX_CONNECT | PROT_SECCOMP_IO_URING | \
	 PROT_SECCOMP_OTHER_PROCESSES | PROT_SECCOMP_SETID_MODES | PROT_SECCOMP_KEYRINGS_LEASES)

struct namespace_ahead;

/* Room for every step of main.c's table and "namespace-ahead" (checked
 * there). */
#define LAUNCH_STEP_TIMES_MAX 32

/* One step's wall time, for the report's steps_us. */
struct step_time {
	const char *name;
	uint32_t us;
};

struct launch_spec;

/* What the steps share while they run: the plan, and what was applied. */
struct launch_state {
	int landlock_abi;  /* 0: no Landlock */
	uint32_t asked;    /* what the profile and options ask for */
	uint32_t planned;  /* asked & what this kernel and uid can do */
	uint32_t enforced; /* set by each step as it succeeds */
	int namespace;     /* enum namespace_kind: set by step "namespaces" */
	/* Set by step "namespaces" when it joined the workspace's holder: the
	 * connection, open (close-on-exec) for the run's life; else -1. */
	int network_holder_fd;
	/* Set by step "namespaces" with --egress-allow: the egress proxy, its
	 * port on the run's loopback (egress-proxy.h). */
	struct egress_proxy egress_proxy;
	/* What --spec-fd's LAUNCH_SPEC_NAMESPACE_AHEAD entered before the
	 * options were read (struct namespace_ahead), or NULL. */
	const struct namespace_ahead *ahead;
	/* Set by step "mounts": the workspace's repository is protected by
	 * mounts, so Landlock may grant the workspace whole. */
	bool git_mounted;
	/* Set by step "mounts": the repository's directories outside the
	 * workspace it made writable (a linked worktree's gitdir and common
	 * directory, or that one's objects/, refs/ and logs/), which Landlock
	 * must grant too; and why the repository a ".git" file names outside
	 * the workspace was left read-only ("" when it was not). */
	char *git_outside[8];
	unsigned n_git_outside;
	char git_read_only[512];
	/* Set by step "mounts": every --hide path that exists is covered, so
	 * Landlock need not carve around them. */
	bool hidden_mounted;
	/* Set by step "overlays": the --overlay folders overlaid (canonical),
	 * which Landlock must grant write on. */
	char *overlaid[8]; /* LAUNCH_MAX_OVERLAY */
	unsigned n_overlaid;
	/* Set by step "mounts": every --protect path that exists is bound
	 * read-only, so Landlock need not carve around them. */
	bool protected_mounted;
	/* Set by step "mounts": the private /tmp (PRIVATE_TMP) is mounted, and
	 * is the TMPDIR. */
	bool private_tmp;
	/* Set by step "private-tmpdir": the program's TMPDIR (--tmpdir, or
	 * --tmpdir-fallback made there), or NULL. */
	const char *tmpdir;
	/* Set by step "command" (--command-fd): the argv to exec and the
	 * directory to change to; NULL: spec->argv and spec->chdir. */
	char **argv;
	const char *chdir;
	/* Set by step "monitor" in its child: the read end of a pipe only the
	 * monitor holds the other end of (end of file: it is gone), for step
	 * "die-with-parent"; -1: no monitor. */
	int monitor_fd;
	/* Set by step "monitor" in its child when that child is the PID
	 * namespace's init: the program is then forked, and its wait status
	 * written on status_fd (-1: not init) for the monitor. */
	bool init;
	int status_fd;
	/* Set by step "monitor" in its child when the monitor builds the
	 * Landlock read rules meanwhile (landlock_send_read_rules()): where
	 * they come; -1: the step "landlock" builds them. */
	int read_rules_fd;
	/* The signal mask the launcher started with, which the program gets
	 * back (step "monitor" blocks the signals it forwards). */
	sigset_t start_mask;
	bool start_mask_saved;
	/* Each step's wall time so far, in order (main.c records them; a
	 * child of step "monitor" inherits the earlier ones), for the report's
	 * steps_us: what each part of building the sandbox costs. */
	struct step_time step_times[LAUNCH_STEP_TIMES_MAX];
	unsigned n_step_times;
	/* Set by main.c: the steps after the one running, then the exec, in
	 * the calling process; never returns. Step "monitor" calls it in a
	 * child that shares the launcher's memory (monitor.c). */
	void (*resume_steps)(const struct launch_spec *spec, struct launch_state *state);
	size_t step;            /* the step running (main.c's table) */
	uint64_t step_start_us; /* when it began */
};

struct profile;

/* Step "features": probe the kernel, compute what the spec asks for, and
 * refuse (-EOPNOTSUPP, the detail naming each missing protection) when
 * something cannot be enforced, unless spec->best_effort. */
int apply_features(const struct launch_spec *spec, struct launch_state *state,
                   struct sluice_error *err);

/* --print-features: one JSON object on f. Returns 0 or -errno. */
int protections_print(FILE *f);

/* Step "report": when --report-fd N was given, write one JSON line on N:
 * {"profile","landlock_abi","enforced":[...],"missing":[...]}, and leave N
 * open with FD_CLOEXEC so the reader sees EOF once exec succeeds. */
int apply_report(const struct launch_spec *spec, struct launch_state *state,
                 struct sluice_error *err);

/* After a failed step (or a failed execvp(), as step "exec"): a line
 * {"error":STEP,"errno":N,"message":strerror(N),"detail":err->detail} on
 * the report descriptor, if any: what the launcher's stderr says, as data.
 * Errors are ignored: the launcher exits 125 either way. */
void protections_report_error(const struct launch_spec *spec, const char *step,
                              const struct sluice_error *err);

#endif
