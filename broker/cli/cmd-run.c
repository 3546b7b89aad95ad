/* SPDX-License-Identifier: MIT */
/*
 * `sluice run`: options and the request (from the command line or stdin),
 * then runner_execute(), then the result in text or JSON.
 * Not for: the pipeline itself (runner.c) or its mechanics.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "core/error-kind.h"
#include "fd-util.h"
#include "log.h"
#include "parse-number.h"
#include "core/request.h"
#include "run/result.h"
#include "core/run-settings.h"
#include "cli/run-verbs.h"
#include "cli/verb-options.h"
#include "policy/broker-context.h"
#include "run/runner.h"
#include "util/terminal-text.h"

enum run_format {
	FORMAT_TEXT = 0,
	FORMAT_JSON,
};

struct run_options {
	const char *root; /* -C; NULL: the current directory */
	bool has_mode;
	enum run_mode mode;  /* --mode, when has_mode */
	const char *timeout; /* --timeout */
	bool has_sandbox;
	enum sandbox_mode sandbox; /* --sandbox, when has_sandbox */
	const char *config;        /* --config */
	enum run_format format;
	bool json;           /* --json: the request on stdin */
	const char *request; /* --request: the request, inline */
	char *command;       /* owned: the words after the options, joined */
};

enum {
	OPT_DIRECTORY,
	OPT_MODE,
	OPT_TIMEOUT,
	OPT_SANDBOX,
	OPT_FORMAT,
	OPT_CONFIG,
	OPT_JSON,
	OPT_REQUEST
};
static const struct verb_option run_options[] = {
	[OPT_DIRECTORY] = VERB_OPTION_DIRECTORY,
	[OPT_MODE] = { "mode", 0, "default|slow|background",
	               "the command's timeout class; background returns at once (sluice jobs)" },
	[OPT_TIMEOUT] = { "timeout", 0, "DURATION",
	                  "the command's timeout, at most [broker] max_timeout" },
	[OPT_SANDBOX] = VERB_OPTION_SANDBOX,
	[OPT_FORMAT] = VERB_OPTION_FORMAT,
	[OPT_CONFIG] = VERB_OPTION_CONFIG,
	[OPT_JSON] = { "json", 0, NULL, "read the request, as JSON, from standard input" },
	[OPT_REQUEST] = { "request", 0, "JSON",
	                  "the request, as JSON, in one argument (what `sluice hook --route` "
	                  "writes)" },
};

const struct verb_spec run_spec = {
	.name = "run",
	.summary = "run one command",
	.args = "[--] COMMAND",
	.more_usage = "--json [--format text|json] [...] < request.json",
	.options = run_options,
	.n_options = ELEMENTSOF(run_options),
	/* the command's own options follow it; getopt's abbreviations stay */
	.flags = VERB_OPTIONS_FIRST | VERB_OPTIONS_ABBREVIATE,
};

static int join_words(const char **words, size_t n, char **ret)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return -ENOMEM;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			strcat(s, " ");
		strcat(s, words[i]);
	}
	*ret = s;
	return 0;
}

/* Options through run_spec; returns 0, 1 for --help, or
 * run_outcome_fail()'s -1 with the message in st. */
static int parse_options(int argc, char **argv, struct run_options *o, struct run_outcome *st)
{
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	struct sluice_error err = { 0 };
	if (verb_options_parse(&run_spec, argc, argv, &args, &err) < 0)
		return run_outcome_fail(st, ERROR_KIND_INVALID_REQUEST, "%s", err.detail);
	if (args.help)
		return 1;
	o->root = args.values[OPT_DIRECTORY];
	const char *mode = args.values[OPT_MODE];
	o->has_mode = mode != NULL;
	if (mode && run_mode_from_name(mode, &o->mode) < 0)
		return run_outcome_fail(
		        st, ERROR_KIND_INVALID_REQUEST,
		        "option '--mode' must be one of default, slow, background, not '%s'", mode);
	o->timeout = args.values[OPT_TIMEOUT];
	const char *sandbox = args.values[OPT_SANDBOX];
	o->has_sandbox = sandbox != NULL;
	if (sandbox && sandbox_mode_from_name(sandbox, &o->sandbox, &err) < 0)
		return run_outcome_fail(st, ERROR_KIND_INVALID_REQUEST, "option '--sandbox': %s",
		                        err.detail);
	o->config = args.values[OPT_CONFIG];
	o->json = args.values[OPT_JSON] != NULL;
	o->request = args.values[OPT_REQUEST];
	const char *format = args.values[OPT_FORMAT];
	if (format && strcmp(format, "json") == 0)
		o->format = FORMAT_JSON;
	else if (format && strcmp(format, "text") != 0)
		return run_outcome_fail(st, ERROR_KIND_INVALID_REQUEST,
		                        "option '--format' must be text or json, not '%s'", format);
	if (args.n_positionals > 0 &&
	    join_words(args.positionals, args.n_positionals, &o->command) < 0)
		return run_outcome_fail(st, ERROR_KIND_COMMAND_FAILED, "out of memory");
	return 0;
}

static int read_stdin_request(struct run_outcome *st, struct run_request *req,
                              struct sluice_error *err)
{
	size_t cap = REQUEST_DOCUMENT_MAX + 1;
	_cleanup_free_ char *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	ssize_t n = read_full(STDIN_FILENO, buf, cap);
	if (n < 0)
		return sluice_error_set(err, (int)n, "reading the request from standard input");
	return request_parse(buf, (size_t)n, st->settings.max_command_size, req, err);
}

/* The request from stdin or the command line, with the flags applied. */
static int build_request(const struct run_options *o, struct run_outcome *st,
                         struct run_request *req)
{
	struct sluice_error err = { 0 };
	int r;
	if (o->json || o->request) {
		if (o->command || (o->json && o->request))
			return run_outcome_fail(
			        st, ERROR_KIND_INVALID_REQUEST,
			        "with %s the request comes from %s, not the command "
			        "line%s",
			        o->request ? "--request" : "--json",
			        o->request ? "its argument" : "standard input",
			        o->json && o->request ? " or standard input" : "");
		r = o->request ? request_parse(o->request, strlen(o->request),
		                               st->settings.max_command_size, req, &err)
		               : read_stdin_request(st, req, &err);
	} else {
		if (!o->command)
			return run_outcome_fail(st, ERROR_KIND_INVALID_REQUEST,
			                        "field 'command' is missing");
		r = request_from_command(o->command, st->settings.max_command_size, req, &err);
	}
	if (r < 0)
		return run_outcome_fail(st, ERROR_KIND_INVALID_REQUEST, "%s", err.detail);
	if (o->has_mode)
		req->mode = o->mode;
	if (o->timeout) {
		r = parse_duration_ms(o->timeout, UINT64_MAX / 2, &req->timeout_ms);
		if (r < 0 || req->timeout_ms == 0)
			return run_outcome_fail(
			        st, ERROR_KIND_INVALID_REQUEST,
			        "option '--timeout' must be a duration such as 500ms, 30s or 15m, not '%s'",
			        o->timeout);
		req->has_timeout = true;
	}
	return 0;
}

static int print_result(const struct run_result *result, enum run_format format)
{
	if (format == FORMAT_JSON) {
		json_t *obj = result_to_json(result, 0);
		if (!obj)
			return -ENOMEM;
		int r = json_dumpf(obj, stdout, JSON_COMPACT);
		json_decref(obj);
		if (r < 0)
			return -EIO;
		fputc('\n', stdout);
		return fflush(stdout) == 0 ? 0 : neg_errno();
	}
	if (!isatty(STDOUT_FILENO))
		return result_write_text(result, stdout);
	/* the command's output on the user's terminal: made inert, so that
	 * its escape sequences cannot set the clipboard (OSC 52), the title,
	 * or rewrite what was shown */
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	int r = result_write_text(result, f);
	if (fclose(f) != 0 && r >= 0)
		r = -ENOMEM;
	if (r < 0)
		return r;
	terminal_safe_write_lines(stdout, text, len);
	return fflush(stdout) == 0 ? 0 : neg_errno();
}

static int run_steps(const struct run_options *o, struct broker_context **context,
                     struct run_outcome *st)
{
	_cleanup_(run_request_done) struct run_request req = { 0 };
	struct sluice_error err = { 0 };
	if (broker_context_open(o->config, &st->settings, context, &err) < 0)
		return run_outcome_fail(st, ERROR_KIND_CONFIG_ERROR, "%s", err.detail);
	/* a broker that dies or hangs in a plugin never sends the command */
	broker_context_allow_policy_in_process(*context);
	if (o->has_sandbox && run_settings_choose_sandbox(&st->settings, o->sandbox, &err) < 0)
		return run_outcome_fail(st, ERROR_KIND_INVALID_REQUEST, "option '--sandbox': %s",
		                        err.detail);
	/* The mode is final now (a request has no say in it): the launcher
	 * may enter its namespaces while the request is read and checked. */
	(void)runner_begin(NULL, st, RUNNER_BEGIN_MODE_FINAL);
	if (build_request(o, st, &req) < 0)
		return -1;
	struct runner_options ro = RUNNER_OPTIONS_INIT;
	ro.context = *context;
	ro.workspace_root = o->root;
	ro.timeout_source = o->timeout ? "option '--timeout'" : NULL;
	return runner_execute(&req, &ro, st);
}

int cmd_run(int argc, char **argv)
{
	struct run_options o = { 0 };
	struct run_settings settings;
	run_settings_init_defaults(&settings);
	/* Declared first, released last: the settings borrow from it. */
	_cleanup_(broker_context_freep) struct broker_context *context = NULL;
	_cleanup_(run_outcome_done) struct run_outcome st;
	run_outcome_init(&st, &settings);

	int r = parse_options(argc, argv, &o, &st);
	if (r == 1) {
		verb_options_help(stdout, &run_spec, NULL);
		return 0;
	}
	/* exec'd while the configuration is read; a background job starts its own */
	if (r == 0 && !(o.has_mode && o.mode == RUN_MODE_BACKGROUND))
		(void)runner_begin(NULL, &st, RUNNER_BEGIN_UNCONFIGURED);
	if (r == 0)
		(void)run_steps(&o, &context, &st);
	free(o.command);
	r = print_result(&st.result, o.format);
	if (r < 0)
		log_error("writing the result: %s", strerror(-r));
	return result_exit_status(&st.result);
}
