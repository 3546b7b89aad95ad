/* SPDX-License-Identifier: MIT */
/*
 * The built-in defaults of struct run_settings, which the configuration
 * layers override, and a caller's choice of sandbox mode over them; nothing
 * here reads files or the environment.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "cleanup.h"
#include "core/request.h"
#include "core/run-settings.h"

#define ENV_DROP_ITEM(pattern) pattern,
static const char *const default_env_drop[] = { RUN_SETTINGS_ENV_DROP(ENV_DROP_ITEM) };

#define PATH_ITEM(path, why) path,
static const char *const default_hide[] = { RUN_SETTINGS_SANDBOX_HIDE(PATH_ITEM) };
static const char *const default_protect[] = { RUN_SETTINGS_SANDBOX_PROTECT(PATH_ITEM) };
/* the defaults leave room for what the user and the administrator add */
_Static_assert(ELEMENTSOF(default_hide) + 32 <= RUN_SETTINGS_HIDE_MAX, "room for [sandbox] hide");
_Static_assert(ELEMENTSOF(default_protect) + 16 <= RUN_SETTINGS_PROTECT_MAX,
               "room for [sandbox] protect");

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
		.sandbox_mode = SANDBOX_MODE_DEFAULT,
		.sandbox_mode_is_default = true,
		.network = false,
		.best_effort = false,
		.git_writable = false,
		.git_sweep = true,
		.tmpdir_size = 1024 * 1024 * 1024,
		.tool_caches = true,
		.tool_caches_size = 2ull * 1024 * 1024 * 1024,
		.workspace_network_idle = 60 * 1000,
		.protect_folders_idle = 60 * 1000,
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

int run_settings_choose_sandbox(struct run_settings *s, enum sandbox_mode mode,
                                struct sluice_error *reterr)
{
	/* A configured mode is the administrator's floor: a caller may only
	 * ask for more protection, never less. The built-in default is no one's
	 * choice, so the caller of sluice (never the model: a request has no
	 * say in the mode) may change it either way. */
	if (!s->sandbox_mode_is_default && mode < s->sandbox_mode)
		return sluice_error_set(reterr, -EPERM,
		                        "the sandbox mode '%s' is looser than the configured '%s'; "
		                        "a request may only make it stricter",
		                        sandbox_mode_name(mode),
		                        sandbox_mode_name(s->sandbox_mode));
	s->sandbox_mode = mode;
	s->sandbox_mode_is_default = false;
	s->sandbox_fallback = NULL;
	return 0;
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
