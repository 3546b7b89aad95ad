/* SPDX-License-Identifier: MIT */
/*
 * struct broker_config -> struct run_settings, key by key.
 * Not for: defaults (each side keeps its own; a test checks they agree).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "config/config-run.h"
#include "landlock-abi.h"
#include "strv.h"

_Static_assert((int)SURVIVORS_LEAVE == (int)CONFIG_SURVIVORS_LEAVE &&
                       (int)SURVIVORS_KILL == (int)CONFIG_SURVIVORS_KILL,
               "the survivors values agree");

/* Where no layer chose the sandbox mode (the built-in default) and this
 * kernel has no Landlock to build it with, the run is unrestricted, and
 * s->sandbox_fallback says why: the policies still apply, and doctor and
 * every result say what is not enforced. A mode that was chosen is left
 * alone (the launcher refuses it: sandbox_unavailable). It stays the
 * default, no one's choice, which a caller's --sandbox may replace. */
static void settle_default_mode(struct run_settings *s)
{
	if (!s->sandbox_mode_is_default || s->sandbox_mode == SANDBOX_MODE_UNRESTRICTED ||
	    landlock_abi_version() > 0)
		return;
	s->sandbox_fallback = "this kernel has no Landlock, so the built-in default mode "
	                      "(workspace-write) cannot be built: commands run unrestricted; the "
	                      "policies still apply";
	s->sandbox_mode = SANDBOX_MODE_UNRESTRICTED;
}

static int copy_list(char **from, const char **to, size_t *n, size_t max, const char *key,
                     struct sluice_error *reterr)
{
	*n = 0;
	STRV_FOREACH (w, from) {
		if (*n >= max)
			return sluice_error_set(reterr, -E2BIG, "%s: more than %zu entries", key,
			                        max);
		to[(*n)++] = *w;
	}
	return 0;
}

/* [broker]: the shell, timeouts, output caps and the jobs. */
static void broker_keys(const struct broker_config *cfg, struct run_settings *s)
{
	s->shell = cfg->broker_shell;
	s->timeout_ms = cfg->broker_timeout;
	s->slow_timeout_ms = cfg->broker_slow_timeout;
	s->max_timeout_ms = cfg->broker_max_timeout;
	s->background_timeout_ms = cfg->broker_background_timeout;
	s->kill_grace_ms = cfg->broker_kill_grace;
	s->output_cap = cfg->broker_output_cap;
	s->output_head = cfg->broker_output_head;
	s->output_tail = cfg->broker_output_tail;
	s->output_file_cap = cfg->broker_output_file_cap;
	s->max_command_size = cfg->broker_max_command_size;
	s->drain_window_ms = cfg->broker_drain_window;
	s->background_survivors = (enum background_survivors)cfg->broker_background_survivors;
	s->jobs_dir = cfg->broker_jobs_dir && *cfg->broker_jobs_dir ? cfg->broker_jobs_dir : NULL;
	s->jobs_max_age_ms = cfg->broker_jobs_max_age;
}

/* [sandbox] and [network]: the mode and what it may reach, the paths (and
 * sluice's own configuration) it is told of, and the audit log it hides. */
static int sandbox_keys(const struct broker_config *cfg, struct run_settings *s,
                        struct sluice_error *reterr)
{
	s->sandbox_mode = (enum sandbox_mode)cfg->sandbox_mode;
	s->sandbox_mode_is_default = !cfg->sandbox_mode_configured;
	settle_default_mode(s);
	if (cfg->sandbox_network != CONFIG_NETWORK_DEFAULT)
		s->network = cfg->sandbox_network == CONFIG_NETWORK_ALLOW;
	s->best_effort = cfg->sandbox_best_effort;
	s->git_writable = cfg->sandbox_git_writable;
	s->git_sweep = cfg->sandbox_git_sweep;
	s->user = cfg->sandbox_user && cfg->sandbox_user[0] ? cfg->sandbox_user : NULL;
	int r = copy_list(cfg->sandbox_writable, s->writable, &s->n_writable,
	                  RUN_SETTINGS_PATHS_MAX, "[sandbox] writable", reterr);
	if (r >= 0)
		r = copy_list(cfg->sandbox_hide, s->hide, &s->n_hide, RUN_SETTINGS_HIDE_MAX,
		              "[sandbox] hide", reterr);
	if (r >= 0)
		r = copy_list(cfg->sandbox_protect, s->protect, &s->n_protect,
		              RUN_SETTINGS_PROTECT_MAX, "[sandbox] protect", reterr);
	if (r >= 0)
		r = copy_list(cfg->network_allow, s->egress_allow, &s->n_egress_allow,
		              RUN_SETTINGS_EGRESS_MAX, "[network] allow", reterr);
	if (r >= 0)
		r = copy_list(cfg->network_allow_internal, s->egress_allow_internal,
		              &s->n_egress_allow_internal, RUN_SETTINGS_EGRESS_MAX,
		              "[network] allow_internal", reterr);
	if (r >= 0)
		r = copy_list(cfg->config_dirs, s->config_dirs, &s->n_config_dirs,
		              RUN_SETTINGS_PATHS_MAX, "the configuration directories", reterr);
	if (r >= 0)
		r = copy_list(cfg->files, s->config_files, &s->n_config_files,
		              RUN_SETTINGS_PATHS_MAX, "the configuration files", reterr);
	if (r < 0)
		return r;
	s->tmpdir_size = cfg->sandbox_tmpdir_size;
	s->tool_caches = cfg->sandbox_tool_caches;
	s->tool_caches_size = cfg->sandbox_tool_caches_size;
	s->workspace_network_idle = cfg->sandbox_workspace_network_idle;
	s->protect_folders_idle = cfg->sandbox_protect_folders_idle;
	/* the ask happens only where an approver exists */
	s->egress_ask = cfg->network_ask && cfg->approval_method != CONFIG_APPROVAL_DENY;
	s->egress_ask_wait_ms = cfg->approval_timeout;
	s->egress_ask_internal = cfg->network_ask_internal;
	s->namespace_off = cfg->sandbox_namespace == CONFIG_NAMESPACE_OFF;
	s->audit_file = cfg->audit_file && *cfg->audit_file ? cfg->audit_file : NULL;
	return 0;
}

/* [sandbox] rlimit_*: those set, as the launcher reads them (their text in
 * text, which the settings borrow). */
static void rlimit_keys(const struct broker_config *cfg, struct run_settings *s,
                        struct config_run_text *text)
{
	const struct {
		const char *name;
		uint64_t value;
		const char *unit;
		uint64_t divisor;
	} limits[] = {
		{ "as", cfg->sandbox_rlimit_as, "", 1 },
		{ "cpu", cfg->sandbox_rlimit_cpu, "s", 1000 },
		{ "nproc", cfg->sandbox_rlimit_nproc, "", 1 },
		{ "fsize", cfg->sandbox_rlimit_fsize, "", 1 },
		{ "nofile", cfg->sandbox_rlimit_nofile, "", 1 },
		{ "pids", cfg->sandbox_rlimit_pids, "", 1 },
	};
	s->n_rlimits = 0;
	for (size_t i = 0; i < ELEMENTSOF(limits); i++) {
		if (limits[i].value == CONFIG_UNSET)
			continue;
		/* RLIMIT_CPU counts whole seconds: round a part up, never down */
		uint64_t v = (limits[i].value + limits[i].divisor - 1) / limits[i].divisor;
		snprintf(text->rlimit[s->n_rlimits], sizeof(text->rlimit[0]), "%llu%s",
		         (unsigned long long)v, limits[i].unit);
		s->rlimits[s->n_rlimits].name = limits[i].name;
		s->rlimits[s->n_rlimits].value = text->rlimit[s->n_rlimits];
		s->n_rlimits++;
	}
}

int config_to_run_settings(const struct broker_config *cfg, struct run_settings *s,
                           struct config_run_text *text, struct sluice_error *reterr)
{
	run_settings_init_defaults(s);
	broker_keys(cfg, s);
	int r = sandbox_keys(cfg, s, reterr);
	if (r < 0)
		return r;
	rlimit_keys(cfg, s, text);
	r = copy_list(cfg->env_drop, s->env_drop, &s->n_env_drop, RUN_SETTINGS_ENV_MAX,
	              "[env] drop", reterr);
	if (r < 0)
		return r;
	return copy_list(cfg->env_set, s->env_set, &s->n_env_set, RUN_SETTINGS_ENV_MAX, "[env] set",
	                 reterr);
}

void config_model_limits(const struct broker_config *cfg, struct command_model_limits *limits)
{
	command_model_limits_default(limits);
	if (cfg->broker_max_command_size > limits->max_command_bytes)
		limits->max_command_bytes = cfg->broker_max_command_size;
}

int config_parser_new(const struct broker_config *cfg, struct command_model_parser **ret)
{
	struct command_model_parser *parser;
	int r = command_model_parser_new(&parser);
	if (r < 0)
		return r;
	struct command_model_limits limits;
	config_model_limits(cfg, &limits);
	command_model_parser_set_limits(parser, &limits);
	*ret = parser;
	return 0;
}
