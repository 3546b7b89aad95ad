/* SPDX-License-Identifier: MIT */
/*
 * broker/cli/verb-options.c: one table parses a verb's command line the way
 * getopt_long() did for `run`, `mcp` and `schema` (-C DIR and -CDIR, the
 * options ending at the command, abbreviations that name one option), and
 * the way the other verbs always did (options anywhere, no abbreviation).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "cleanup.h"
#include "cli/verb-options.h"

enum { OPT_DIRECTORY, OPT_TIMEOUT, OPT_TAIL, OPT_JSON };
static const struct verb_option options[] = {
	[OPT_DIRECTORY] = VERB_OPTION_DIRECTORY,
	[OPT_TIMEOUT] = { "timeout", 0, "DURATION", "a timeout" },
	[OPT_TAIL] = { "tail", 0, "N", "a count" },
	[OPT_JSON] = { "json", 0, NULL, "a flag" },
};
static const struct verb_spec command_first = {
	.name = "run",
	.summary = "",
	.args = "[--] COMMAND",
	.options = options,
	.n_options = ELEMENTSOF(options),
	.flags = VERB_OPTIONS_FIRST | VERB_OPTIONS_ABBREVIATE,
};
static const struct verb_spec anywhere = {
	.name = "logs",
	.summary = "",
	.args = "JOB",
	.options = options,
	.n_options = ELEMENTSOF(options),
};

/* Parse the NULL-terminated words (the verb's name first); the status. */
static int parse(const struct verb_spec *spec, struct verb_args *args, const char **words,
                 struct sluice_error *err)
{
	int argc = 0;
	while (words[argc])
		argc++;
	return verb_options_parse(spec, argc, (char **)words, args, err);
}

Test(verb_options, short_option_takes_the_next_word_or_the_rest_of_its_own)
{
	struct sluice_error err = { 0 };
	_cleanup_(verb_args_done) struct verb_args a = { 0 };
	const char *w1[] = { "run", "-C", "/w", "true", NULL };
	cr_assert_eq(parse(&command_first, &a, w1, &err), 0, "%s", err.detail);
	cr_assert_str_eq(a.values[OPT_DIRECTORY], "/w");
	verb_args_done(&a);
	const char *w2[] = { "run", "-C/w", "--directory=/v", "true", NULL };
	cr_assert_eq(parse(&command_first, &a, w2, &err), 0, "%s", err.detail);
	cr_assert_str_eq(a.values[OPT_DIRECTORY], "/v");
}

Test(verb_options, options_end_at_the_command_when_it_comes_first)
{
	struct sluice_error err = { 0 };
	_cleanup_(verb_args_done) struct verb_args a = { 0 };
	const char *w[] = { "run", "--json", "ls", "-la", "--timeout", "--", "x", NULL };
	cr_assert_eq(parse(&command_first, &a, w, &err), 0, "%s", err.detail);
	cr_assert_eq(a.n_positionals, 5);
	cr_assert_str_eq(a.positionals[1], "-la");
	cr_assert_str_eq(a.positionals[3], "--");
	cr_assert_null(a.values[OPT_TIMEOUT]);
}

Test(verb_options, options_anywhere_for_the_other_verbs)
{
	struct sluice_error err = { 0 };
	_cleanup_(verb_args_done) struct verb_args a = { 0 };
	const char *w[] = { "logs", "JOB", "--tail", "5", NULL };
	cr_assert_eq(parse(&anywhere, &a, w, &err), 0, "%s", err.detail);
	cr_assert_eq(a.n_positionals, 1);
	cr_assert_str_eq(a.values[OPT_TAIL], "5");
}

Test(verb_options, an_abbreviation_names_one_option_or_is_refused)
{
	struct sluice_error err = { 0 };
	_cleanup_(verb_args_done) struct verb_args a = { 0 };
	const char *w1[] = { "run", "--time", "5s", "--dir", "/w", "true", NULL };
	cr_assert_eq(parse(&command_first, &a, w1, &err), 0, "%s", err.detail);
	cr_assert_str_eq(a.values[OPT_TIMEOUT], "5s");
	cr_assert_str_eq(a.values[OPT_DIRECTORY], "/w");
	verb_args_done(&a);
	const char *w2[] = { "run", "--t", "5s", "true", NULL }; /* timeout or tail */
	cr_assert_eq(parse(&command_first, &a, w2, &err), -EINVAL);
	cr_assert_str_eq(err.detail, "ambiguous option '--t'");
	const char *w3[] = { "logs", "--time", "5s", "JOB", NULL };
	cr_assert_eq(parse(&anywhere, &a, w3, &err), -EINVAL);
	cr_assert_str_eq(err.detail, "unknown option '--time'");
}

Test(verb_options, help_and_mistakes)
{
	struct sluice_error err = { 0 };
	_cleanup_(verb_args_done) struct verb_args a = { 0 };
	const char *w1[] = { "logs", "-h", NULL };
	cr_assert_eq(parse(&anywhere, &a, w1, &err), 0);
	cr_assert(a.help);
	verb_args_done(&a);
	const char *w2[] = { "logs", "--json=yes", NULL };
	cr_assert_eq(parse(&anywhere, &a, w2, &err), -EINVAL);
	cr_assert_str_eq(err.detail, "option '--json' takes no value");
	const char *w3[] = { "logs", "--tail", NULL };
	cr_assert_eq(parse(&anywhere, &a, w3, &err), -EINVAL);
	cr_assert_str_eq(err.detail, "option '--tail' needs N");
	const char *w4[] = { "logs", "-x", NULL };
	cr_assert_eq(parse(&anywhere, &a, w4, &err), -EINVAL);
	cr_assert_str_eq(err.detail, "unknown option '-x'");
}

Test(verb_options, help_lists_every_option_and_its_description)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	verb_options_help(f, &command_first, NULL);
	fclose(f);
	cr_assert(strstr(text, "Usage: sluice run [-C DIR] [--timeout DURATION]"), "%s", text);
	for (size_t i = 0; i < ELEMENTSOF(options); i++) {
		cr_assert(strstr(text, options[i].help), "%s: %s", options[i].name, text);
		cr_assert(strstr(text, options[i].name), "%s", text);
	}
	free(text);
}
