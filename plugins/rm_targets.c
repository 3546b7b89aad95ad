/* SPDX-License-Identifier: MIT */
/*
 * rm_targets: refuse a recursive rm (any spelling: -r, -R, -rf, -fR,
 * --recursive and its abbreviations, with or without -f, targets after --)
 * of the root, the home directory ($HOME, ${HOME}, "$HOME", ~), a .git
 * directory, everything in the current directory (a star, dot-star, ./star,
 * ., and globs that expand as those do: ?*, [!.]*, .??*, .g*), its parent
 * (..), the working directory itself ($PWD, $(pwd), ~+), what a variable's
 * default stands for (${X:-/}), and the paths the administrator lists (key
 * protect, glob patterns). A literal cd earlier in the list is followed:
 * `cd ~ && rm -rf *` names the home directory.
 * Not for: non-recursive rm, or other deleting commands (find -delete).
 */
#include <fnmatch.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"

static bool is_recursive(const struct sluice_simple_command *sc)
{
	/* GNU rm takes any unambiguous prefix: --r, --re, ... --recursive */
	return sluice_has_short_flag(sc, 1, 'r') || sluice_has_short_flag(sc, 1, 'R') ||
	       long_option_prefix(sc, 1, "recursive", 1);
}

/* What the target names when it is one of the forbidden ones as written,
 * else NULL. */
static const char *forbidden_as_written(const char *t)
{
	static const struct {
		const char *path, *what;
	} table[] = {
		{ "/", "the root directory" },
		{ "/*", "everything under the root directory" },
		{ "~", "your home directory" },
		{ "~/*", "everything in your home directory" },
		{ "~/.*", "the hidden files of your home directory" },
		{ "*", "everything in the current directory" },
		{ ".*", "the hidden files of the current directory" },
		{ ".", "the current directory" },
		{ "..", "the parent directory" },
		{ "../*", "everything in the parent directory" },
		{ "/.*", "the hidden files of the root directory" },
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(t, table[i].path) == 0)
			return table[i].what;
	const char *last = strrchr(t, '/');
	last = last ? last + 1 : t;
	if (strcmp(last, ".git") == 0)
		return "a git repository's history (.git)";
	/* what is left climbing after path_collapse(): "../..", "~/.." */
	if (strcmp(last, "..") == 0)
		return "a directory above a named one";
	return NULL;
}

/* What the target names when it is one of the forbidden ones, as written
 * or as its glob expands, else NULL. */
static const char *forbidden(const char *t)
{
	const char *what = forbidden_as_written(t);
	char globbed[PATH_CAP];
	if (!what && glob_spelling(t, globbed, sizeof(globbed)))
		what = forbidden_as_written(globbed);
	return what;
}

static bool protected_by_admin(const struct sluice_settings *settings, const char *t)
{
	for (size_t i = 0; i < sluice_settings_count(settings); i++)
		if (strcmp(sluice_settings_key(settings, i), "protect") == 0 &&
		    fnmatch(sluice_settings_value(settings, i), t, 0) == 0)
			return true;
	return false;
}

static int refuse(struct sluice_verdict *v, const char *target, const char *what, const char *cwd)
{
	char msg[512];
	if (cwd)
		snprintf(msg, sizeof(msg), "recursive rm of '%s' after 'cd %s' removes %s", target,
		         cwd, what);
	else
		snprintf(msg, sizeof(msg), "recursive rm of '%s' removes %s", target, what);
	return sluice_verdict_add(v, SLUICE_DENY, msg,
	                          "remove the specific files or build directories by name "
	                          "(rm -r build/), never a whole tree");
}

/* Copy into out the default of the ${NAME:-WORD} (or ${NAME-WORD},
 * ${NAME:=WORD}, ${NAME=WORD}) at src, its quotes removed; *end is past its
 * '}'. False when src is no such expansion. */
static bool one_default(const char *src, char *out, size_t size, size_t *o, const char **end)
{
	static const char name_bytes[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                                 "0123456789_@*";
	if (src[0] != '$' || src[1] != '{')
		return false;
	const char *p = src + 2 + strspn(src + 2, name_bytes);
	if (p == src + 2)
		return false;
	if (*p == ':')
		p++;
	if (*p != '-' && *p != '=')
		return false;
	const char *e = ++p;
	for (int depth = 1; *e; e++) {
		if (e[0] == '$' && e[1] == '{') {
			depth++;
			e++;
		} else if (*e == '}' && --depth == 0) {
			break;
		}
	}
	if (*e != '}')
		return false;
	for (; p < e && *o + 1 < size; p++)
		if (*p != '"' && *p != '\'')
			out[(*o)++] = *p;
	*end = e + 1;
	return true;
}

/* What a target stands for when the variables in it are not set: every
 * ${X:-WORD} (or ${X-WORD}, ${X:=WORD}, ${X=WORD}, $1 and $@ too) replaced
 * by WORD, nested ones as well: "${X:-/}", "/${X:-}", "${A:-${B:-~}}".
 * False when the target has none. */
static bool param_default(const char *arg, char *out, size_t size)
{
	char cur[PATH_CAP], next[PATH_CAP];
	snprintf(cur, sizeof(cur), "%s", arg);
	bool any = false;
	for (int round = 0; round < 8; round++) {
		bool changed = false;
		size_t o = 0;
		for (const char *c = cur; *c && o + 1 < sizeof(next);) {
			const char *end;
			if (one_default(c, next, sizeof(next), &o, &end)) {
				c = end;
				changed = true;
			} else {
				next[o++] = *c++;
			}
		}
		next[o] = '\0';
		if (!changed)
			break;
		any = true;
		memcpy(cur, next, o + 1);
	}
	if (any)
		snprintf(out, size, "%s", cur);
	return any;
}

/* Judge target text (arg, or what arg stands for) in the message as arg. */
static int check_target(const struct sluice_settings *settings,
                        const struct sluice_simple_command *sc, const char *arg, const char *text,
                        struct sluice_verdict *v)
{
	char t[PATH_CAP];
	if (!path_normalise(text, t, sizeof(t)))
		return sluice_verdict_add(v, SLUICE_ASK, "recursive rm of a path too long to judge",
		                          "name a shorter path");
	path_collapse(t);
	/* a literal cd before it: judge the path it really names first */
	const char *cwd = sluice_cwd(sc);
	if (cwd && t[0] != '/' && t[0] != '~') {
		char c[PATH_CAP], joined[PATH_CAP * 2 + 2], j[PATH_CAP];
		(void)path_normalise(cwd, c, sizeof(c));
		snprintf(joined, sizeof(joined), "%s/%s", c, t);
		(void)path_normalise(joined, j, sizeof(j));
		path_collapse(j);
		const char *what = forbidden(j);
		if (what && strcmp(c, ".") != 0)
			return refuse(v, arg, what, cwd);
		if (protected_by_admin(settings, j))
			return refuse(v, arg, "a path the administrator protects", cwd);
	}
	const char *what = forbidden(t);
	if (what)
		return refuse(v, arg, what, NULL);
	if (protected_by_admin(settings, t))
		return refuse(v, arg, "a path the administrator protects", NULL);
	return SLUICE_ALLOW;
}

static int check_one(const void *state, const struct sluice_simple_command *sc,
                     struct sluice_verdict *v)
{
	const struct sluice_settings *settings = state;
	if (strcmp(sluice_name(sc), "rm") != 0 || !is_recursive(sc))
		return SLUICE_ALLOW;
	int verdict = SLUICE_ALLOW;
	bool dashdash = false;
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (!dashdash && strcmp(a, "--") == 0) {
			dashdash = true;
			continue;
		}
		if (!dashdash && a[0] == '-' && a[1])
			continue;
		int r = check_target(settings, sc, a, a, v);
		char unset[PATH_CAP];
		if (r == SLUICE_ALLOW && param_default(a, unset, sizeof(unset)))
			r = check_target(settings, sc, a, unset, v);
		if (r > verdict)
			verdict = r;
	}
	return verdict;
}

static int rt_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	return check_each(state, cmd, v, check_one);
}

static const struct sluice_key keys[] = {
	{ "protect", SLUICE_KEY_REPEATABLE },
	{ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin sluice_policy_plugin = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "rm_targets",
	.description = "refuses recursive rm of /, ~, $HOME, .git, *, .., the working directory",
	.keys = keys,
	.open = open_keep_settings,
	.check = rt_check,
};
