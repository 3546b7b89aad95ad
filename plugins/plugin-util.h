/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by the built-in plugins, compiled into each plugin's
 * object (static inline: every plugin stays one self-contained file that
 * defines nothing but its descriptor). Only the public ABI (sluice/policy.h)
 * is used here.
 * Not for: anything a third-party plugin could not write itself.
 */
#ifndef SLUICE_PLUGIN_UTIL_H
#define SLUICE_PLUGIN_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "sluice/policy.h"

/* git's global options that take the next word as their value. */
static const char *const git_global_options_with_value[] = {
	"-C",           "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
	"--config-env", NULL,
};

/* The index of git's subcommand word when sc runs git and its subcommand is
 * one of names (NULL-terminated); 0 otherwise. */
static inline size_t git_subcommand_is(const struct sluice_simple_command *sc,
                                       const char *const *names)
{
	if (strcmp(sluice_name(sc), "git") != 0)
		return 0;
	size_t i = sluice_subcommand(sc, git_global_options_with_value);
	if (!i)
		return 0;
	const char *sub = sluice_arg(sc, i);
	for (const char *const *n = names; *n; n++)
		if (strcmp(sub, *n) == 0)
			return i;
	return 0;
}

/* The size of a path buffer of the helpers below; longer text is cut. */
#define PATH_CAP 1024

/* Normalise a path argument's text: $HOME / ${HOME} -> ~, $PWD / ${PWD} /
 * $(pwd) / `pwd` / ~+ -> ".", repeated slashes folded, "/./" folded, "./"
 * prefixes and trailing "/" and "/." removed. Lexical only: ".." stays. */
static inline void path_normalise(const char *in, char *out, size_t size)
{
	static const struct {
		const char *from, *to;
	} vars[] = {
		{ "${HOME}", "~" }, { "$HOME", "~" }, { "${PWD}", "." }, { "$PWD", "." },
		{ "$(pwd)", "." },  { "`pwd`", "." }, { "~+", "." },
	};
	char tmp[PATH_CAP];
	snprintf(tmp, sizeof(tmp), "%s", in);
	for (size_t v = 0; v < sizeof(vars) / sizeof(vars[0]); v++) {
		size_t n = strlen(vars[v].from);
		if (strncmp(tmp, vars[v].from, n) == 0 && (tmp[n] == '\0' || tmp[n] == '/')) {
			char rest[PATH_CAP];
			snprintf(rest, sizeof(rest), "%s", tmp + n);
			snprintf(tmp, sizeof(tmp), "%s%s", vars[v].to, rest);
			break;
		}
	}
	/* fold slashes */
	size_t o = 0;
	for (size_t i = 0; tmp[i] && o + 1 < size; i++) {
		if (tmp[i] == '/' && o > 0 && out[o - 1] == '/')
			continue;
		out[o++] = tmp[i];
	}
	out[o] = '\0';
	/* "/./" inside is "/" */
	for (char *dot; (dot = strstr(out, "/./"));)
		memmove(dot, dot + 2, strlen(dot + 2) + 1);
	/* trailing "/." and "/" (but keep a lone "/") */
	for (;;) {
		size_t n = strlen(out);
		if (n > 1 && out[n - 1] == '/')
			out[n - 1] = '\0';
		else if (n >= 2 && out[n - 1] == '.' && out[n - 2] == '/')
			out[n > 2 ? n - 2 : 1] = '\0';
		else
			break;
	}
	while (strncmp(out, "./", 2) == 0 && out[2])
		memmove(out, out + 2, strlen(out + 2) + 1);
}

/* Resolve ".." in an absolute normalised path lexically, in place:
 * "/dev/../dev/sda" is "/dev/sda" ("/.." is "/"). */
static inline void path_resolve_dots(char *t)
{
	if (t[0] != '/')
		return;
	size_t o = 0; /* t[0..o) is the resolved part, without a trailing '/' */
	for (const char *c = t + 1; *c;) {
		size_t n = strcspn(c, "/");
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			while (o > 0 && t[o - 1] != '/')
				o--;
			if (o > 0)
				o--; /* and the '/' before the component */
		} else if (n > 0 && !(n == 1 && c[0] == '.')) {
			t[o++] = '/';
			memmove(t + o, c, n);
			o += n;
		}
		c += n;
		if (*c == '/')
			c++;
	}
	if (o == 0)
		o = 1; /* the root */
	t[o] = '\0';
}

/* Does a relative normalised path name the current directory or one above
 * it, once each "dir/.." cancels ("src/..", "..", "a/../..")? */
static inline bool path_climbs_only(const char *t)
{
	if (t[0] == '/' || t[0] == '~')
		return false;
	size_t depth = 0; /* named components not yet cancelled */
	for (const char *c = t; *c;) {
		size_t n = strcspn(c, "/");
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			if (depth > 0)
				depth--;
		} else if (!(n == 1 && c[0] == '.') && n > 0) {
			depth++;
		}
		c += n;
		if (*c == '/')
			c++;
	}
	return depth == 0;
}

/* git takes any unambiguous prefix of a long option ("--al" is --all): the
 * first word at index >= from, before "--", that is "--" and at least min
 * bytes of name (given without its dashes), alone or with "=value"; NULL
 * when there is none. */
static inline const char *git_long_option_prefix(const struct sluice_simple_command *sc,
                                                 size_t from, const char *name, size_t min)
{
	size_t n = strlen(name);
	for (size_t i = from; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "--") == 0)
			break;
		if (a[0] != '-' || a[1] != '-')
			continue;
		size_t len = strcspn(a + 2, "=");
		if (len >= min && len <= n && strncmp(a + 2, name, len) == 0)
			return a;
	}
	return NULL;
}

static inline bool str_in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

/* Parse "deny" / "ask" / "allow"; -1 for anything else. */
static inline int verdict_from_word(const char *w)
{
	static const char *const words[] = { "allow", "ask", "deny" };
	for (int i = 0; i < 3; i++)
		if (w && strcmp(w, words[i]) == 0)
			return i;
	return -1;
}

/* Read the verdict word setting key into *ret (def when not set; the last
 * one when repeated); a word below min is reported on its setting and gives
 * -EINVAL. */
static inline int read_choice(const struct sluice_settings *s, const char *key, int def, int min,
                              int *ret)
{
	*ret = def;
	for (size_t i = 0; i < sluice_settings_count(s); i++) {
		if (strcmp(sluice_settings_key(s, i), key) != 0)
			continue;
		int c = verdict_from_word(sluice_settings_value(s, i));
		if (c < min) {
			sluice_settings_error(s, i,
			                      min == SLUICE_ASK ? "expected ask or deny"
			                                        : "expected allow, ask or deny");
			return -EINVAL;
		}
		*ret = c;
	}
	return 0;
}

/* open() of a plugin whose only state is its settings: the state is the
 * settings handle itself (valid until close). */
static inline int open_keep_settings(const struct sluice_host *host,
                                     const struct sluice_settings *settings, void **ret_state)
{
	sluice_init(host);
	*ret_state = (void *)settings;
	return 0;
}

/* A check of one simple command; state is what open() made. */
typedef int (*check_one_fn)(const void *state, const struct sluice_simple_command *sc,
                            struct sluice_verdict *v);

/* The highest verdict of fn over every simple command of cmd. */
static inline int check_each(const void *state, const struct sluice_command *cmd,
                             struct sluice_verdict *v, check_one_fn fn)
{
	int verdict = SLUICE_ALLOW;
	for (size_t i = 0; i < sluice_command_count(cmd); i++) {
		int r = fn(state, sluice_command_get(cmd, i), v);
		if (r < 0)
			return r;
		if (r > verdict)
			verdict = r;
	}
	return verdict;
}

#endif
