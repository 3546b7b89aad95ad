/* SPDX-License-Identifier: MIT */
/*
 * sluice's verbs as one table. Adding a verb is one row here and one
 * cmd-<verb>.c file, which holds the verb's function and its command line
 * (struct verb_spec).
 */
#include "config.h"

#include <string.h>

#include "cleanup.h"
#include "cli/mcp-verbs.h"
#include "cli/run-verbs.h"
#include "cli/verbs.h"

static int cmd_version(int argc, char **argv);
static int cmd_help(int argc, char **argv);

static const struct verb_spec version_spec = { .name = "version",
	                                       .summary = "print the version",
	                                       .args = "" };
static const struct verb_spec help_spec = { .name = "help",
	                                    .summary = "print this list",
	                                    .args = "" };

static const struct verb verbs[] = {
	{ cmd_check, &check_spec },     { cmd_display, &display_spec }, { cmd_help, &help_spec },
	{ cmd_plugins, &plugins_spec }, { cmd_version, &version_spec }, { cmd_run, &run_spec },
	{ cmd_jobs, &jobs_spec },       { cmd_logs, &logs_spec },       { cmd_kill, &kill_spec },
	{ cmd_schema, &schema_spec },   { cmd_doctor, &doctor_spec },   { cmd_mcp, &mcp_spec },
	{ cmd_hook, &hook_spec },
};

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("%s\n", PACKAGE_STRING);
	return 0;
}

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	verbs_print_usage(stdout);
	return 0;
}

const struct verb *verb_find(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		if (strcmp(verbs[i].spec->name, name) == 0)
			return &verbs[i];
	return NULL;
}

void verbs_print_usage(FILE *out)
{
	char brief[ELEMENTSOF(verbs)][96];
	int width = 0;
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++) {
		verb_options_brief(verbs[i].spec, brief[i], sizeof(brief[i]));
		if ((int)strlen(brief[i]) > width)
			width = (int)strlen(brief[i]);
	}
	fprintf(out, "Usage: sluice VERB [OPTIONS] [ARGS]\n\nVerbs:\n");
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		fprintf(out, "  %-9s %-*s %s\n", verbs[i].spec->name, width, brief[i],
		        verbs[i].spec->summary);
	fprintf(out, "\nRun 'sluice VERB --help' for a verb's options.\n");
}
