/* SPDX-License-Identifier: MIT */
/*
 * git_add: refuse blind adds -- `git add -A`, `--all`, `.`, `*`, `:/`
 * and their spellings (abbreviated options, pathspec magic, ./ prefixes,
 * quoted globs, `..` and `dir/..`, the working directory as $PWD, $(pwd) or
 * ~+), under any git global options, wrappers and nesting: they stage
 * files git has never seen (keys, build output). Named files,
 * directories, -p and dry runs pass. The message tells the model to add
 * what it changed by name. Two rules (key deny, ask or allow):
 *   blind    git add -A / --all / . / * / :/ (untracked files too)   deny
 *   tracked  git add -u / --update, git commit -a / --all, git commit
 *            of every path: every change to the files git tracks    allow
 * `git add -u` and `git commit -a` stage the same changes and are judged
 * alike; neither adds a file git has not seen.
 * Options are read as git reads them: an option's value ("-m -a") is not
 * an option.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "git-pathspec.h"
#include "plugin-util.h"
#include "sluice/policy.h"

#define ADD_RULES(X)                   \
	X(BLIND, "blind", SLUICE_DENY) \
	X(TRACKED, "tracked", SLUICE_ALLOW)

enum { ADD_RULES(RULE_ENUM) N_ADD_RULES };
static const struct rule_switch add_rules[] = { ADD_RULES(RULE_SWITCH) };

static const char *const add_names[] = { "add", "stage", NULL };
static const char *const commit_names[] = { "commit", NULL };

/* The options of git add and git commit that take a value. */
static const char *const add_values[] = { "--chmod", "--pathspec-from-file", NULL };
static const char *const commit_values[] = { "-m",
	                                     "-F",
	                                     "-C",
	                                     "-c",
	                                     "-t",
	                                     "--message",
	                                     "--file",
	                                     "--author",
	                                     "--date",
	                                     "--reuse-message",
	                                     "--reedit-message",
	                                     "--template",
	                                     "--fixup",
	                                     "--squash",
	                                     "--cleanup",
	                                     "--trailer",
	                                     "--pathspec-from-file",
	                                     NULL };

/* Options that stage everything whatever the pathspec says, and the
 * shortest prefix git takes for each ("--a" is --all; "--no-ignore" could
 * also be --no-ignore-errors, and git refuses it). */
static const struct {
	const char *name;
	size_t min;
} blind_long[] = { { "all", 1 }, { "no-ignore-removal", 11 } };

/* Options after which the add changes nothing. */
static const char *const harmless_long[] = { "dry-run", "patch", "interactive", "edit", NULL };

static int refuse(const struct rule_state *st, int rule, struct sluice_verdict *v,
                  const char *words, const char *what)
{
	char msg[256];
	snprintf(msg, sizeof(msg), "%s: '%s' %s", rule == RULE_BLIND ? "blind add" : "blind stage",
	         words, what);
	return sluice_verdict_add(v, st->verdict[rule], msg,
	                          "add the files you changed by name: git add path/to/file ...");
}

static const char *const stages_all =
        "stages every change in the tree, including files you did not mean to commit";
static const char *const stages_tracked =
        "stages every change to the files git tracks, including changes you did not make";

/* git commit -a / --all, or of a pathspec that names every file (the
 * tracked ones: commit adds no new file). */
static int check_commit(const struct rule_state *st, const struct sluice_simple_command *sc,
                        size_t sub, struct sluice_verdict *v)
{
	const char *const *o = commit_values;
	if (st->verdict[RULE_TRACKED] == SLUICE_ALLOW ||
	    long_option_given(sc, sub + 1, "dry-run", 2, o) ||
	    long_option_given(sc, sub + 1, "patch", 2, o) ||
	    long_option_given(sc, sub + 1, "interactive", 3, o) ||
	    short_option_given(sc, sub + 1, 'p', o))
		return SLUICE_ALLOW;
	char words[128];
	const char *all = long_option_given(sc, sub + 1, "all", 2, o);
	if (all || short_option_given(sc, sub + 1, 'a', o)) {
		snprintf(words, sizeof(words), "git commit %s", all ? all : "-a");
		return refuse(st, RULE_TRACKED, v, words, stages_tracked);
	}
	const char *blind = pathspec_blind_word(sc, sub + 1, o);
	if (!blind)
		return SLUICE_ALLOW;
	snprintf(words, sizeof(words), "git commit %s", blind);
	return refuse(st, RULE_TRACKED, v, words, stages_tracked);
}

static int check_one(const void *state, const struct sluice_simple_command *sc,
                     struct sluice_verdict *v)
{
	const struct rule_state *st = state;
	size_t sub = git_subcommand_is(sc, commit_names);
	if (sub)
		return check_commit(st, sc, sub, v);
	sub = git_subcommand_is(sc, add_names);
	if (!sub)
		return SLUICE_ALLOW;
	const char *const *o = add_values;
	for (const char *const *h = harmless_long; *h; h++)
		if (long_option_given(sc, sub + 1, *h, strlen(*h), o))
			return SLUICE_ALLOW;
	if (short_option_given(sc, sub + 1, 'n', o) || short_option_given(sc, sub + 1, 'p', o) ||
	    short_option_given(sc, sub + 1, 'i', o) || short_option_given(sc, sub + 1, 'e', o))
		return SLUICE_ALLOW;

	if (long_option_given(sc, sub + 1, "pathspec-from-file", 10, o))
		return sluice_verdict_add(
		        v, SLUICE_ASK,
		        "'git add --pathspec-from-file' takes its paths from a file "
		        "that is only read when it runs: it may add everything",
		        "add the files you changed by name: git add path/to/file ...");
	const char *why = NULL; /* the option or pathspec that names everything */
	for (size_t k = 0; k < sizeof(blind_long) / sizeof(blind_long[0]) && !why; k++)
		why = long_option_given(sc, sub + 1, blind_long[k].name, blind_long[k].min, o);
	if (!why && short_option_given(sc, sub + 1, 'A', o))
		why = "-A";
	bool by_option = why != NULL;
	bool dashdash = false;
	size_t positive = 0;
	const char *exclusion = NULL;
	for (size_t i = pathspec_next(sc, sub + 1, o, &dashdash); i && !why;
	     i = pathspec_next(sc, i + 1, o, &dashdash)) {
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
	/* only exclusions (":!vendor") mean "everything but these" to git;
	 * no pathspec at all is everything for -u */
	if (!why && exclusion && positive == 0)
		why = exclusion;
	const char *update = long_option_given(sc, sub + 1, "update", 1, o);
	if (!update && short_option_given(sc, sub + 1, 'u', o))
		update = "-u";
	int rule = update && !by_option ? RULE_TRACKED : RULE_BLIND;
	if (update && !by_option && !why && positive == 0)
		why = update;
	if (!why || st->verdict[rule] == SLUICE_ALLOW)
		return SLUICE_ALLOW;
	char words[128];
	if (why == update || rule == RULE_BLIND)
		snprintf(words, sizeof(words), "git add %s", why);
	else
		snprintf(words, sizeof(words), "git add %s %s", update, why);
	return refuse(st, rule, v, words, rule == RULE_BLIND ? stages_all : stages_tracked);
}

static int ga_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	return rule_state_open(host, settings, add_rules, N_ADD_RULES, ret_state);
}

static int ga_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	return check_each(state, cmd, v, check_one);
}

static const struct sluice_key keys[] = {
	ADD_RULES(RULE_KEY){ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "git_add",
	.description = "refuses blind adds (git add -A, --all, ., *, :/)",
	.keys = keys,
	.open = ga_open,
	.check = ga_check,
	.close = rule_state_close,
};
