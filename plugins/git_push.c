/* SPDX-License-Identifier: MIT */
/*
 * git_push: refuse force pushes -- `--force`, `-f` alone or in a cluster,
 * a `+refspec`, `--mirror` (and its abbreviations) -- under any git global
 * options, wrappers and nesting, and a force given by git -c (a mirror
 * remote, a forced refspec in remote.NAME.push); `--force-with-lease` and
 * `--force-if-includes` pass (with `--force`, a `+refspec` or a mirror
 * they still deny). Deleting a remote branch (`--delete`, `-d`, a refspec
 * `:BRANCH`, in remote.NAME.push too, `--prune`) asks. Options are read as git reads them: the
 * value of `-o`, `--repo` ... is never an option. Optional protected branches (key
 * protected_branch, glob patterns): any push or delete naming one is refused.
 * Not for: pushes without a refspec to a protected branch (the current
 * branch is not known before the command runs).
 */
#include <fnmatch.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "plugin-util.h"
#include "sluice/policy.h"

static const char *const push_names[] = { "push", NULL };

/* push options that take the next word as their value */
static const char *const push_options_with_value[] = { "--repo", "--receive-pack", "--exec",
	                                               "-o",     "--push-option",  NULL };

static const char *const suggestion =
        "push without force; if history really must be replaced, use "
        "git push --force-with-lease (it refuses to overwrite work you have not seen)";

static bool branch_protected(const struct sluice_settings *settings, const char *ref)
{
	if (strncmp(ref, "refs/heads/", 11) == 0)
		ref += 11;
	for (size_t i = 0; i < sluice_settings_count(settings); i++) {
		if (strcmp(sluice_settings_key(settings, i), "protected_branch") != 0)
			continue;
		if (fnmatch(sluice_settings_value(settings, i), ref, 0) == 0)
			return true;
	}
	return false;
}

static int deny(struct sluice_verdict *v, const char *what)
{
	char msg[256];
	snprintf(msg, sizeof(msg),
	         "force push ('%s'): it overwrites the remote branch and can destroy other "
	         "people's commits",
	         what);
	return sluice_verdict_add(v, SLUICE_DENY, msg, suggestion);
}

static int deny_protected(struct sluice_verdict *v, const char *branch)
{
	char msg[256];
	snprintf(msg, sizeof(msg), "'%s' is a protected branch: pushing to it is not allowed here",
	         branch);
	return sluice_verdict_add(v, SLUICE_DENY, msg,
	                          "push to a feature branch and open a merge request");
}

static int ask_delete(struct sluice_verdict *v, const char *ref)
{
	char msg[256];
	snprintf(msg, sizeof(msg),
	         "the push deletes the remote branch or tag '%s', and with it what only it holds",
	         ref);
	return sluice_verdict_add(v, SLUICE_ASK, msg,
	                          "ask the user before deleting a remote branch, naming it");
}

/* Is the config value one git reads as false? */
static bool config_false(const char *value)
{
	static const char *const no[] = { "false", "no", "off", "0" };
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (strcasecmp(value, no[i]) == 0)
			return true;
	return false;
}

/* A force given through git's own -c before the subcommand: a mirror
 * remote (remote.NAME.mirror, true when it has no value) or a forced
 * refspec in remote.NAME.push. Returns the -c value, or NULL; a refspec
 * there with no source (":main", a delete) into *deleting. */
static const char *forced_by_config(const struct sluice_simple_command *sc, size_t sub,
                                    const char **deleting)
{
	*deleting = NULL;
	for (size_t i = 1; i + 1 < sub; i++) {
		const char *a = sluice_arg(sc, i);
		const char *kv = strcmp(a, "-c") == 0       ? sluice_arg(sc, ++i)
		                 : strncmp(a, "-c", 2) == 0 ? a + 2
		                                            : NULL;
		if (!kv || strncasecmp(kv, "remote.", 7) != 0)
			continue;
		const char *eq = strchr(kv, '=');
		const char *key_end = eq ? eq : kv + strlen(kv);
		const char *dot = key_end;
		while (dot > kv && dot[-1] != '.')
			dot--;
		size_t key_len = (size_t)(key_end - dot);
		if (key_len == 6 && strncasecmp(dot, "mirror", 6) == 0 &&
		    (!eq || !config_false(eq + 1)))
			return kv;
		bool push = key_len == 4 && strncasecmp(dot, "push", 4) == 0 && eq;
		if (push && eq[1] == '+')
			return kv;
		if (push && eq[1] == ':' && eq[2])
			*deleting = eq + 2;
	}
	return NULL;
}

static int check_one(const void *state, const struct sluice_simple_command *sc,
                     struct sluice_verdict *v)
{
	const struct sluice_settings *settings = state;
	size_t sub = git_subcommand_is(sc, push_names);
	if (!sub)
		return SLUICE_ALLOW;
	/* --dry-run (-n in any cluster) sends nothing: it shows what would go */
	const char *dry = long_option_given(sc, sub + 1, "dry-run", 3, push_options_with_value);
	if ((dry && !strchr(dry, '=')) ||
	    short_option_given(sc, sub + 1, 'n', push_options_with_value))
		return SLUICE_ALLOW; /* (git takes no value there: --dry-run=x is no dry run) */
	const char *config_delete;
	const char *config_force = forced_by_config(sc, sub, &config_delete);
	if (config_force)
		return deny(v, config_force);
	const char *const *o = push_options_with_value;
	if (long_option_given(sc, sub + 1, "force", 5, o))
		return deny(v, "--force");
	if (short_option_given(sc, sub + 1, 'f', o))
		return deny(v, "-f");
	bool deleting = long_option_given(sc, sub + 1, "delete", 3, o) ||
	                short_option_given(sc, sub + 1, 'd', o);
	/* --prune deletes every remote branch that has no local one */
	const char *prune = long_option_given(sc, sub + 1, "prune", 3, o);
	bool dashdash = false;
	size_t positional = 0;
	int verdict = SLUICE_ALLOW;
	for (size_t i = sub + 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (!dashdash && strcmp(a, "--") == 0) {
			dashdash = true;
			continue;
		}
		if (!dashdash && a[0] == '-') {
			if (long_option_spells(a, "mirror", 2)) /* "--mirr" too */
				return deny(v, "--mirror");
			if (option_takes_next(a, o))
				i++;
			continue;
		}
		if (positional++ == 0)
			continue; /* the remote */
		if (a[0] == '+')
			return deny(v, a);
		/* the destination of a refspec: after ':' or the whole of it */
		const char *colon = strrchr(a, ':');
		const char *dst = colon ? colon + 1 : a;
		if (*dst && branch_protected(settings, dst))
			return deny_protected(v, dst);
		if (deleting && branch_protected(settings, a))
			return deny_protected(v, a);
		/* --delete REF, or a refspec with no source (":main") */
		if (deleting || (colon == a && *dst))
			verdict = ask_delete(v, *dst ? dst : a);
	}
	if (verdict == SLUICE_ALLOW && config_delete)
		return branch_protected(settings, config_delete) ? deny_protected(v, config_delete)
		                                                 : ask_delete(v, config_delete);
	if (verdict == SLUICE_ALLOW && prune)
		return sluice_verdict_add(
		        v, SLUICE_ASK,
		        "'git push --prune' deletes every remote branch that has no "
		        "local branch of its name, and with it what only it holds",
		        "push the branches you mean by name, without --prune");
	return verdict;
}

static int gp_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	return check_each(state, cmd, v, check_one);
}

static const struct sluice_key keys[] = {
	{ "protected_branch", SLUICE_KEY_REPEATABLE },
	{ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "git_push",
	.description = "refuses force pushes and pushes to protected branches",
	.keys = keys,
	.open = open_keep_settings,
	.check = gp_check,
};
