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

/*
 * The variables that usually hold credentials, dropped from the command's
 * environment unless the configuration says otherwise: fnmatch(3) patterns
 * on the name, matched ignoring case. The words are looked for anywhere in
 * the name, not only after an underscore (PGPASSWORD, SECRET_KEY, TOKEN),
 * but with care for look-alikes: *_PWD is MYSQL_PWD and never PWD or
 * OLDPWD; *TOKEN and *TOKEN_* leave TOKENIZERS_PARALLELISM alone; *_PAT is
 * GITHUB_PAT and never PATH. X(pattern) for each, written once here: the
 * built-in defaults and the [env] drop key's default both come from it.
 */
/* clang-format off */
#define RUN_SETTINGS_ENV_DROP(X) \
	X("*API_KEY*") \
	X("*APIKEY*") \
	X("*TOKEN") \
	X("*TOKEN_*") \
	X("*SECRET*") \
	X("*PASSWORD*") \
	X("*PASSWD*") \
	X("*PASSPHRASE*") \
	X("*_PWD") \
	X("*_PAT") \
	X("*ACCESS_KEY*") \
	X("*PRIVATE_KEY*") \
	X("*_AUTH") \
	X("ANTHROPIC_*") \
	X("OPENAI_*") \
	X("GEMINI_*")
/* clang-format on */

/*
 * Files and folders that usually hold credentials, made unreadable in the
 * sandboxed modes ("~/" is the home of the user commands run as). X(path)
 * for each, written once here: the built-in defaults and the [sandbox]
 * hide key's default both come from it.
 */
/* clang-format off */
#define RUN_SETTINGS_SANDBOX_HIDE(X) \
	X("~/.ssh") \
	X("~/.gnupg") \
	X("~/.aws") \
	X("~/.azure") \
	X("~/.config/gcloud") \
	X("~/.config/gh") \
	X("~/.kube") \
	X("~/.docker/config.json") \
	X("~/.netrc") \
	X("~/.git-credentials") \
	X("~/.config/git/credentials") \
	X("~/.npmrc") \
	X("~/.pypirc") \
	X("~/.cargo/credentials.toml") \
	X("~/.cargo/credentials") \
	X("~/.gem/credentials") \
	X("~/.terraform.d/credentials.tfrc.json") \
	X("~/.vault-token") \
	X("~/.password-store") \
	X("~/.local/share/keyrings")
/* clang-format on */

enum background_survivors {
	SURVIVORS_LEAVE = 0, /* leave them running */
	SURVIVORS_KILL,      /* kill them with the rest of the tree (the default) */
};

/* The most patterns in [env] drop and entries in [env] set. */
#define RUN_SETTINGS_ENV_MAX 64
/* The most [sandbox] writable paths and rlimit_* keys. */
#define RUN_SETTINGS_PATHS_MAX 32
#define RUN_SETTINGS_RLIMITS_MAX 8

/* The limits a command gets unless the configuration says otherwise: what
 * a build or a test suite does not reach and a runaway command does
 * (docs/configuration.md argues each). A file of 16 GiB; 4096 tasks
 * (processes and threads) at once, in the run's PID namespace. As the
 * launcher reads them, and as [sandbox] rlimit_fsize and rlimit_pids
 * default to. */
#define RUN_SETTINGS_DEFAULT_FSIZE "16GiB"
#define RUN_SETTINGS_DEFAULT_FSIZE_BYTES "17179869184"
#define RUN_SETTINGS_DEFAULT_PIDS "4096"
/* The most [sandbox] hide paths (the launcher's own cap). */
#define RUN_SETTINGS_HIDE_MAX 64

struct run_rlimit {
	const char *name;  /* the launcher's name: as, cpu, nproc, fsize, nofile, core, pids */
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
	enum background_survivors background_survivors; /* kill */
	const char *jobs_dir;     /* NULL: $XDG_RUNTIME_DIR/sluice/jobs or /tmp/sluice-UID/jobs */
	uint64_t jobs_max_age_ms; /* finished jobs' files removed after this: 24h */

	/* [sandbox] */
	const char *sandbox_mode; /* the launcher's profile name: "workspace-write" */
	/* No layer and no request chose the mode: where this kernel has no
	 * Landlock it falls back to unrestricted (runner_settle_default_mode()) */
	bool sandbox_mode_is_default;
	const char *sandbox_fallback;                 /* why it fell back, or NULL */
	const char *writable[RUN_SETTINGS_PATHS_MAX]; /* extra --rw paths */
	size_t n_writable;
	bool network; /* allow network in sandboxed modes: false */
	bool best_effort;
	bool git_writable; /* workspace-write: the workspace's .git is writable too */
	const char *hide[RUN_SETTINGS_HIDE_MAX]; /* unreadable when sandboxed; "~/" unexpanded */
	size_t n_hide;
	uint64_t tmpdir_size; /* the private TMPDIR's cap: 1GiB */
	bool namespace_off;   /* no private mount and IPC namespace: false */
	const char *user;     /* run commands as this user (the broker must be root), or NULL */
	/* sluice's own configuration directories: never writable, never
	 * inside a sandboxed command's workspace */
	const char *config_dirs[RUN_SETTINGS_PATHS_MAX];
	size_t n_config_dirs;
	/* the configuration files read (--config's too), kept read-only should
	 * a sandboxed command's writable paths hold one */
	const char *config_files[RUN_SETTINGS_PATHS_MAX];
	size_t n_config_files;
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
