/* SPDX-License-Identifier: MIT */
/*
 * git_add: refuse blind adds -- `git add -A`, `--all`, `-u`, `.`, `*`, `:/`
 * and their spellings (abbreviated options, pathspec magic, ./ prefixes,
 * quoted globs, `..` and `dir/..`, the working directory as $PWD, $(pwd) or
 * ~+), under any git global options, wrappers and nesting. Named files,
 * directories, -p and dry runs pass. The message tells the model to add what it changed by name.
 * Not for: commits (`git commit -a` is another question).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "git-pathspec.h"
#include "plugin-util.h"
#include "sluice/policy.h"

static const char *const add_names[] = { "add", "stage", NULL };

/* Options that stage everything whatever the pathspec says, and the
 * shortest prefix git takes for each ("--a" is --all; "--no-ignore" could
 * also be --no-ignore-errors, and git refuses it). */
static const struct {
	const char *name;
	size_t min;
} blind_long[] = { { "all", 1 }, { "update", 1 }, { "no-ignore-removal", 11 } };

/* Options after which the add changes nothing. */
static const char *const harmless_long[] = { "--dry-run", "--patch", "--interactive", "--edit",
	                                     NULL };

static int check_one(const void *state, const struct sluice_simple_command *sc,
                     struct sluice_verdict *v)
{
	(void)state;
	size_t sub = git_subcommand_is(sc, add_names);
	if (!sub)
		return SLUICE_ALLOW;
	for (const char *const *o = harmless_long; *o; o++)
		if (sluice_long_option(sc, sub + 1, *o))
			return SLUICE_ALLOW;
	if (sluice_has_short_flag(sc, sub + 1, 'n') || sluice_has_short_flag(sc, sub + 1, 'p') ||
	    sluice_has_short_flag(sc, sub + 1, 'i') || sluice_has_short_flag(sc, sub + 1, 'e'))
		return SLUICE_ALLOW;

	if (long_option_prefix(sc, sub + 1, "pathspec-from-file", 10))
		return sluice_verdict_add(
		        v, SLUICE_ASK,
		        "'git add --pathspec-from-file' takes its paths from a file "
		        "that is only read when it runs: it may add everything",
		        "add the files you changed by name: git add path/to/file ...");
	const char *why = NULL;
	for (size_t o = 0; o < sizeof(blind_long) / sizeof(blind_long[0]) && !why; o++)
		why = long_option_prefix(sc, sub + 1, blind_long[o].name, blind_long[o].min);
	if (!why && sluice_has_short_flag(sc, sub + 1, 'A'))
		why = "-A";
	if (!why && sluice_has_short_flag(sc, sub + 1, 'u'))
		why = "-u";
	bool dashdash = false;
	size_t positive = 0;
	const char *exclusion = NULL;
	for (size_t i = pathspec_next(sc, sub + 1, NULL, &dashdash); i && !why;
	     i = pathspec_next(sc, i + 1, NULL, &dashdash)) {
		const char *a = sluice_arg(sc, i);
		uint32_t f = sluice_arg_flags(sc, i);
		bool top, exclude;
		(void)pathspec_strip_magic(a, &top, &exclude);
		if (exclude) {
			exclusion = a;
			continue;
		}
		positive++;
		if (pathspec_word_is_blind(a, f))
			why = a;
	}
	/* only exclusions (":!vendor") mean "everything but these" to git */
	if (!why && exclusion && positive == 0)
		why = exclusion;
	if (!why)
		return SLUICE_ALLOW;
	char msg[256];
	snprintf(msg, sizeof(msg),
	         "blind add: 'git add %s' stages every change in the tree, including files you "
	         "did not mean to commit",
	         why);
	return sluice_verdict_add(v, SLUICE_DENY, msg,
	                          "add the files you changed by name: git add path/to/file ...");
}

static int ga_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	return check_each(state, cmd, v, check_one);
}

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "git_add",
	.description = "refuses blind adds (git add -A, --all, ., *, :/)",
	.open = open_keep_settings,
	.check = ga_check,
};
