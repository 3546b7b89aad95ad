/* SPDX-License-Identifier: MIT */
/*
 * Table-driven long options for the broker's verbs (see verb-options.h).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "suggest.h"
#include "cli/verb-options.h"

void verb_args_done(struct verb_args *args)
{
	free(args->values);
	free(args->positionals);
	args->values = NULL;
	args->positionals = NULL;
}

static const struct verb_option *find(const struct verb_option *opts, size_t n, const char *name,
                                      size_t len, size_t *index)
{
	for (size_t i = 0; i < n; i++) {
		if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0) {
			*index = i;
			return &opts[i];
		}
	}
	return NULL;
}

/* The error for "--NAME" (len bytes of name), with the option it was
 * perhaps meant to be. */
static int unknown_option(const struct verb_option *opts, size_t n, const char *name, size_t len,
                          struct sluice_error *reterr)
{
	char word[64];
	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	struct suggestion s;
	suggestion_init(&s, word);
	for (size_t i = 0; i < n; i++)
		suggestion_consider(&s, opts[i].name);
	suggestion_consider(&s, "help");
	const char *meant = len < sizeof(word) ? suggestion_best(&s) : NULL;
	if (meant)
		return sluice_error_set(reterr, -EINVAL,
		                        "unknown option '--%.*s'; did you mean '--%s'?", (int)len,
		                        name, meant);
	return sluice_error_set(reterr, -EINVAL, "unknown option '--%.*s'", (int)len, name);
}

int verb_options_parse(const struct verb_option *opts, size_t n, int argc, char **argv,
                       struct verb_args *args, struct sluice_error *reterr)
{
	*args = (struct verb_args){ 0 };
	args->values = calloc(n ? n : 1, sizeof(*args->values));
	args->positionals = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*args->positionals));
	if (!args->values || !args->positionals) {
		verb_args_done(args);
		return sluice_error_set(reterr, -ENOMEM, "parsing the options");
	}
	bool only_positionals = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_positionals || a[0] != '-' || a[1] == '\0') {
			args->positionals[args->n_positionals++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_positionals = true;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			args->help = 1;
			continue;
		}
		if (a[1] != '-') {
			verb_args_done(args);
			return sluice_error_set(reterr, -EINVAL, "unknown option '%s'", a);
		}
		const char *name = a + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		size_t index = 0;
		const struct verb_option *o = find(opts, n, name, len, &index);
		if (!o) {
			verb_args_done(args);
			return unknown_option(opts, n, name, len, reterr);
		}
		if (!o->arg) {
			if (eq) {
				verb_args_done(args);
				return sluice_error_set(reterr, -EINVAL,
				                        "option '--%s' takes no value", o->name);
			}
			args->values[index] = "";
		} else if (eq) {
			args->values[index] = eq + 1;
		} else if (i + 1 < argc) {
			args->values[index] = argv[++i];
		} else {
			verb_args_done(args);
			return sluice_error_set(reterr, -EINVAL, "option '--%s' needs %s", o->name,
			                        o->arg);
		}
	}
	return 0;
}

void verb_options_help(FILE *out, const char *usage, const struct verb_option *opts, size_t n)
{
	fprintf(out, "Usage: sluice %s\n\nOptions:\n", usage);
	for (size_t i = 0; i < n; i++) {
		char left[64];
		snprintf(left, sizeof(left), "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
		         opts[i].arg ? opts[i].arg : "");
		fprintf(out, "  %-22s %s\n", left, opts[i].help);
	}
	fprintf(out, "  %-22s %s\n", "--help", "print this help");
}

int verb_options_parse_or_help(const char *verb, const char *usage, const struct verb_option *opts,
                               size_t n, int argc, char **argv, struct verb_args *args)
{
	struct sluice_error err = { 0 };
	int r = verb_options_parse(opts, n, argc, argv, args, &err);
	if (r < 0) {
		log_sluice_error(&err, "%s", verb);
		return r;
	}
	if (args->help)
		verb_options_help(stdout, usage, opts, n);
	return args->help ? 1 : 0;
}
