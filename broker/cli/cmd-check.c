/* SPDX-License-Identifier: MIT */
/*
 * `sluice check`: the policy verdict for one command (or a JSON Lines batch)
 * without running anything; --explain shows the command model.
 * A batch decides the lines that have arrived together, in one policy child.
 * Not for: running commands (cmd-run.c), or the rules themselves: one
 * command's verdict is the decision pipeline's (policy_judge(), as for a
 * run), a batch's the policy chain's (policy_chain_decide_many()).
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/broker-config.h"
#include "cleanup.h"
#include "model/command-model.h"
#include "config/config-run.h"
#include "model/display.h"
#include "core/error-kind.h"
#include "util/line-reader.h"
#include "log.h"
#include "model/model-explain.h"
#include "policy/policy-chain.h"
#include "policy/policy-judge.h"
#include "core/request.h"
#include "util/terminal-text.h"
#include "cli/verb-options.h"
#include "cli/verbs.h"
#include "policy/verdict.h"

enum { OPT_EXPLAIN, OPT_FORMAT, OPT_BATCH, OPT_CONFIG };

static const struct verb_option check_options[] = {
	[OPT_EXPLAIN] = { "explain", 0, NULL, "also show how the command was understood" },
	[OPT_FORMAT] = VERB_OPTION_FORMAT,
	[OPT_BATCH] = { "batch", 0, NULL,
	                "read JSON Lines requests on stdin, print one JSON result per line" },
	[OPT_CONFIG] = VERB_OPTION_CONFIG,
};

const struct verb_spec check_spec = {
	.name = "check",
	.summary = "the policy verdict for a command, without running it",
	.args = "[--] COMMAND",
	.more_usage = "--batch [--config FILE] < requests.jsonl",
	.description =
	        "Prints the verdict (allow, ask or deny) and the reasons. Exit status: 0 allow,\n"
	        "1 deny, 2 ask, 125 error; with --batch: 0, or 125 when any line got an error.",
	.options = check_options,
	.n_options = ELEMENTSOF(check_options),
};

struct check_settings {
	bool explain;
	bool json;
	const char *cwd;            /* for the display form (NULL when not shown) */
	struct policy_chain *chain; /* the configured plugins */
	struct command_model_parser *parser;
	size_t max_command_size; /* a --batch request's command: the model's size limit */
};

/* The result object: {"verdict", "reasons", "display"} (+ "rewrite",
 * "model"). */
static json_t *result_json(const struct command_model *m, const struct verdict *v,
                           const char *display, const char *rewrite, bool explain)
{
	json_t *o = verdict_to_json(v);
	if (!o)
		return NULL;
	json_object_set_new(o, "display", explain_json_string(display));
	if (rewrite)
		json_object_set_new(o, "rewrite", explain_json_string(rewrite));
	if (explain)
		json_object_set_new(o, "model", model_explain_json(m));
	return o;
}

static int print_json(json_t *o)
{
	/* rendered in one piece, then written once (a batch prints many) */
	char small[4096];
	size_t need = o ? json_dumpb(o, small, sizeof(small), JSON_COMPACT) : 0;
	if (need == 0)
		return -EIO;
	_cleanup_free_ char *big = NULL;
	const char *text = small;
	if (need > sizeof(small)) {
		big = malloc(need);
		if (!big || json_dumpb(o, big, need, JSON_COMPACT) != need)
			return -ENOMEM;
		text = big;
	}
	if (fwrite(text, 1, need, stdout) != need || fputc('\n', stdout) == EOF)
		return -EIO;
	return 0;
}

/* Parse, decide and print one command. Returns the verdict's exit status. */
static int check_one(const char *command, size_t len, const struct check_settings *s)
{
	struct sluice_error err = { 0 };
	/* The same checks as a request's command field (empty, invalid UTF-8),
	 * but for size: past the model's size limit a command is judged "ask",
	 * naming the limit, so no size cap here. */
	_cleanup_(run_request_done) struct run_request req = { 0 };
	int r = request_from_command(command, SIZE_MAX, &req, &err);
	if (r < 0) {
		log_sluice_error(&err, "check: invalid_request");
		return EXIT_SLUICE_ERROR;
	}
	struct verdict v;
	/* the one decision pipeline: parse, the model's own concerns and every
	 * configured plugin, and the display form (only json and --explain
	 * print it) */
	_cleanup_(policy_judgement_done) struct policy_judgement j = { .verdict = &v };
	r = policy_judge(s->chain, s->parser, command, len, s->cwd, s->json || s->explain, &j,
	                 &err);
	if (r < 0 && !j.model) { /* the command could not be parsed */
		verdict_done(&v);
		log_sluice_error(&err, "check");
		return EXIT_SLUICE_ERROR;
	}
	if (r == -ENOEXEC) { /* a plugin could not start: a configuration error */
		verdict_done(&v);
		sluice_error_set(&err, -EINVAL, "%s", policy_chain_start_error(s->chain));
		log_sluice_error(&err, "check: policy");
		return EXIT_SLUICE_ERROR;
	}
	if (r < 0) {
		verdict_done(&v);
		log_error("check: %s", strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	const struct command_model *m = j.model;
	const char *display = j.display, *rewrite = j.rewrite;
	if (s->json) {
		json_t *o = result_json(m, &v, display, rewrite, s->explain);
		r = print_json(o);
		json_decref(o);
	} else {
		/* the command's text, for a terminal: nothing in it that one obeys */
		if (s->explain) {
			r = model_explain_text(m, stdout);
			fputs("\ndisplay: ", stdout);
			terminal_safe_write(stdout, display);
			fputs("\nverdict: ", stdout);
		}
		if (r >= 0)
			r = verdict_print_text(&v, stdout);
		if (r >= 0 && rewrite) {
			fputs("rewritten to: ", stdout);
			terminal_safe_write(stdout, rewrite);
			r = putchar('\n') == EOF ? -EIO : 0;
		}
	}
	int status = verdict_exit_status(&v);
	verdict_done(&v);
	if (r < 0) {
		log_error("check: writing the result: %s", strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	return status;
}

/* ---------------------------------------------------------------- batch */

/* Lines checked together (in one policy child): as many as have arrived,
 * up to this. */
#define BATCH_MAX_LINES 256

/* One request line of a batch, from parsing to its result. */
struct batch_item {
	bool refused; /* an invalid_request: err.detail says why */
	struct sluice_error err;
	struct run_request req;
	struct command_model *model;
	char *cwd; /* owned, or NULL: the session's */
	struct verdict v;
};

static void batch_item_done(struct batch_item *it)
{
	run_request_done(&it->req);
	command_model_free(it->model);
	free(it->cwd);
	verdict_done(&it->v);
	*it = (struct batch_item){ 0 };
}

static int print_error_line(const char *message)
{
	json_t *o = json_pack("{s:{s:s, s:o}}", "error", "kind",
	                      error_kind_name(ERROR_KIND_INVALID_REQUEST), "message",
	                      explain_json_string(message));
	int r = print_json(o);
	json_decref(o);
	return r;
}

/* Parse one request line into it (line is r from line_reader_next()).
 * Returns 0 (it->refused when the line is invalid), or -errno. */
static int batch_parse(int r, const char *line, size_t len, const struct check_settings *s,
                       struct batch_item *it)
{
	verdict_init(&it->v);
	if (r == -E2BIG) {
		it->refused = true;
		sluice_error_set(&it->err, -E2BIG, "the request line is too long");
		return 0;
	}
	r = request_parse(line, len, s->max_command_size, &it->req, &it->err);
	if (r == -EINVAL || r == -E2BIG) {
		it->refused = true;
		return 0;
	}
	if (r < 0)
		return r;
	r = command_model_parse(s->parser, it->req.command, it->req.command_len, NULL, &it->model,
	                        &it->err);
	if (r == -EINVAL) {
		it->refused = true;
		return 0;
	}
	if (r < 0)
		return r;
	if (it->req.directory && s->cwd &&
	    asprintf(&it->cwd, "%s/%s", s->cwd, it->req.directory) < 0)
		return -ENOMEM;
	return 0;
}

/* The result line of one decided item. */
static int batch_print(const struct batch_item *it, const char *rewrite,
                       const struct check_settings *s)
{
	if (it->refused)
		return print_error_line(it->err.detail);
	_cleanup_free_ char *display = NULL;
	struct sluice_error err = { 0 };
	int r = display_form_of_run(s->parser, it->model, rewrite, it->cwd ? it->cwd : s->cwd,
	                            &display, &err);
	if (r < 0)
		return r;
	json_t *o = result_json(it->model, &it->v, display, rewrite, s->explain);
	r = print_json(o);
	json_decref(o);
	return r;
}

/* Decide the parsed lines together and print their results in order.
 * Returns 1 when a line was refused, 0, or -errno (-ENOEXEC: a plugin could
 * not start). */
static int batch_decide(struct batch_item *items, size_t n, struct policy_check *checks,
                        const struct check_settings *s)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!items[i].refused)
			checks[m++] =
			        (struct policy_check){ .model = items[i].model, .v = &items[i].v };
	int r = policy_chain_decide_many(s->chain, s->parser, checks, m);
	int status = 0;
	for (size_t i = 0, j = 0; r >= 0 && i < n; i++) {
		const char *rewrite = items[i].refused ? NULL : checks[j++].rewrite;
		if (items[i].refused)
			status = 1;
		r = batch_print(&items[i], rewrite, s);
	}
	for (size_t j = 0; j < m; j++)
		free(checks[j].rewrite);
	return r < 0 ? r : status;
}

/* Take the lines that have arrived (reading only when none has), up to the
 * cap, and parse them. Returns how many, 0 at the end of input, or -errno;
 * *n_used: how many items were written to (also on an error). */
static int batch_collect(struct line_reader *lr, struct batch_item *items,
                         const struct check_settings *s, size_t *n_used)
{
	size_t n = 0;
	*n_used = 0;
	while (n < BATCH_MAX_LINES) {
		char *line = NULL;
		size_t len = 0;
		int r = line_reader_next(lr, &line, &len);
		if (r == 0) {
			if (n > 0)
				break; /* answer what arrived before waiting for more */
			if (lr->eof)
				return 0;
			r = line_reader_fill(lr);
			if (r < 0)
				return r;
			continue;
		}
		struct batch_item *it = &items[n++];
		*n_used = n;
		r = batch_parse(r, line, len, s, it);
		if (r < 0)
			return r;
	}
	return (int)n;
}

static int check_batch(const struct check_settings *s)
{
	struct line_reader lr = line_reader_init(STDIN_FILENO, REQUEST_DOCUMENT_MAX);
	_cleanup_free_ struct batch_item *items = calloc(BATCH_MAX_LINES, sizeof(*items));
	_cleanup_free_ struct policy_check *checks = calloc(BATCH_MAX_LINES, sizeof(*checks));
	int status = 0, r = items && checks ? 0 : -ENOMEM;
	while (r >= 0) {
		size_t used = 0;
		r = batch_collect(&lr, items, s, &used);
		int n = r;
		if (r > 0)
			r = batch_decide(items, (size_t)n, checks, s);
		if (r > 0)
			status = EXIT_SLUICE_ERROR;
		for (size_t i = 0; i < used; i++)
			batch_item_done(&items[i]);
		if (n <= 0)
			break;
		if (r >= 0 && fflush(stdout) != 0)
			r = -EIO;
	}
	line_reader_done(&lr);
	if (r == -ENOEXEC) {
		struct sluice_error err = { 0 };
		sluice_error_set(&err, -EINVAL, "%s", policy_chain_start_error(s->chain));
		log_sluice_error(&err, "check: policy");
		return EXIT_SLUICE_ERROR;
	}
	if (r < 0) {
		log_error("check --batch: %s", strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	return status;
}

int cmd_check(int argc, char **argv)
{
	struct sluice_error err = { 0 };
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse_or_help(&check_spec, argc, argv, &args);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	int status = EXIT_SLUICE_ERROR;
	const char *format = args.values[OPT_FORMAT];
	bool batch = args.values[OPT_BATCH] != NULL;
	struct check_settings s = {
		.explain = args.values[OPT_EXPLAIN] != NULL,
		.json = batch || (format && strcmp(format, "json") == 0),
	};
	/* the display form (json, --explain) leaves out a `cd` into it */
	_cleanup_free_ char *cwd = s.json || s.explain ? getcwd(NULL, 0) : NULL;
	s.cwd = cwd;
	struct command_model_parser *parser = NULL;
	_cleanup_(config_freep) struct broker_config *cfg = NULL;
	_cleanup_(policy_chain_freep) struct policy_chain *chain = NULL;
	if (config_load_or_log(args.values[OPT_CONFIG], &cfg) < 0) {
		/* every error was logged, with FILE:LINE */
	} else if (policy_chain_new_lazy(cfg, &chain, &err) < 0) {
		log_sluice_error(&err, "check: policy");
	} else if (format && strcmp(format, "json") != 0 && strcmp(format, "text") != 0) {
		log_error("check: unknown format '%s' (text or json)", format);
	} else if (batch && args.n_positionals > 0) {
		log_error("check: --batch reads its commands from stdin, not the command line");
	} else if (!batch && args.n_positionals != 1) {
		log_error("check: expected one COMMAND (quote it as one argument); see 'sluice "
		          "check --help'");
	} else if (config_parser_new(cfg, &parser) < 0) {
		log_error("check: cannot create the shell parser");
	} else {
		struct command_model_limits limits;
		config_model_limits(cfg, &limits);
		s.chain = chain;
		s.parser = parser;
		s.max_command_size = limits.max_command_bytes;
		status = batch ? check_batch(&s)
		               : check_one(args.positionals[0], strlen(args.positionals[0]), &s);
	}
	command_model_parser_free(parser);
	return status;
}
