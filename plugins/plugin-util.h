/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by the built-in plugins, compiled into each plugin
 * (static inline: every plugin stays self-contained and exports nothing
 * but its descriptor). Only the public ABI (sluice/policy.h) is used here.
 * Not for: anything a third-party plugin could not write itself.
 */
#ifndef SLUICE_PLUGIN_UTIL_H
#define SLUICE_PLUGIN_UTIL_H

#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sluice/policy.h"

/*
 * The name of a built-in plugin's descriptor. The built-in plugins are
 * linked into one module, plugins/builtins.so (one dlopen a request, not
 * one each; in sluice itself when a one-shot request has them alone), each compiled with -DSLUICE_BUILTIN_NAME=NAME, so each
 * exports sluice_policy_plugin_NAME; compiled alone, a plugin exports
 * sluice_policy_plugin, as every third-party plugin does.
 */
#define SLUICE_BUILTIN_SYMBOL_(name) sluice_policy_plugin_##name
#define SLUICE_BUILTIN_SYMBOL(name) SLUICE_BUILTIN_SYMBOL_(name)
#ifdef SLUICE_BUILTIN_NAME
#define SLUICE_BUILTIN_DESCRIPTOR SLUICE_BUILTIN_SYMBOL(SLUICE_BUILTIN_NAME)
#else
#define SLUICE_BUILTIN_DESCRIPTOR sluice_policy_plugin
#endif

/* git's global options that take the next word as their value. */
static const char *const git_global_options_with_value[] = {
	"-C",           "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
	"--config-env", NULL,
};

/* The index of git's subcommand word when sc runs git (after its global
 * options); 0 otherwise. */
static inline size_t git_subcommand(const struct sluice_simple_command *sc)
{
	if (strcmp(sluice_name(sc), "git") != 0)
		return 0;
	return sluice_subcommand(sc, git_global_options_with_value);
}

/* The index of git's subcommand word when sc runs git and its subcommand is
 * one of names (NULL-terminated); 0 otherwise. */
static inline size_t git_subcommand_is(const struct sluice_simple_command *sc,
                                       const char *const *names)
{
	size_t i = git_subcommand(sc);
	if (!i)
		return 0;
	const char *sub = sluice_arg(sc, i);
	for (const char *const *n = names; *n; n++)
		if (strcmp(sub, *n) == 0)
			return i;
	return 0;
}

/* The size of a path buffer of the helpers below (PATH_MAX). */
#define PATH_CAP 4096

/* The length of the ${HOME...} that in begins with when it is the home
 * directory whenever HOME is set and not empty, as it is in any session:
 * ${HOME:?msg}, ${HOME?}, ${HOME:-word}, ${HOME-word}, ${HOME:=word},
 * ${HOME=word} (the word is for an unset HOME), ${HOME%/}, ${HOME%%/}.
 * 0 for anything else (${HOME}, read by the table, and ${HOME:+x},
 * ${HOME#...} ..., which are not). */
static inline size_t home_expansion_length(const char *in)
{
	if (strncmp(in, "${HOME", 6) != 0)
		return 0;
	const char *p = in + 6;
	if (strncmp(p, "%/}", 3) == 0)
		return 9;
	if (strncmp(p, "%%/}", 4) == 0)
		return 10;
	if (*p == ':')
		p++;
	if (*p != '?' && *p != '-' && *p != '=')
		return 0;
	for (int depth = 1; *++p;) {
		if (p[0] == '$' && p[1] == '{')
			depth++;
		else if (*p == '}' && --depth == 0)
			return (size_t)(p + 1 - in);
	}
	return 0;
}

/* Normalise a path argument's text into out: $HOME / ${HOME} -> ~ (and
 * the forms home_expansion_length() reads), $PWD /
 * ${PWD} / $(pwd) / `pwd` / ~+ -> ".", repeated slashes folded, "." parts
 * dropped ("./x", "a/./b", "x/."), a trailing "/" removed (a lone "/"
 * stays); ".." is left for path_collapse(). Folds as it reads, so that
 * "/dev////sda" of any length is "/dev/sda". False when the result does
 * not fit in size bytes (out is then cut: judge such a path unknown). */
static inline bool path_normalise(const char *in, char *out, size_t size)
{
	static const struct {
		const char *from, *to;
	} vars[] = {
		{ "${HOME}", "~" }, { "$HOME", "~" }, { "${PWD}", "." }, { "$PWD", "." },
		{ "$(pwd)", "." },  { "`pwd`", "." }, { "~+", "." },
	};
	size_t o = 0;
	bool fits = true;
#define PATH_PUT(ch)                     \
	do {                             \
		if (o + 1 < size)        \
			out[o++] = (ch); \
		else                     \
			fits = false;    \
	} while (0)
	const char *c = in;
	size_t home = home_expansion_length(in);
	if (home && (in[home] == '\0' || in[home] == '/')) {
		PATH_PUT('~');
		c = in + home;
	}
	for (size_t v = 0; v < sizeof(vars) / sizeof(vars[0]) && c == in; v++) {
		size_t n = strlen(vars[v].from);
		if (strncmp(in, vars[v].from, n) == 0 && (in[n] == '\0' || in[n] == '/')) {
			for (const char *t = vars[v].to; *t; t++)
				PATH_PUT(*t);
			c = in + n;
			break;
		}
	}
	for (; *c; c++) {
		bool at_start = o == 0 || out[o - 1] == '/';
		if (*c == '/' && o > 0 && out[o - 1] == '/')
			continue; /* "//" */
		if (*c == '.' && at_start && (c[1] == '/' || c[1] == '\0') &&
		    (o > 0 || c[1] == '/')) {
			if (c[1] == '/')
				c++; /* "./" at the start or "/./": both go */
			continue;
		}
		PATH_PUT(*c);
	}
#undef PATH_PUT
	if (size > 0)
		out[o] = '\0'; /* o < size: PATH_PUT keeps room for it */
	if (o > 1 && out[o - 1] == '/')
		out[--o] = '\0'; /* "x/" */
	if (o == 0 && in[0] && size > 1) {
		out[0] = '.'; /* "./" was the current directory */
		out[1] = '\0';
	}
	return fits;
}

/* Resolve "." and ".." in a normalised path lexically, in place: under "/"
 * a ".." of the root stays at the root ("/a/../../b" is "/b"), under "~" or
 * a relative path the ".." that cannot cancel a name stay ("~/x/../y" is
 * "~/y", "a/../../b" is "../b", "src/.." is "."). */
static inline void path_collapse(char *t)
{
	size_t anchor = 0; /* bytes kept as they are: "/", "~/" or "~" */
	if (t[0] == '/')
		anchor = 1;
	else if (t[0] == '~' && (t[1] == '/' || t[1] == '\0'))
		anchor = t[1] ? 2 : 1;
	size_t o = anchor; /* t[anchor..o) is the resolved part, no trailing '/' */
	size_t names = 0;  /* components in it that a ".." may cancel */
	const char *c = t + anchor;
	while (*c) {
		size_t n = strcspn(c, "/");
		bool dotdot = n == 2 && c[0] == '.' && c[1] == '.';
		if (dotdot && names > 0) {
			while (o > anchor && t[o - 1] != '/')
				o--;
			if (o > anchor)
				o--; /* and the '/' before it */
			names--;
		} else if (dotdot && anchor == 1 && t[0] == '/') {
			/* the root's parent is the root */
		} else if (n > 0 && !(n == 1 && c[0] == '.')) {
			if (o > anchor)
				t[o++] = '/';
			memmove(t + o, c, n);
			o += n;
			if (!dotdot)
				names++;
		}
		c += n;
		if (*c == '/')
			c++;
	}
	if (o == anchor && anchor == 2)
		o = 1; /* "~/" alone is "~" */
	if (o == 0) {
		t[o++] = '.';
	}
	t[o] = '\0';
}

/* Does a relative collapsed path name the current directory or one above
 * it ("." or "..", "../.." ...)? */
static inline bool path_climbs_only(const char *t)
{
	if (strcmp(t, ".") == 0)
		return true;
	for (const char *c = t; *c;) {
		size_t n = strcspn(c, "/");
		if (!(n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += n;
		if (*c == '/')
			c++;
	}
	return t[0] != '\0';
}

/* Does glob pattern match every one of names (NULL-terminated), as bash
 * matches a name (a leading dot only by a dot)? */
static inline bool glob_matches_all(const char *pattern, const char *const *names)
{
	for (; *names; names++)
		if (fnmatch(pattern, *names, FNM_PERIOD) != 0)
			return false;
	return true;
}

/* A glob in t's last component that expands as a star would ("?*",
 * "[!.]*", "**"), as a dot-star would (".[!.]*", ".??*"), or to a .git:
 * t with that component spelled "*", ".*" or ".git" in out; false when the
 * last component is no such glob. */
static inline bool glob_spelling(const char *t, char *out, size_t size)
{
	static const char *const names[] = { "a", "Z", "0", "_", "-", "~", "a.b", "Ab9", NULL };
	static const char *const hidden[] = { ".ab", ".ZZ", ".0x", "._x", ".a.b", ".config", NULL };
	const char *slash = strrchr(t, '/');
	const char *last = slash ? slash + 1 : t;
	if (!strpbrk(last, "*?["))
		return false;
	const char *as;
	if (fnmatch(last, ".git", FNM_PERIOD) == 0)
		as = ".git";
	else if (glob_matches_all(last, names))
		as = "*";
	else if (glob_matches_all(last, hidden))
		as = ".*";
	else
		return false;
	snprintf(out, size, "%.*s%s", (int)(last - t), t, as);
	return strcmp(out, t) != 0;
}

/* The higher of two verdicts (a negative one, an error, wins). */
static inline int worse(int a, int b)
{
	if (a < 0 || b < 0)
		return a < b ? a : b;
	return a > b ? a : b;
}

/* GNU getopt_long (git's parse-options too) takes any unambiguous prefix
 * of a long option ("--al" is --all, "--rec" --recursive): is word "--"
 * and at least min bytes of name (given without its dashes), alone or with
 * "=value"? */
static inline bool long_option_spells(const char *word, const char *name, size_t min)
{
	if (word[0] != '-' || word[1] != '-')
		return false;
	size_t len = strcspn(word + 2, "=");
	return len >= min && len <= strlen(name) && strncmp(word + 2, name, len) == 0;
}

static inline bool str_in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

/* Does the short option letter take a value, as options_with_value (NULL:
 * none) lists it ("-e")? */
static inline bool letter_takes_value(char letter, const char *const *options_with_value)
{
	const char word[3] = { '-', letter, '\0' };
	return options_with_value && str_in(word, options_with_value);
}

/* Does option word a take the next word as its value? a names one of
 * options_with_value ("-e", "--exclude"), or is a cluster of short
 * options ("-fdxe") whose first one that takes a value is its last letter:
 * getopt and git's parse-options read "-fdxe node_modules" as "-f -d -x -e
 * node_modules", and "-fenode_modules" as "-f -e node_modules" (the rest
 * of the cluster is the value, and the next word is not). */
static inline bool option_takes_next(const char *a, const char *const *options_with_value)
{
	if (!options_with_value)
		return false;
	if (str_in(a, options_with_value))
		return true;
	if (a[0] != '-' || a[1] == '-' || a[1] == '\0')
		return false;
	for (const char *c = a + 1; *c; c++)
		if (letter_takes_value(*c, options_with_value))
			return c[1] == '\0';
	return false;
}

/* Is the short option letter given at index >= from, before "--", as
 * getopt and git's parse-options read a command line: in a cluster, the
 * letters after one that takes a value are that value ("-fenode_modules"
 * gives -f and -e, not -n), and an option's value word is never read as
 * options ("-e -n" excludes "-n"). options_with_value lists the options
 * that take a value (option_takes_next()); NULL: none. */
static inline bool short_option_given(const struct sluice_simple_command *sc, size_t from,
                                      char letter, const char *const *options_with_value)
{
	for (size_t i = from; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "--") == 0)
			break;
		if (a[0] == '-' && a[1] != '-' && a[1] != '\0')
			for (const char *c = a + 1; *c; c++) {
				if (*c == letter)
					return true;
				if (letter_takes_value(*c, options_with_value))
					break;
			}
		if (option_takes_next(a, options_with_value))
			i++;
	}
	return false;
}

/* The first word at index >= from, before "--", that spells the long
 * option name as long_option_spells() says, the value words of
 * options_with_value (option_takes_next(); NULL: none) skipped; NULL when
 * there is none. */
static inline const char *long_option_given(const struct sluice_simple_command *sc, size_t from,
                                            const char *name, size_t min,
                                            const char *const *options_with_value)
{
	for (size_t i = from; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "--") == 0)
			break;
		if (long_option_spells(a, name, min))
			return a;
		if (option_takes_next(a, options_with_value))
			i++;
	}
	return NULL;
}

/* long_option_given() of a command none of whose options takes a value. */
static inline const char *long_option_prefix(const struct sluice_simple_command *sc, size_t from,
                                             const char *name, size_t min)
{
	return long_option_given(sc, from, name, min, NULL);
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

/* A check of command i of cmd; state is what open() made. */
typedef int (*check_at_fn)(const void *state, const struct sluice_command *cmd, size_t i,
                           struct sluice_verdict *v);

/* The highest verdict of fn over every simple command of cmd (the first
 * error stops it). */
static inline int check_each_at(const void *state, const struct sluice_command *cmd,
                                struct sluice_verdict *v, check_at_fn fn)
{
	int verdict = SLUICE_ALLOW;
	for (size_t i = 0; i < sluice_command_count(cmd); i++) {
		int r = fn(state, cmd, i, v);
		if (r < 0)
			return r;
		if (r > verdict)
			verdict = r;
	}
	return verdict;
}

/* A check of one simple command, for rules that need nothing around it. */
typedef int (*check_one_fn)(const void *state, const struct sluice_simple_command *sc,
                            struct sluice_verdict *v);

struct check_one_call {
	const void *state;
	check_one_fn fn;
};

static inline int check_one_at(const void *call, const struct sluice_command *cmd, size_t i,
                               struct sluice_verdict *v)
{
	const struct check_one_call *c = call;
	return c->fn(c->state, sluice_command_get(cmd, i), v);
}

/* The highest verdict of fn over every simple command of cmd. */
static inline int check_each(const void *state, const struct sluice_command *cmd,
                             struct sluice_verdict *v, check_one_fn fn)
{
	const struct check_one_call call = { state, fn };
	return check_each_at(&call, cmd, v, check_one_at);
}

/* A rule a plugin lets the administrator switch: the key of its
 * [plugin NAME] section, whose value is deny, ask or allow (the rule is
 * off), and its verdict when the key is not set. A plugin lists its rules
 * once, as X(ID, "key", SLUICE_DENY) lines of an X-macro, and expands it
 * with the three macros below into an enum, a rule_switch table and its
 * keys. */
struct rule_switch {
	const char *key;
	int verdict;
};
#define RULE_ENUM(id, key, verdict) RULE_##id,
#define RULE_SWITCH(id, key, verdict) { key, verdict },
#define RULE_KEY(id, key, verdict) { key, 0 },

/* The state of a plugin with switchable rules: its settings (valid until
 * close) and each rule's verdict, in the order of its table. */
struct rule_state {
	const struct sluice_settings *settings;
	int verdict[];
};

/* open() of such a plugin: every rule's key read (a bad value is reported
 * on its setting, -EINVAL), into a state rule_state_close() frees. */
static inline int rule_state_open(const struct sluice_host *host,
                                  const struct sluice_settings *settings,
                                  const struct rule_switch *rules, size_t n, void **ret_state)
{
	sluice_init(host);
	struct rule_state *st = malloc(sizeof(*st) + n * sizeof(st->verdict[0]));
	if (!st)
		return -ENOMEM;
	st->settings = settings;
	for (size_t i = 0; i < n; i++) {
		int r = read_choice(settings, rules[i].key, rules[i].verdict, SLUICE_ALLOW,
		                    &st->verdict[i]);
		if (r < 0) {
			free(st);
			return r;
		}
	}
	*ret_state = st;
	return 0;
}

static inline void rule_state_close(void *state)
{
	free(state);
}

#endif
