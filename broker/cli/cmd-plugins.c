/* SPDX-License-Identifier: MIT */
/*
 * `sluice plugins`: the configuration files read, then every plugin --
 * enabled or not, where it came from (built-in default or FILE:LINE), the
 * .so it loads from, what it says it does, and its settings with their
 * FILE:LINE. An enabled plugin that cannot be loaded, or cannot start with
 * its settings, is shown with the error and makes the exit status 125.
 * Not for: running plugins (sluice check does that).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/broker-config.h"
#include "cleanup.h"
#include "core/error-kind.h"
#include "log.h"
#include "policy/plugin-loader.h"
#include "policy/policy-chain.h"
#include "cli/verb-options.h"
#include "cli/verbs.h"

enum { OPT_CONFIG };

static const struct verb_option plugins_options[] = {
	[OPT_CONFIG] = VERB_OPTION_CONFIG,
};

const struct verb_spec plugins_spec = {
	.name = "plugins",
	.summary = "list the plugins, where each came from, and its settings",
	.args = "",
	.description =
	        "Lists the configuration files read and every plugin: enabled or not, where it\n"
	        "came from, the file it loads and its settings. Exit status: 0, or 125 when the\n"
	        "configuration is wrong or an enabled plugin cannot be loaded.",
	.options = plugins_options,
	.n_options = ELEMENTSOF(plugins_options),
};

/* One plugin; returns false when it is enabled and cannot be loaded. */
static bool print_plugin(const struct config_plugin *p, const char *dir)
{
	printf("\n[plugin %s] %s\n", p->name, p->enabled ? "enabled" : "disabled");
	if (p->file)
		printf("  configured at: %s:%u%s\n", p->file, p->line,
		       p->locked ? " (locked by the system configuration)" : "");
	else
		printf("  configured at: built-in default\n");
	bool ok = true;
	struct loaded_plugin lp = { 0 };
	struct sluice_error err = { 0 };
	if (plugin_load(p, dir, &lp, &err) < 0) {
		if (p->path)
			printf("  file:          %s\n", p->path);
		else if (plugin_is_builtin(p->name))
			printf("  file:          built into sluice\n");
		else
			printf("  file:          %s.so in the plugin directory\n", p->name);
		printf("  error:         %s\n", err.detail);
		ok = !p->enabled;
	} else {
		printf("  file:          %s\n", plugin_origin(&lp));
		printf("  ABI:           %u.%u\n", SLUICE_ABI_MAJOR_OF(lp.desc.abi_version),
		       SLUICE_ABI_MINOR_OF(lp.desc.abi_version));
		if (lp.desc.description)
			printf("  does:          %s\n", lp.desc.description);
		plugin_unload(&lp);
	}
	for (size_t i = 0; i < p->n_settings; i++)
		printf("  %s = %s    (%s:%u)\n", p->settings[i].key, p->settings[i].value,
		       p->settings[i].file, p->settings[i].line);
	return ok;
}

int cmd_plugins(int argc, char **argv)
{
	struct sluice_error err = { 0 };
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse_or_help(&plugins_spec, argc, argv, &args);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	int status = EXIT_SLUICE_ERROR;
	_cleanup_(config_freep) struct broker_config *cfg = NULL;
	_cleanup_free_ char *dir = NULL;
	if (args.n_positionals > 0) {
		log_error("plugins: unexpected argument '%s'", args.positionals[0]);
	} else if (config_load_or_log(args.values[OPT_CONFIG], &cfg) >= 0 &&
	           (dir = plugin_loader_dir())) {
		printf("configuration files:%s\n", cfg->files ? "" : " none (built-in defaults)");
		for (char **f = cfg->files; f && *f; f++)
			printf("  %s\n", *f);
		for (char **w = cfg->warnings; w && *w; w++)
			printf("  warning: %s\n", *w);
		printf("plugin directory: %s\n", dir);
		status = 0;
		for (size_t i = 0; i < cfg->n_plugins; i++)
			if (!print_plugin(&cfg->plugins[i], dir))
				status = EXIT_SLUICE_ERROR;
		/* every plugin loads: can each start with its settings? */
		struct policy_chain *chain = NULL;
		if (status == 0 && policy_chain_new(cfg, &chain, &err) < 0) {
			printf("\nerror: %s\n", err.detail);
			status = EXIT_SLUICE_ERROR;
		}
		policy_chain_free(chain);
	}
	return status;
}
