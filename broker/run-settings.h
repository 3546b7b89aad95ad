/* SPDX-License-Identifier: MIT */
/*
 * The settings `sluice run` and the job verbs work from: the [broker],
 * [sandbox] and [env] keys of the configuration, with the built-in defaults.
 * Filled once (defaults, then the configuration) and passed down explicitly.
 * Not for: reading INI files (the configuration module fills this struct).
 */
#ifndef SLUICE_RUN_SETTINGS_H
#define SLUICE_RUN_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum background_survivors {
	SURVIVORS_LEAVE = 0, /* leave them running (the default) */
	SURVIVORS_KILL,      /* kill them with the rest of the tree */
};

/* The most patterns in [env] drop and entries in [env] set. */
#define RUN_SETTINGS_ENV_MAX 64
/* The most [sandbox] writable paths and rlimit_* keys. */
#define RUN_SETTINGS_PATHS_MAX 32
#define RUN_SETTINGS_RLIMITS_MAX 8
/* The most [sandbox] hide paths (the launcher's own cap). */
#define RUN_SETTINGS_HIDE_MAX 64

struct run_rlimit {
	const char *name;  /* the launcher's name: as, cpu, nproc, fsize, nofile, core */
	const char *value; /* as the launcher reads it: "512MiB", "30s", "64" */
};

/*
 * Every string is borrowed: from static defaults or from the configuration,
 * which outlives the run. Sizes are bytes, durations milliseconds.
 */
struct run_settings {
	/* [broker] */
	const char *shell;              /* "/bin/bash" */
	uint64_t timeout_ms;            /* default mode: 30s */
	uint64_t slow_timeout_ms;       /* slow mode: 15m */
	uint64_t max_timeout_ms;        /* the most timeout_ms / --timeout may ask: 15m */
	uint64_t background_timeout_ms; /* 0: background jobs have no timeout */
	uint64_t kill_grace_ms;         /* SIGTERM .. SIGKILL: 2s */
	uint64_t output_cap;            /* combined output kept whole up to this: 128KiB */
	uint64_t output_head;           /* kept from the start when cut: 4KiB */
	uint64_t output_tail;           /* kept from the end when cut: 4KiB */
	uint64_t output_file_cap;       /* the full-output file stops here: 64MiB */
	uint64_t max_command_size;      /* 64KiB */
	uint64_t drain_window_ms;       /* reading on after the shell exits: 250ms */
	enum background_survivors background_survivors; /* leave */
	const char *jobs_dir;     /* NULL: $XDG_RUNTIME_DIR/sluice/jobs or /tmp/sluice-UID/jobs */
	uint64_t jobs_max_age_ms; /* finished jobs' files removed after this: 24h */

	/* [sandbox] */
	const char *sandbox_mode; /* the launcher's profile name: "unrestricted" */
	const char *writable[RUN_SETTINGS_PATHS_MAX]; /* extra --rw paths */
	size_t n_writable;
	bool network; /* allow network in sandboxed modes: false */
	bool best_effort;
	bool git_writable; /* workspace-write: the workspace's .git is writable too */
	const char *hide[RUN_SETTINGS_HIDE_MAX]; /* unreadable when sandboxed; "~/" unexpanded */
	size_t n_hide;
	uint64_t tmpdir_size; /* the private TMPDIR's cap: 1GiB */
	bool namespace_off;   /* no private mount and IPC namespace: false */
	/* sluice's own configuration files, kept read-only in writable paths */
	const char *read_only[RUN_SETTINGS_PATHS_MAX];
	size_t n_read_only;
	const char *user; /* run commands as this user (the broker must be root), or NULL */
	struct run_rlimit rlimits[RUN_SETTINGS_RLIMITS_MAX];
	size_t n_rlimits;

	/* [env] */
	const char *env_drop[RUN_SETTINGS_ENV_MAX]; /* fnmatch(3) patterns on the name */
	size_t n_env_drop;
	const char *env_set[RUN_SETTINGS_ENV_MAX]; /* "NAME=VALUE", applied last */
	size_t n_env_set;
};

/* The built-in defaults, including the default secret patterns of [env]. */
void run_settings_init_defaults(struct run_settings *s);

/* The timeout of a mode before any request override (0: none). */
uint64_t run_settings_mode_timeout(const struct run_settings *s, int run_mode);

#endif
