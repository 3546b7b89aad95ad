/* SPDX-License-Identifier: MIT */
/*
 * sluice's verbs as one table. Adding a verb is one row here and one
 * cmd-<verb>.c file.
 */
#include "config.h"

#include <string.h>

#include "cleanup.h"
#include "cli/mcp-verbs.h"
#include "cli/run-verbs.h"
#include "cli/verbs.h"

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

static const struct verb verbs[] = {
	{ "check", cmd_check,
	  "[--explain] [--format text|json] [--batch] [--config FILE] [--] COMMAND",
	  "the policy verdict for a command, without running it" },
	{ "display", cmd_display, "[--] COMMAND", "print the display form of a command" },
	{ "help", cmd_help, "", "print this list" },
	{ "plugins", cmd_plugins, "[--config FILE]",
	  "list the plugins, where each came from, and its settings" },
	{ "version", cmd_version, "", "print the version" },
	{ "run", cmd_run, "[OPTIONS] [--] COMMAND", "run one command" },
	{ "jobs", cmd_jobs, "[--format json]", "list background jobs" },
	{ "logs", cmd_logs, "JOB [--tail N]", "print a background job's output" },
	{ "kill", cmd_kill, "JOB", "end a background job's whole tree" },
	{ "schema", cmd_schema, "[-C DIR] [--sandbox MODE]", "print the tool definition" },
	{ "doctor", cmd_doctor, "", "report what this machine supports" },
	{ "mcp", cmd_mcp, "[-C DIR] [--sandbox MODE]", "serve the bash tool over MCP (stdio)" },
	{ "hook", cmd_hook, "claude-code|gemini [--route]", "answer an agent's pre-tool hook" },
};

const struct verb *verb_find(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		if (strcmp(verbs[i].name, name) == 0)
			return &verbs[i];
	return NULL;
}

void verbs_print_usage(FILE *out)
{
	fprintf(out, "Usage: sluice VERB [OPTIONS] [ARGS]\n\nVerbs:\n");
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		fprintf(out, "  %-9s %-40s %s\n", verbs[i].name, verbs[i].usage, verbs[i].summary);
	fprintf(out, "\nRun 'sluice VERB --help' for a verb's options.\n");
}
