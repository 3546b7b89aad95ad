/* SPDX-License-Identifier: MIT */
/*
 * The built-in defaults of struct run_settings. The configuration layers
 * override them; nothing here reads files or the environment.
 */
#include "config.h"

#include <string.h>

#include "cleanup.h"
#include "config-keys.h"
#include "request.h"
#include "run-settings.h"

/* Variables that usually hold credentials; dropped from the command's
 * environment unless the configuration says otherwise. */
static const char *const default_env_drop[] = {
	"*_API_KEY", "*_APIKEY",       "*_TOKEN",           "*_SECRET*",      "*_PASSWORD",
	"*_PASSWD",  "AWS_SECRET*",    "AWS_SESSION_TOKEN", "ANTHROPIC_*",    "OPENAI_*",
	"GEMINI_*",  "GOOGLE_API_KEY", "*_ACCESS_KEY*",     "*_PRIVATE_KEY*",
};

/* The default [sandbox] hide list, split once from the configuration's
 * own default (config-keys.h), so that it is written down only there. */
static void default_hide(struct run_settings *s)
{
	static char words[] = CONFIG_DEFAULT_SANDBOX_HIDE;
	static const char *list[RUN_SETTINGS_HIDE_MAX];
	static size_t n;
	if (n == 0)
		for (char *save = NULL, *w = strtok_r(words, " ", &save);
		     w && n < RUN_SETTINGS_HIDE_MAX; w = strtok_r(NULL, " ", &save))
			list[n++] = w;
	for (s->n_hide = 0; s->n_hide < n; s->n_hide++)
		s->hide[s->n_hide] = list[s->n_hide];
}

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
		.background_survivors = SURVIVORS_LEAVE,
		.jobs_dir = NULL,
		.jobs_max_age_ms = 24ull * 60 * 60 * 1000,
		.sandbox_mode = "unrestricted",
		.network = false,
		.best_effort = false,
		.git_writable = false,
		.tmpdir_size = 1024 * 1024 * 1024,
		.namespace_off = false,
	};
	default_hide(s);
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
