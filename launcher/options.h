/* SPDX-License-Identifier: MIT */
/*
 * argv -> struct launch_spec, through one option table that also prints
 * --help. The spec borrows its strings from argv (valid for the whole run).
 * Not for: checking paths or the kernel; the steps do that.
 */
#ifndef SLUICE_LAUNCHER_OPTIONS_H
#define SLUICE_LAUNCHER_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "egress-allow.h"
#include "errors.h"
#include "profiles.h"
#include "rlimits.h"
#include "user-ids.h"

/* A cap on repeated --rw options, and on --hide and --read-only each. */
#define LAUNCH_MAX_RW 64
#define LAUNCH_MAX_HIDE 256
#define LAUNCH_MAX_COVER 128
#define LAUNCH_MAX_READ_ONLY 64
#define LAUNCH_MAX_PROTECT 64
#define LAUNCH_MAX_EGRESS_ALLOW 64
#define LAUNCH_MAX_OVERLAY 8

enum launch_action {
	LAUNCH_RUN,
	LAUNCH_HELP,
	LAUNCH_VERSION,
	LAUNCH_PRINT_FEATURES,
	LAUNCH_HOLD_NETWORK,   /* --hold-network: become a workspace's holder */
	LAUNCH_TIDY_PROTECTED, /* --tidy-protected: remove the folders made */
};

/* What the caller asked for. Strings are borrowed from argv. */
struct launch_spec {
	enum launch_action action;
	const struct profile *profile;
	const char *workspace; /* NULL: the current directory */
	const char *rw[LAUNCH_MAX_RW];
	unsigned n_rw;
	const char *tmpdir;
	uint64_t tmpdir_size; /* bytes; the private TMPDIR's cap with a namespace */
	/* --tmpdir-fallback: --tmpdir is shared by other runs, private only
	 * under a tmpfs of this run's own; where none covers it, this is made
	 * and is the TMPDIR instead. NULL: --tmpdir is private itself. */
	const char *tmpdir_fallback;
	const char *hide[LAUNCH_MAX_HIDE]; /* made unreadable in the sandboxed profiles */
	unsigned n_hide;
	/* --cover: made unreadable by the mounts (by Landlock only without
	 * them: granting read around a path in /etc costs a rule per entry
	 * of /etc, a millisecond a run) */
	const char *cover[LAUNCH_MAX_COVER];
	unsigned n_cover;
	/* --overlay: writable through an overlay (overlays.h), its layer in
	 * --overlay-state's folder; without that folder, read-only */
	const char *overlay[LAUNCH_MAX_OVERLAY];
	unsigned n_overlay;
	const char *overlay_state;
	const char *read_only[LAUNCH_MAX_READ_ONLY]; /* kept read-only inside writable paths */
	unsigned n_read_only;
	/* relative to the workspace: kept read-only, and not to be made, in
	 * workspace-write (protected-paths.h) */
	const char *protect[LAUNCH_MAX_PROTECT];
	unsigned n_protect;
	bool namespace_off; /* --namespace off: Landlock and seccomp only */
	/* --network-holder: the socket of the holder whose network namespace
	 * the run joins (net-join.h), or NULL: a network namespace of its own */
	const char *network_holder;
	bool network_holder_none; /* --network-holder none: wanted, not had */
	const char *hold_network; /* --hold-network: the holder's socket */
	uint64_t hold_idle_ms;    /* --hold-idle */
	const char *tidy_lock;    /* --tidy-protected: the tidier's lock file */
	const char *protect_lock; /* --protect-lock: the workspace's runs' lock file */
	uint64_t tidy_after_ms;   /* --tidy-after */
	bool network_allow;       /* --network allow */
	/* --egress-allow: the hosts the egress proxy reaches (egress-proxy.h);
	 * none: no proxy */
	struct egress_rule egress_allow[LAUNCH_MAX_EGRESS_ALLOW];
	unsigned n_egress_allow;
	/* --egress-allow-internal: the names of egress_allow that may also
	 * lead to internal addresses (egress_address_judge()), as given until
	 * read_egress_internal() reads them against egress_allow, whatever the
	 * order of the options */
	const char *egress_allow_internal_text[LAUNCH_MAX_EGRESS_ALLOW];
	struct egress_rule egress_allow_internal[LAUNCH_MAX_EGRESS_ALLOW];
	unsigned n_egress_allow_internal;
	bool unix_connect_allow; /* --unix-connect allow */
	bool git_writable;
	bool git_read_only; /* --git-read-only: no gitdir writable (a background job) */
	bool rlimit_set[RLIMIT_INDEX_N];
	uint64_t rlimit_value[RLIMIT_INDEX_N];
	bool keep_stdin;
	bool wait_all; /* the PID namespace's init waits for every process */
	const char *user;
	/* --user-ids: --user's ids as the caller looked them up, so that the
	 * user databases are not read here */
	bool user_ids_set;
	struct user_ids user_ids;
	const char *chdir;
	bool best_effort;
	int report_fd;  /* -1: none */
	int command_fd; /* -1: the command is in argv */
	int end_fd;     /* --end-fd, kept by the monitor alone; -1: none */
	/* --egress-audit-fd: the proxy's audit channel, kept for it through
	 * "close-fds" and closed by step "egress-audit"; -1: none */
	int egress_audit_fd;
	/* --egress-ask-fd: where the proxy asks about a host not on the list
	 * (common/egress-ask.h), kept and closed as egress_audit_fd; -1: none
	 * (refused at once) */
	int egress_ask_fd;
	uint64_t egress_ask_wait_ms; /* --egress-ask-wait */
	/* --egress-ask-internal: an IP literal of an internal address is
	 * asked about too; else refused at once ("internal-address") */
	bool egress_ask_internal;
	pid_t die_with_parent; /* 0: none; else the parent's pid */
	char **argv;           /* PROGRAM ARG...; NULL unless action is LAUNCH_RUN */
};

/* Fill spec from argv (argv[0] is the launcher's name). -EINVAL with a
 * detail naming the option on any error; a missing PROGRAM is an error only
 * for LAUNCH_RUN. */
int options_parse(int argc, char **argv, struct launch_spec *spec, struct sluice_error *err);

/* Print the usage, generated from the option table, to f. */
void options_help(FILE *f);

#endif
