/* SPDX-License-Identifier: MIT */
/*
 * The built-in defaults of struct run_settings. The configuration layers
 * override them; nothing here reads files or the environment.
 */
#include "config.h"

#include <string.h>

#include "cleanup.h"
#include "core/request.h"
#include "core/run-settings.h"

#define ENV_DROP_ITEM(pattern) pattern,
static const char *const default_env_drop[] = { RUN_SETTINGS_ENV_DROP(ENV_DROP_ITEM) };

#define PATH_ITEM(path, why) path,
static const char *const default_hide[] = { RUN_SETTINGS_SANDBOX_HIDE(PATH_ITEM) };
static const char *const default_protect[] = { RUN_SETTINGS_SANDBOX_PROTECT(PATH_ITEM) };

void run_settings_init_defaults(struct run_settings *s)
{
	*s = (struct run_settings){
		.shell = "/bin/bash",
		.timeout_ms = 30 * 1000,
		.slow_timeout_ms = 15 * 60 * 1000,
		.max_timeout_ms = 15 * 60 * 1000,
		.background_timeout_ms = 0,
		.kill_grace_ms = 2 * 1000,
		.output_cap = 128 * 1024,
		.output_head = 4 * 1024,
		.output_tail = 4 * 1024,
		.output_file_cap = 64 * 1024 * 1024,
		.max_command_size = 64 * 1024,
		.drain_window_ms = 250,
		.background_survivors = SURVIVORS_KILL,
		.jobs_dir = NULL,
		.jobs_max_age_ms = 24ull * 60 * 60 * 1000,
		.sandbox_mode = "workspace-write",
		.sandbox_mode_is_default = true,
		.network = false,
		.best_effort = false,
		.git_writable = false,
		.git_sweep = true,
		.tmpdir_size = 1024 * 1024 * 1024,
		.workspace_network_idle = 60 * 1000,
		.namespace_off = false,
		.rlimits = { { "fsize", RUN_SETTINGS_DEFAULT_FSIZE_BYTES },
		             { "pids", RUN_SETTINGS_DEFAULT_PIDS } },
		.n_rlimits = 2,
	};
	for (size_t i = 0; i < ELEMENTSOF(default_hide) && s->n_hide < RUN_SETTINGS_HIDE_MAX; i++)
		s->hide[s->n_hide++] = default_hide[i];
	for (size_t i = 0; i < ELEMENTSOF(default_protect); i++)
		s->protect[s->n_protect++] = default_protect[i];
	for (size_t i = 0; i < ELEMENTSOF(default_env_drop); i++)
		s->env_drop[s->n_env_drop++] = default_env_drop[i];
}

uint64_t run_settings_mode_timeout(const struct run_settings *s, int run_mode)
{
	switch (run_mode) {
	case RUN_MODE_SLOW:
		return s->slow_timeout_ms;
	case RUN_MODE_BACKGROUND:
		return s->background_timeout_ms;
	default:
		return s->timeout_ms;
	}
}
