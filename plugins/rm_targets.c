/* SPDX-License-Identifier: MIT */
/*
 * rm_targets: refuse a recursive rm (any spelling: -r, -R, -rf, -fR,
 * --recursive and its abbreviations, with or without -f, targets after --)
 * of the root, the home directory ($HOME, ${HOME}, "$HOME", ~), the system
 * directories (/usr, /etc, /var ... and everything in them: rule
 * system_dirs), a .git directory (or its objects, refs, logs), keys and
 * credentials (~/.ssh, ~/.aws ...) and a home directory's configuration
 * (~/.bashrc, ~/.config; path-targets.h's guarded_path(), the notion every
 * destroying tool shares), everything in the current directory (a
 * star, dot-star, ./star, ., and globs that expand as those do: ?*, [!.]*,
 * .??*, .g*), its parent (..), the working directory itself ($PWD, $(pwd),
 * ~+), what a variable's default stands for (${X:-/}), and the paths the
 * administrator lists (key protect, glob patterns). A literal cd earlier in
 * the list is followed: `cd ~ && rm -rf *` names the home directory. A
 * target that names one of these when a variable in it is empty
 * (`rm -rf "$DIR/"`), and the command neither sets nor guards it, asks
 * (rule unset_variable); so does a target that only exists when the
 * command runs: `"$(cat list)"`, a variable filled by read, what an xargs
 * reads (rule run_time_target, run-time-values.h).
 * rimraf and del-cli (also as npx rimraf, npx del-cli) are a recursive rm.
 * Not for: non-recursive rm, or other destroying commands (find -delete is
 * system_trees', truncate, shred, unlink, `>` ... are file_targets').
 */
#include <fnmatch.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "copied-values.h"
#include "path-targets.h"
#include "plugin-util.h"
#include "run-time-values.h"
#include "sluice/policy.h"
#include "unset-vars.h"

/* The rules an administrator can switch (deny, ask, or allow: off). */
#define RM_RULES(X)                                     \
	X(SYSTEM_DIRS, "system_dirs", SLUICE_DENY)      \
	X(UNSET_VARIABLE, "unset_variable", SLUICE_ASK) \
	X(RUN_TIME_TARGET, "run_time_target", SLUICE_ASK)

enum { RM_RULES(RULE_ENUM) N_RM_RULES };
static const struct rule_switch rm_rules[] = { RM_RULES(RULE_SWITCH) };

static bool is_recursive(const struct sluice_simple_command *sc)
{
	/* GNU rm takes any unambiguous prefix: --r, --re, ... --recursive */
	return sluice_has_short_flag(sc, 1, 'r') || sluice_has_short_flag(sc, 1, 'R') ||
	       long_option_prefix(sc, 1, "recursive", 1);
}

/* The rule over one path (path_rule_fn): the root, home, the working
 * tree and what guarded_path() guards (keys, dotfiles, .git) deny, the system directories as system_dirs says, and
 * the administrator's protected paths deny. */
static int rm_path_rule(const void *ctx, const char *t, const char **ret_what)
{
	const struct rule_state *st = ctx;
	enum tree_kind kind = system_tree(t, ret_what);
	if (kind == TREE_ROOT || kind == TREE_HOME)
		return SLUICE_DENY;
	if (kind == TREE_SYSTEM && st->verdict[RULE_SYSTEM_DIRS] != SLUICE_ALLOW)
		return st->verdict[RULE_SYSTEM_DIRS];
	*ret_what = working_tree(t);
	if (*ret_what || guarded_path(t, true, ret_what) != GUARDED_NONE)
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

static const char *const run_time_suggestion =
        "list what it would remove first (echo or ls the same words), then remove those "
        "directories by name";

/* A target only known when the command runs (run-time-values.h; NULL:
 * what an xargs appends): source says where it comes from ("what read
 * reads"). */
static int refuse_run_time(struct sluice_verdict *v, const char *target, const char *source,
                           int verdict)
{
	char msg[512];
	if (target)
		snprintf(msg, sizeof(msg),
		         "recursive rm of '%s' removes %s, which is only known when it runs",
		         target, source);
	else
		snprintf(msg, sizeof(msg),
		         "recursive rm under xargs removes %s, which is only known when it runs",
		         source);
	return sluice_verdict_add(v, verdict, msg, run_time_suggestion);
}

/* Judge a, target shown of the rm that is command i of cmd, as written
 * (defaults of unset variables included: "${X:-/}"). */
static int check_path(const struct rule_state *st, const struct sluice_simple_command *sc,
                      const char *shown, const char *a, struct sluice_verdict *v)
{
	struct path_finding f;
	if (!operand_judge(sc, a, rm_path_rule, st, &f))
		return sluice_verdict_add(v, SLUICE_ASK, "recursive rm of a path too long to judge",
		                          "name a shorter path");
	if (f.verdict != SLUICE_ALLOW)
		return refuse(v, shown, &f, sluice_cwd(sc));
	return SLUICE_ALLOW;
}

/* Judge a as it stands when a variable in it that command i cannot count
 * on is empty (rule unset_variable). */
static int check_unset(const struct rule_state *st, const struct sluice_command *cmd, size_t i,
                       const char *shown, const char *a, struct sluice_verdict *v)
{
	int unset_verdict = st->verdict[RULE_UNSET_VARIABLE];
	if (unset_verdict == SLUICE_ALLOW || !strchr(a, '$'))
		return SLUICE_ALLOW;
	/* defaults first ("${D:-build}" stands for build) */
	char defaulted[PATH_CAP], empty[PATH_CAP], name[VAR_NAME_CAP];
	const char *w = param_default(a, defaulted, sizeof(defaulted)) ? defaulted : a;
	if (!var_empty_form(cmd, i, w, empty, sizeof(empty), name) || !empty[0])
		return SLUICE_ALLOW; /* rm -rf "" removes nothing */
	struct path_finding f;
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	if (path_judge(sc, empty, rm_path_rule, st, &f) && f.verdict != SLUICE_ALLOW)
		return refuse_unset(v, shown, name, &f, unset_verdict);
	return SLUICE_ALLOW;
}

/* Judge target k (word k) of the rm that is command i of cmd: as written,
 * whether it is only known when it runs, with its variables unset; then
 * the same with the copies in it replaced by the text they were given
 * (copied-values.h: `d=${1:-$HOME}; rm -rf "$d"` as `rm -rf
 * "${1:-$HOME}"`, `y=$x/; rm -rf "$y"` as `rm -rf "$x/"`). */
static int check_target(const struct rule_state *st, const struct sluice_command *cmd, size_t i,
                        size_t k, struct sluice_verdict *v)
{
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	const char *shown = sluice_arg(sc, k);
	char literal[PATH_CAP], copied[PATH_CAP];
	const char *a = path_operand(sc, k, literal, sizeof(literal));
	int verdict = check_path(st, sc, shown, a, v);
	if (verdict != SLUICE_ALLOW)
		return verdict;
	const char *source = st->verdict[RULE_RUN_TIME_TARGET] != SLUICE_ALLOW
	                             ? run_time_operand(cmd, i, k)
	                             : NULL;
	if (source)
		return refuse_run_time(v, shown, source, st->verdict[RULE_RUN_TIME_TARGET]);
	verdict = check_unset(st, cmd, i, shown, a, v);
	if (verdict != SLUICE_ALLOW || !copied_form(cmd, i, a, copied, sizeof(copied)))
		return verdict;
	verdict = check_path(st, sc, shown, copied, v);
	return verdict != SLUICE_ALLOW ? verdict : check_unset(st, cmd, i, shown, copied, v);
}

static int check_one(const void *state, const struct sluice_command *cmd, size_t i,
                     struct sluice_verdict *v)
{
	const struct rule_state *st = state;
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	/* rimraf and del-cli (npx rimraf, as npm scripts run them) remove
	 * trees always */
	static const char *const tree_removers[] = { "rimraf", "del-cli", "del", NULL };
	bool rimraf = str_in(sluice_name(sc), tree_removers);
	if (!rimraf && (strcmp(sluice_name(sc), "rm") != 0 || !is_recursive(sc)))
		return SLUICE_ALLOW;
	int verdict = SLUICE_ALLOW;
	if (st->verdict[RULE_RUN_TIME_TARGET] != SLUICE_ALLOW && run_time_xargs(cmd, i))
		verdict = refuse_run_time(v, NULL, "what xargs reads",
		                          st->verdict[RULE_RUN_TIME_TARGET]);
	bool dashdash = false;
	for (size_t k = 1; k < sluice_argc(sc); k++) {
		const char *a = sluice_arg(sc, k);
		if (!dashdash && strcmp(a, "--") == 0) {
			dashdash = true;
			continue;
		}
		if (!dashdash && a[0] == '-' && a[1])
			continue;
		int r = check_target(st, cmd, i, k, v);
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
