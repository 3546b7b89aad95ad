/* SPDX-License-Identifier: MIT */
/*
 * Table-driven options for the broker's verbs (see verb-options.h): the
 * parser, `--help` and the line of `sluice help`, all from struct verb_spec.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/verb-options.h"
#include "log.h"

/* The help line every verb has. */
static const struct verb_option help_option = { "help", 'h', NULL, "print this help" };

void verb_args_done(struct verb_args *args)
{
	free(args->values);
	free(args->positionals);
	args->values = NULL;
	args->positionals = NULL;
}

/* The row named name[0..len) (or, abbreviating, the one row it begins),
 * its index in *index (n: --help); NULL when none is, *ambiguous set when
 * several are. */
static const struct verb_option *find_long(const struct verb_spec *spec, const char *name,
                                           size_t len, size_t *index, bool *ambiguous)
{
	const struct verb_option *found = NULL;
	*ambiguous = false;
	for (size_t i = 0; i <= spec->n_options; i++) {
		const struct verb_option *o =
		        i < spec->n_options ? &spec->options[i] : &help_option;
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len) { /* exact: whatever else it begins */
			*index = i;
			return o;
		}
		if (!(spec->flags & VERB_OPTIONS_ABBREVIATE))
			continue;
		if (found)
			*ambiguous = true;
		found = o;
		*index = i;
	}
	return *ambiguous ? NULL : found;
}

static const struct verb_option *find_short(const struct verb_spec *spec, char c, size_t *index)
{
	for (size_t i = 0; i <= spec->n_options; i++) {
		const struct verb_option *o =
		        i < spec->n_options ? &spec->options[i] : &help_option;
		if (o->short_name && o->short_name == c) {
			*index = i;
			return o;
		}
	}
	return NULL;
}

/* Take option o (row index) from argv[*i]; value: what followed '=' (or the
 * short option's letter), or NULL. */
static int take(const struct verb_spec *spec, const struct verb_option *o, size_t index,
                const char *value, int argc, char **argv, int *i, struct verb_args *args,
                struct sluice_error *reterr)
{
	if (index == spec->n_options) { /* --help */
		if (value)
			return sluice_error_set(reterr, -EINVAL, "option '--help' takes no value");
		args->help = 1;
		return 0;
	}
	if (!o->arg) {
		if (value)
			return sluice_error_set(reterr, -EINVAL, "option '--%s' takes no value",
			                        o->name);
		args->values[index] = "";
	} else if (value) {
		args->values[index] = value;
	} else if (*i + 1 < argc) {
		args->values[index] = argv[++*i];
	} else {
		return sluice_error_set(reterr, -EINVAL, "option '--%s' needs %s", o->name, o->arg);
	}
	return 0;
}

/* One word that starts with '-' (not "-" nor "--"). */
static int parse_option(const struct verb_spec *spec, int argc, char **argv, int *i,
                        struct verb_args *args, struct sluice_error *reterr)
{
	const char *a = argv[*i];
	size_t index = 0;
	if (a[1] != '-') {
		const struct verb_option *o = find_short(spec, a[1], &index);
		/* -X VALUE or -XVALUE; a flag stands alone */
		if (!o || (!o->arg && a[2]))
			return sluice_error_set(reterr, -EINVAL, "unknown option '%s'", a);
		return take(spec, o, index, a[2] ? a + 2 : NULL, argc, argv, i, args, reterr);
	}
	const char *name = a + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	bool ambiguous;
	const struct verb_option *o = find_long(spec, name, len, &index, &ambiguous);
	if (ambiguous)
		return sluice_error_set(reterr, -EINVAL, "ambiguous option '--%.*s'", (int)len,
		                        name);
	if (!o)
		return sluice_error_set(reterr, -EINVAL, "unknown option '--%.*s'", (int)len, name);
	return take(spec, o, index, eq ? eq + 1 : NULL, argc, argv, i, args, reterr);
}

int verb_options_parse(const struct verb_spec *spec, int argc, char **argv, struct verb_args *args,
                       struct sluice_error *reterr)
{
	*args = (struct verb_args){ 0 };
	args->values = calloc(spec->n_options ? spec->n_options : 1, sizeof(*args->values));
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
			only_positionals = only_positionals || (spec->flags & VERB_OPTIONS_FIRST);
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_positionals = true;
			continue;
		}
		int r = parse_option(spec, argc, argv, &i, args, reterr);
		if (r < 0) {
			verb_args_done(args);
			return r;
		}
	}
	return 0;
}

/* "-C, --directory DIR" or "--format text|json" into buf. */
static void option_words(const struct verb_option *o, char *buf, size_t size)
{
	char s[8] = "";
	if (o->short_name)
		snprintf(s, sizeof(s), "-%c, ", o->short_name);
	snprintf(buf, size, "%s--%s%s%s", s, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* "[-C DIR]" or "[--format text|json]" into buf. */
static void option_brief(const struct verb_option *o, char *buf, size_t size)
{
	if (o->short_name)
		snprintf(buf, size, "[-%c%s%s]", o->short_name, o->arg ? " " : "",
		         o->arg ? o->arg : "");
	else
		snprintf(buf, size, "[--%s%s%s]", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* The usage line, wrapped at 80 columns under its first word; the options'
 * words, then their help. */
#define HELP_COLUMNS 80
#define HELP_WORDS_WIDTH 22

void verb_options_help(FILE *out, const struct verb_spec *spec, const char *args)
{
	if (!args)
		args = spec->args;
	int indent = fprintf(out, "Usage: sluice %s", spec->name);
	int col = indent;
	for (size_t i = 0; i <= spec->n_options; i++) {
		const char *word = args;
		char brief[128];
		if (i < spec->n_options) {
			option_brief(&spec->options[i], brief, sizeof(brief));
			word = brief;
		} else if (!args[0]) {
			break;
		}
		int len = (int)strlen(word);
		if (col > indent && col + 1 + len > HELP_COLUMNS)
			col = fprintf(out, "\n%*s", indent, "") - 1;
		col += fprintf(out, " %s", word);
	}
	fputc('\n', out);
	if (spec->more_usage)
		fprintf(out, "       sluice %s %s\n", spec->name, spec->more_usage);
	if (spec->description)
		fprintf(out, "\n%s\n", spec->description);
	fprintf(out, "\nOptions:\n");
	for (size_t i = 0; i <= spec->n_options; i++) {
		const struct verb_option *o =
		        i < spec->n_options ? &spec->options[i] : &help_option;
		char words[128];
		option_words(o, words, sizeof(words));
		/* a long left side puts the help on a line of its own */
		if (strlen(words) > HELP_WORDS_WIDTH)
			fprintf(out, "  %s\n  %-*s %s\n", words, HELP_WORDS_WIDTH, "", o->help);
		else
			fprintf(out, "  %-*s %s\n", HELP_WORDS_WIDTH, words, o->help);
	}
}

void verb_options_brief(const struct verb_spec *spec, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", spec->n_options ? "[OPTIONS]" : "",
	         spec->n_options && spec->args[0] ? " " : "", spec->args);
}

int verb_options_parse_or_help(const struct verb_spec *spec, int argc, char **argv,
                               struct verb_args *args)
{
	struct sluice_error err = { 0 };
	int r = verb_options_parse(spec, argc, argv, args, &err);
	if (r < 0) {
		log_sluice_error(&err, "%s", spec->name);
		return r;
	}
	if (args->help)
		verb_options_help(stdout, spec, NULL);
	return args->help ? 1 : 0;
}
