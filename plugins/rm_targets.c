/* SPDX-License-Identifier: MIT */
/*
 * rm_targets: refuse a recursive rm (any spelling: -r, -R, -rf, -fR,
 * --recursive and its abbreviations, with or without -f, targets after --)
 * of the root, the home directory ($HOME, ${HOME}, "$HOME", ~), the system
 * directories (/usr, /etc, /var ... and everything in them: rule
 * system_dirs), a .git directory, everything in the current directory (a
 * star, dot-star, ./star, ., and globs that expand as those do: ?*, [!.]*,
 * .??*, .g*), its parent (..), the working directory itself ($PWD, $(pwd),
 * ~+), what a variable's default stands for (${X:-/}), and the paths the
 * administrator lists (key protect, glob patterns). A literal cd earlier in
 * the list is followed: `cd ~ && rm -rf *` names the home directory. A
 * target that names one of these when a variable in it is empty
 * (`rm -rf "$DIR/"`), and the command neither sets nor guards it, asks
 * (rule unset_variable).
 * rimraf (also as npx rimraf) is a recursive rm.
 * Not for: non-recursive rm, or other deleting commands (find -delete is
 * system_trees').
 */
#include <fnmatch.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "path-targets.h"
#include "plugin-util.h"
#include "sluice/policy.h"
#include "unset-vars.h"

/* The rules an administrator can switch (deny, ask, or allow: off). */
#define RM_RULES(X)                                \
	X(SYSTEM_DIRS, "system_dirs", SLUICE_DENY) \
	X(UNSET_VARIABLE, "unset_variable", SLUICE_ASK)

enum { RM_RULES(RULE_ENUM) N_RM_RULES };
static const struct rule_switch rm_rules[] = { RM_RULES(RULE_SWITCH) };

static bool is_recursive(const struct sluice_simple_command *sc)
{
	/* GNU rm takes any unambiguous prefix: --r, --re, ... --recursive */
	return sluice_has_short_flag(sc, 1, 'r') || sluice_has_short_flag(sc, 1, 'R') ||
	       long_option_prefix(sc, 1, "recursive", 1);
}

/* What the target names when it is one of the forbidden ones in or around
 * the current directory, else NULL (the root and home are system_tree()'s). */
static const char *forbidden_here(const char *t)
{
	static const struct {
		const char *path, *what;
	} table[] = {
		{ "*", "everything in the current directory" },
		{ ".*", "the hidden files of the current directory" },
		{ ".", "the current directory" },
		{ "..", "the parent directory" },
		{ "../*", "everything in the parent directory" },
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(t, table[i].path) == 0)
			return table[i].what;
	const char *last = strrchr(t, '/');
	last = last ? last + 1 : t;
	if (strcmp(last, ".git") == 0)
		return "a git repository's history (.git)";
	/* inside it: everything (.git/ star), the objects or the refs; what
	 * git leaves behind (.git/rebase-merge, index.lock) may go */
	const char *git = strstr(t, ".git/");
	if (git && (git == t || git[-1] == '/')) {
		static const char *const history[] = { "*", "objects", "refs", "logs", NULL };
		char first[PATH_CAP];
		snprintf(first, sizeof(first), "%s", git + 5);
		first[strcspn(first, "/")] = '\0';
		if (str_in(first, history))
			return "a git repository's history (.git)";
	}
	/* what is left climbing after path_collapse(): "../..", "~/.." */
	if (strcmp(last, "..") == 0)
		return "a directory above a named one";
	return NULL;
}

/* The rule over one path (path_rule_fn): the root, home and the
 * forbidden ones deny, the system directories as system_dirs says, and
 * the administrator's protected paths deny. */
static int rm_path_rule(const void *ctx, const char *t, const char **ret_what)
{
	const struct rule_state *st = ctx;
	enum tree_kind kind = system_tree(t, ret_what);
	if (kind == TREE_ROOT || kind == TREE_HOME)
		return SLUICE_DENY;
	if (kind == TREE_SYSTEM && st->verdict[RULE_SYSTEM_DIRS] != SLUICE_ALLOW)
		return st->verdict[RULE_SYSTEM_DIRS];
	*ret_what = forbidden_here(t);
	if (*ret_what)
		return SLUICE_DENY;
	for (size_t i = 0; i < sluice_settings_count(st->settings); i++)
		if (strcmp(sluice_settings_key(st->settings, i), "protect") == 0 &&
		    fnmatch(sluice_settings_value(st->settings, i), t, 0) == 0) {
			*ret_what = "a path the administrator protects";
			return SLUICE_DENY;
		}
	return SLUICE_ALLOW;
}

static const char *const suggestion = "remove the specific files or build directories by name "
                                      "(rm -r build/), never a whole tree";

static int refuse(struct sluice_verdict *v, const char *target, const struct path_finding *f,
                  const char *cwd)
{
	char msg[512];
	if (f->after_cd)
		snprintf(msg, sizeof(msg), "recursive rm of '%s' after 'cd %s' removes %s", target,
		         cwd, f->what);
	else
		snprintf(msg, sizeof(msg), "recursive rm of '%s' removes %s", target, f->what);
	return sluice_verdict_add(v, f->verdict, msg, suggestion);
}

static int refuse_unset(struct sluice_verdict *v, const char *target, const char *name,
                        const struct path_finding *f, int verdict)
{
	char msg[512], sugg[256];
	snprintf(msg, sizeof(msg), "recursive rm of '%s' removes %s when $%s is unset or empty",
	         target, f->what, name);
	snprintf(sugg, sizeof(sugg),
	         "write \"${%s:?}\" (the shell stops when it is unset or empty), or set it "
	         "earlier in the command",
	         name);
	return sluice_verdict_add(v, verdict, msg, sugg);
}

/* Judge one target of the rm that is command i of cmd. */
static int check_target(const struct rule_state *st, const struct sluice_command *cmd, size_t i,
                        const char *a, struct sluice_verdict *v)
{
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	struct path_finding f;
	if (!operand_judge(sc, a, rm_path_rule, st, &f))
		return sluice_verdict_add(v, SLUICE_ASK, "recursive rm of a path too long to judge",
		                          "name a shorter path");
	if (f.verdict != SLUICE_ALLOW)
		return refuse(v, a, &f, sluice_cwd(sc));
	int unset_verdict = st->verdict[RULE_UNSET_VARIABLE];
	if (unset_verdict == SLUICE_ALLOW || !strchr(a, '$'))
		return SLUICE_ALLOW;
	/* what it is when a variable it cannot count on is empty: defaults
	 * first ("${D:-build}" stands for build) */
	char defaulted[PATH_CAP], empty[PATH_CAP], name[VAR_NAME_CAP];
	const char *w = param_default(a, defaulted, sizeof(defaulted)) ? defaulted : a;
	if (!var_empty_form(cmd, i, w, empty, sizeof(empty), name) || !empty[0])
		return SLUICE_ALLOW; /* rm -rf "" removes nothing */
	if (path_judge(sc, empty, rm_path_rule, st, &f) && f.verdict != SLUICE_ALLOW)
		return refuse_unset(v, a, name, &f, unset_verdict);
	return SLUICE_ALLOW;
}

static int check_one(const void *state, const struct sluice_command *cmd, size_t i,
                     struct sluice_verdict *v)
{
	const struct rule_state *st = state;
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	/* rimraf (npx rimraf, as npm scripts run it) removes trees always */
	bool rimraf = strcmp(sluice_name(sc), "rimraf") == 0;
	if (!rimraf && (strcmp(sluice_name(sc), "rm") != 0 || !is_recursive(sc)))
		return SLUICE_ALLOW;
	int verdict = SLUICE_ALLOW;
	bool dashdash = false;
	for (size_t k = 1; k < sluice_argc(sc); k++) {
		const char *a = sluice_arg(sc, k);
		if (!dashdash && strcmp(a, "--") == 0) {
			dashdash = true;
			continue;
		}
		if (!dashdash && a[0] == '-' && a[1])
			continue;
		int r = check_target(st, cmd, i, a, v);
		if (r > verdict)
			verdict = r;
	}
	return verdict;
}

static int rt_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	return rule_state_open(host, settings, rm_rules, N_RM_RULES, ret_state);
}

static int rt_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	return check_each_at(state, cmd, v, check_one);
}

static const struct sluice_key keys[] = {
	{ "protect", SLUICE_KEY_REPEATABLE },
	RM_RULES(RULE_KEY){ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "rm_targets",
	.description = "refuses recursive rm of /, ~, system directories, .git, *, .., the working "
	               "directory; asks when an unset variable would make it one",
	.keys = keys,
	.open = rt_open,
	.check = rt_check,
	.close = rule_state_close,
};
