/* SPDX-License-Identifier: MIT */
/*
 * `sluice schema`: the tool definition a model is given: the request's JSON
 * schema, and a description naming the working directory, the limits and,
 * in a sandboxed mode, what the sandbox forbids.
 * Not for: validating requests (request.c is the one door for that).
 */
#include "config.h"

#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "error-kind.h"
#include "log.h"
#include "parse-number.h"
#include "result.h"
#include "run-settings.h"
#include "run-verbs.h"
#include "workdir.h"

static char *description(const struct run_settings *s, const char *root)
{
	char t[32], slow[32], cap[32];
	const char *forbids = result_sandbox_forbids(s->sandbox_mode);
	char *d = NULL;
	int n = asprintf(
	        &d,
	        "Run a shell command with bash -c in %s (the workspace; `directory` is relative to "
	        "it). There is no terminal and standard input is empty: pass answers on the "
	        "command line, never wait for input; editors and pagers are disabled. Timeouts: "
	        "%s by default, %s in slow mode; background mode returns at once with a job to "
	        "follow with `sluice logs JOB`. Output over %llu bytes is cut to its start and end, "
	        "and the whole of it is kept in a file whose path the result gives.%s%s%s%s",
	        root, format_duration_ms(s->timeout_ms, t, sizeof(t)),
	        format_duration_ms(s->slow_timeout_ms, slow, sizeof(slow)),
	        (unsigned long long)s->output_cap, forbids ? " The sandbox (" : "",
	        forbids ? s->sandbox_mode : "", forbids ? ") forbids " : "",
	        forbids ? forbids : "");
	(void)cap;
	return n < 0 ? NULL : d;
}

static json_t *input_schema(const struct run_settings *s)
{
	return json_pack(
	        "{s:s, s:{s:{s:s, s:s}, s:{s:s, s:[s,s,s], s:s}, s:{s:s, s:s}, s:{s:s, s:s}, "
	        "s:{s:s, s:i, s:I, s:s}}, s:[s], s:b}",
	        "type", "object", "properties", "command", "type", "string", "description",
	        "the shell command, run as bash -c COMMAND", "mode", "type", "string", "enum",
	        "default", "slow", "background", "description",
	        "default: normal timeout; slow: long timeout; background: detached job",
	        "directory", "type", "string", "description",
	        "working directory relative to the workspace", "description", "type", "string",
	        "description", "what the command does, for a human approver and the audit log",
	        "timeout_ms", "type", "integer", "minimum", 1, "maximum",
	        (json_int_t)s->max_timeout_ms, "description", "overrides the mode's timeout",
	        "required", "command", "additionalProperties", 0);
}

int cmd_schema(int argc, char **argv)
{
	static const struct option options[] = {
		{ "directory", required_argument, NULL, 'C' },
		{ "sandbox", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct run_settings s;
	run_settings_init_defaults(&s);
	const char *root = ".";
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+hC:", options, NULL)) >= 0) {
		if (c == 'C')
			root = optarg;
		else if (c == 's')
			s.sandbox_mode = optarg;
		else {
			fprintf(c == 'h' ? stdout : stderr,
			        "Usage: sluice schema [-C DIR] [--sandbox MODE]\n");
			return c == 'h' ? 0 : EXIT_SLUICE_ERROR;
		}
	}
	_cleanup_free_ char *abs_root = NULL, *dir = NULL;
	struct sluice_error err = { 0 };
	if (workdir_resolve(root, NULL, &abs_root, &dir, &err) < 0) {
		log_sluice_error(&err, "schema");
		return EXIT_SLUICE_ERROR;
	}
	_cleanup_free_ char *desc = description(&s, abs_root);
	json_t *tool = desc ? json_pack("{s:s, s:s, s:o}", "name", "bash", "description", desc,
	                                "input_schema", input_schema(&s))
	                    : NULL;
	if (!tool) {
		log_error("schema: out of memory");
		return EXIT_SLUICE_ERROR;
	}
	int r = json_dumpf(tool, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(tool);
	return r < 0 ? EXIT_SLUICE_ERROR : 0;
}
