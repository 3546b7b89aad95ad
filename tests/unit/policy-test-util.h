/* SPDX-License-Identifier: MIT */
/*
 * Shared by the policy tests: a private temporary directory, an INI file
 * written there that turns the built-in plugins off (or leaves them), and a
 * verdict for one command through the real config, loader, model and chain.
 * Not for: production code.
 */
#ifndef SLUICE_POLICY_TEST_UTIL_H
#define SLUICE_POLICY_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/broker-config.h"
#include "cleanup.h"
#include "model/command-model.h"
#include "policy/policy-chain.h"
#include "scratch.h"
#include "strv.h"
#include "policy/verdict.h"

static char ptu_tmp[256];

/* A suite's .init: a private temporary directory (the built-in plugins
 * come from the build tree's plugins/, SLUICE_PLUGIN_DIR). */
static inline void ptu_setup(void)
{
	scratch_make(ptu_tmp, sizeof(ptu_tmp), "sluice-policy");
}

/* A suite's .fini: the directory goes, whatever the test left in it. */
static inline void ptu_teardown(void)
{
	scratch_remove(ptu_tmp);
}

/* The path of fixture variant's .so (one of 4 static buffers, so that a
 * few can be used in one call). */
static inline const char *ptu_fixture(const char *variant)
{
	static char p[4][600];
	static unsigned next;
	char *b = p[next++ % 4];
	snprintf(b, sizeof(p[0]), "%s/tests/plugins/fx_%s.so", getenv("SLUICE_BUILDDIR"), variant);
	return b;
}

/* Load a config from ini text (as --config, no system or user layer);
 * with only=true every built-in plugin the text does not configure is turned
 * off, in sections after the text (whose line N is test.ini:N). */
static inline struct broker_config *ptu_config(const char *ini, bool only)
{
	char path[600], sys[600], user[600];
	snprintf(path, sizeof(path), "%s/test.ini", ptu_tmp);
	snprintf(sys, sizeof(sys), "%s/etc", ptu_tmp);
	snprintf(user, sizeof(user), "%s/user.ini", ptu_tmp);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(ini, f); /* first, so that its line numbers are its own */
	if (only) {
		size_t n;
		const struct config_builtin *b = config_builtins(&n);
		for (size_t i = 0; i < n; i++) {
			char section[64];
			snprintf(section, sizeof(section), "[plugin %s]", b[i].name);
			if (!strstr(ini, section)) /* the test configures this one */
				fprintf(f, "\n%s\nenabled = no\n", section);
		}
	}
	fclose(f);
	struct config_paths paths = { .sysconfdir = sys, .user_file = user, .cli_file = path };
	struct broker_config *cfg = NULL;
	_cleanup_strv_free_ char **errors = NULL;
	int r = config_load(&paths, &cfg, &errors);
	cr_assert_eq(r, 0, "config: %s", errors && errors[0] ? errors[0] : "?");
	return cfg;
}

/* Decide command with chain into v (policy_chain_decide); returns its
 * result and sets *rewrite (may be NULL). */
static inline int ptu_decide(struct policy_chain *chain, const char *command, struct verdict *v,
                             char **rewrite)
{
	struct command_model_parser *parser = NULL;
	cr_assert_eq(command_model_parser_new(&parser), 0);
	struct command_model *m = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(command_model_parse(parser, command, strlen(command), NULL, &m, &err), 0, "%s",
	             err.detail);
	verdict_init(v);
	char *rw = NULL;
	int r = policy_chain_decide(chain, parser, m, v, &rw);
	command_model_free(m);
	command_model_parser_free(parser);
	if (rewrite)
		*rewrite = rw;
	else
		free(rw);
	return r;
}

/* Whether this process maps file (a plugin's code: loaded here, not only
 * in a child). */
static inline bool ptu_maps_file(const char *file)
{
	FILE *f = fopen("/proc/self/maps", "re");
	cr_assert_not_null(f);
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, file) != NULL;
	fclose(f);
	return found;
}

/* The reason of plugin (borrowed from v), or NULL. */
static inline const struct verdict_reason *ptu_reason(const struct verdict *v, const char *plugin)
{
	for (size_t i = 0; i < v->n_reasons; i++)
		if (strcmp(v->reasons[i].plugin, plugin) == 0)
			return &v->reasons[i];
	return NULL;
}

#endif
