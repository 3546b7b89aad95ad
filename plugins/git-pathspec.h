/* SPDX-License-Identifier: MIT */
/*
 * git pathspecs that name everything: ".", "*", ":/", ":(top)", "./",
 * "..", "src/..", "$PWD", "$(pwd)", "~+", globs that match what a star
 * does ("?*"), pathspec magic stripped. Shared by the plugins that refuse
 * what git does to every file at once (git_add, git_discard). Static
 * inline, as plugin-util.h is.
 * Not for: finding the pathspecs of a command (each plugin knows its
 * subcommand's options).
 */
#ifndef SLUICE_GIT_PATHSPEC_H
#define SLUICE_GIT_PATHSPEC_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"

/* Strip pathspec magic (":/", ":(top)", ":(glob,icase)", ":!x" is an
 * exclusion, not a blind add) and return what names the files. Sets *top
 * when the magic means the top of the tree. */
static inline const char *pathspec_strip_magic(const char *p, bool *top, bool *exclude)
{
	*top = false;
	*exclude = false;
	if (p[0] != ':')
		return p;
	p++;
	if (*p == '(') {
		const char *close = strchr(p, ')');
		if (!close)
			return p;
		if (strstr(p, "top") && strstr(p, "top") < close)
			*top = true;
		if (strstr(p, "exclude") && strstr(p, "exclude") < close)
			*exclude = true;
		return close + 1;
	}
	/* short magic: one or more of / ! ^, ending at an optional ':' */
	while (*p == '/' || *p == '!' || *p == '^') {
		if (*p == '/')
			*top = true;
		else
			*exclude = true;
		p++;
	}
	if (*p == ':')
		p++;
	return p;
}

/* Does this pathspec name everything (the tree, or the current directory)? */
static inline bool pathspec_is_blind(const char *spec)
{
	bool top, exclude;
	const char *p = pathspec_strip_magic(spec, &top, &exclude);
	if (exclude)
		return false;
	/* drop leading "./" and trailing "/" and "/." */
	for (;;) {
		if (strncmp(p, "./", 2) == 0)
			p += 2;
		else if (p[0] == '/' && spec[0] == ':')
			p++;
		else
			break;
	}
	size_t n = strlen(p);
	while (n > 0 && p[n - 1] == '/')
		n--;
	while (n >= 2 && p[n - 1] == '.' && p[n - 2] == '/') {
		n -= 2;
		while (n > 0 && p[n - 1] == '/')
			n--;
	}
	if (n == 0)
		return true; /* ":/", "./", ":(top)" */
	static const char *const all[] = { ".", "*", ".*", "**", "*.*", NULL };
	for (const char *const *a = all; *a; a++)
		if (strlen(*a) == n && strncmp(p, *a, n) == 0)
			return true;
	return false;
}

/* Does pathspec word a (with its sluice_arg_flags f) name everything? */
static inline bool pathspec_word_is_blind(const char *a, uint32_t f)
{
	/* an unquoted glob is expanded by the shell before git sees it; "*"
	 * alone (quoted or not) still means everything */
	bool dynamic = f & (SLUICE_WORD_PARAM | SLUICE_WORD_CMDSUBST | SLUICE_WORD_UNKNOWN);
	if (a[0] == ':')
		return !dynamic && pathspec_is_blind(a);
	/* the working directory spelled as $PWD, $(pwd) or ~+; "..", "src/..",
	 * "src/../x"; globs that match what a star does ("?*") */
	char t[PATH_CAP], globbed[PATH_CAP];
	if (!path_normalise(a, t, sizeof(t)))
		return true; /* too long to judge: refused */
	if (strpbrk(t, "$`"))
		return false; /* a value not known before the command runs */
	path_collapse(t);
	if (glob_spelling(t, globbed, sizeof(globbed)))
		snprintf(t, sizeof(t), "%s", globbed);
	return path_climbs_only(t) || pathspec_is_blind(t);
}

/* The index of the first pathspec word of sc at index >= i, or 0: after
 * "--" every word is one; before it, a word that starts with '-' is an
 * option, and options_with_value (may be NULL) take the next word too
 * (option_takes_next()).
 * *dashdash carries whether "--" was passed from one call to the next
 * (start with false). */
static inline size_t pathspec_next(const struct sluice_simple_command *sc, size_t i,
                                   const char *const *options_with_value, bool *dashdash)
{
	for (; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (!*dashdash && strcmp(a, "--") == 0) {
			*dashdash = true;
			continue;
		}
		if (*dashdash || a[0] != '-')
			return i;
		if (option_takes_next(a, options_with_value))
			i++;
	}
	return 0;
}

/* The first pathspec word of sc at index >= from (pathspec_next()) that
 * names everything, or NULL. An exclusion (":!vendor") names nothing. */
static inline const char *pathspec_blind_word(const struct sluice_simple_command *sc, size_t from,
                                              const char *const *options_with_value)
{
	bool dashdash = false;
	for (size_t i = pathspec_next(sc, from, options_with_value, &dashdash); i;
	     i = pathspec_next(sc, i + 1, options_with_value, &dashdash)) {
		const char *a = sluice_arg(sc, i);
		bool top, exclude;
		(void)pathspec_strip_magic(a, &top, &exclude);
		if (!exclude && pathspec_word_is_blind(a, sluice_arg_flags(sc, i)))
			return a;
	}
	return NULL;
}

#endif
