/* SPDX-License-Identifier: MIT */
/*
 * broker/config/config-run.c: the configuration's defaults give exactly run's
 * built-in defaults (the two tables agree), and every key reaches
 * struct run_settings.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "config/config-run.h"

Test(config_run, the_defaults_agree_with_runs_own)
{
	struct broker_config *cfg = NULL;
	cr_assert_eq(config_new_defaults(&cfg), 0);
	struct run_settings want, got;
	struct config_run_text text;
	struct sluice_error err = { 0 };
	run_settings_init_defaults(&want);
	cr_assert_eq(config_to_run_settings(cfg, &got, &text, &err), 0, "%s", err.detail);
	cr_assert_str_eq(got.shell, want.shell);
	cr_assert_eq(got.timeout_ms, want.timeout_ms);
	cr_assert_eq(got.slow_timeout_ms, want.slow_timeout_ms);
	cr_assert_eq(got.max_timeout_ms, want.max_timeout_ms);
	cr_assert_eq(got.background_timeout_ms, want.background_timeout_ms);
	cr_assert_eq(got.kill_grace_ms, want.kill_grace_ms);
	cr_assert_eq(got.output_cap, want.output_cap);
	cr_assert_eq(got.output_head, want.output_head);
	cr_assert_eq(got.output_tail, want.output_tail);
	cr_assert_eq(got.output_file_cap, want.output_file_cap);
	cr_assert_eq(got.max_command_size, want.max_command_size);
	cr_assert_eq(got.drain_window_ms, want.drain_window_ms);
	cr_assert_eq(got.background_survivors, want.background_survivors);
	cr_assert_null(got.jobs_dir);
	cr_assert_eq(got.jobs_max_age_ms, want.jobs_max_age_ms);
	/* the built-in default, unless this kernel cannot build it */
	cr_assert_eq(got.sandbox_mode,
	             got.sandbox_fallback ? SANDBOX_MODE_UNRESTRICTED : want.sandbox_mode);
	cr_assert_eq(got.network, want.network);
	cr_assert_eq(got.n_rlimits, want.n_rlimits);
	for (size_t i = 0; i < want.n_rlimits; i++) {
		cr_assert_str_eq(got.rlimits[i].name, want.rlimits[i].name);
		cr_assert_str_eq(got.rlimits[i].value, want.rlimits[i].value);
	}
	/* every pattern run drops by default is dropped by the configuration too */
	for (size_t i = 0; i < want.n_env_drop; i++) {
		bool found = false;
		for (size_t j = 0; j < got.n_env_drop; j++)
			found |= strcmp(want.env_drop[i], got.env_drop[j]) == 0;
		cr_assert(found, "'%s' is missing from the configuration's [env] drop",
		          want.env_drop[i]);
	}
	config_free(cfg);
}

Test(config_run, every_key_reaches_the_run_settings)
{
	static const char ini[] =
	        "[broker]\ntimeout = 5s\nbackground_survivors = leave\n"
	        "jobs_dir = /var/tmp/jobs\n"
	        "[sandbox]\nmode = restricted\nnetwork = allow\nwritable = /usr /var\n"
	        "rlimit_as = 512MiB\nrlimit_cpu = 1500ms\nrlimit_nofile = 64\nrlimit_fsize =\n"
	        "rlimit_pids = 100\n"
	        "[env]\ndrop =\ndrop = ONLY_*\nset = A=1\nset = B=2 3\n";
	struct broker_config *cfg = NULL;
	char **errors = NULL;
	cr_assert_eq(config_load_text(ini, sizeof(ini) - 1, "t.ini", &cfg, &errors), 0, "%s",
	             errors ? errors[0] : "");
	struct run_settings s;
	struct config_run_text text;
	struct sluice_error err = { 0 };
	cr_assert_eq(config_to_run_settings(cfg, &s, &text, &err), 0, "%s", err.detail);
	cr_assert_str_eq(s.shell, "/bin/bash");
	cr_assert_eq(s.timeout_ms, 5000);
	cr_assert_eq(s.background_survivors, SURVIVORS_LEAVE);
	cr_assert_str_eq(s.jobs_dir, "/var/tmp/jobs");
	cr_assert_eq(s.sandbox_mode, SANDBOX_MODE_RESTRICTED);
	cr_assert(s.network);
	cr_assert_eq(s.n_writable, 2);
	cr_assert_str_eq(s.writable[1], "/var");
	cr_assert_eq(s.n_rlimits, 4, "an empty rlimit_fsize drops its default");
	cr_assert_str_eq(s.rlimits[0].name, "as");
	cr_assert_str_eq(s.rlimits[0].value, "536870912");
	cr_assert_str_eq(s.rlimits[1].name, "cpu");
	cr_assert_str_eq(s.rlimits[1].value, "2s", "a part of a CPU second rounds up");
	cr_assert_str_eq(s.rlimits[2].value, "64");
	cr_assert_str_eq(s.rlimits[3].name, "pids");
	cr_assert_str_eq(s.rlimits[3].value, "100");
	cr_assert_eq(s.n_env_drop, 1);
	cr_assert_str_eq(s.env_drop[0], "ONLY_*");
	cr_assert_eq(s.n_env_set, 2);
	cr_assert_str_eq(s.env_set[1], "B=2 3");
	config_free(cfg);
}

/* The model's size limit follows max_command_size up, never down. */
Test(config_run, the_model_examines_every_command_a_request_may_hold)
{
	static const struct {
		const char *ini;
		size_t want;
	} cases[] = {
		{ "[broker]\n", COMMAND_MODEL_DEFAULT_MAX_COMMAND_BYTES },
		{ "[broker]\nmax_command_size = 100KiB\n", 100 * 1024 },
		{ "[broker]\nmax_command_size = 1KiB\n", COMMAND_MODEL_DEFAULT_MAX_COMMAND_BYTES },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct broker_config *cfg = NULL;
		char **errors = NULL;
		cr_assert_eq(config_load_text(cases[i].ini, strlen(cases[i].ini), "t.ini", &cfg,
		                              &errors),
		             0, "%s", cases[i].ini);
		struct command_model_limits limits;
		config_model_limits(cfg, &limits);
		cr_assert_eq(limits.max_command_bytes, cases[i].want, "%s", cases[i].ini);
		cr_assert_eq(limits.max_words, COMMAND_MODEL_DEFAULT_MAX_WORDS);
		config_free(cfg);
	}
}
