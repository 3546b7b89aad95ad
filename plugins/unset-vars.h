/* SPDX-License-Identifier: MIT */
/*
 * What a word becomes when the variables in it have no value, and which
 * variables a command can count on: those set earlier in the command
 * (NAME=..., export/local/declare/readonly NAME=..., read NAME, a for
 * loop's NAME, mapfile, printf -v, getopts), those guarded before it
 * (`[ -n "$NAME" ]`, `test -d "$NAME"`, `${NAME:?}`, `set -u`) and those
 * the shell always sets ($HOME, $PWD, $$, $RANDOM ...). Static inline, as
 * plugin-util.h is.
 * Not for: the values themselves (the command model substitutes literal
 * ones; what is left is not known before the command runs).
 */
#ifndef SLUICE_UNSET_VARS_H
#define SLUICE_UNSET_VARS_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"

/* The longest variable name these helpers read; a longer one is taken as
 * set (never judged empty on a guess). */
#define VAR_NAME_CAP 64

/* How a variable is expanded. */
enum var_form {
	VAR_PLAIN,     /* $X, ${X}: empty when X is */
	VAR_NOT_EMPTY, /* ${X:?...}, ${X?...}: the shell stops when X is unset;
	                * ${#X}: a number */
	VAR_OTHER,     /* ${X:+...}, ${X%...}, ${X/a/b} ...: empty when X is */
};

static inline bool var_name_byte(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* The variable expansion at p ('$'): its name in name, its form, and *end
 * past it. False when p starts no variable expansion ($(...), $((...)),
 * a lone $). Special parameters ($1, $@, $#, $$ ...) are names too. */
static inline bool var_expansion_at(const char *p, char name[VAR_NAME_CAP], enum var_form *form,
                                    const char **end)
{
	if (p[0] != '$')
		return false;
	const char *q = p + 1;
	bool braced = *q == '{';
	if (braced)
		q++;
	bool length = braced && *q == '#' && q[1] != '}';
	if (length)
		q++;
	size_t n = 0;
	if (var_name_byte(*q, true)) {
		while (var_name_byte(q[n], false))
			n++;
	} else if (*q && strchr("0123456789@*#?$!-", *q)) {
		n = 1;
	}
	if (n == 0 || n >= VAR_NAME_CAP)
		return false;
	memcpy(name, q, n);
	name[n] = '\0';
	q += n;
	*form = length ? VAR_NOT_EMPTY : VAR_PLAIN;
	if (!braced) {
		*end = q;
		return true;
	}
	if ((q[0] == ':' && q[1] == '?') || q[0] == '?')
		*form = VAR_NOT_EMPTY;
	else if (*q != '}' && !length)
		*form = VAR_OTHER;
	for (int depth = 1; *q; q++) {
		if (q[0] == '$' && q[1] == '{') {
			depth++;
			q++;
		} else if (*q == '}' && --depth == 0) {
			*end = q + 1;
			return true;
		}
	}
	return false; /* no closing brace: not a word bash would run */
}

/* Variables the shell always sets (and never to an empty value). */
static inline bool var_always_set(const char *name)
{
	static const char *const always[] = {
		"HOME",    "PWD", "UID", "EUID", "PPID", "RANDOM", "SECONDS", "LINENO", "BASHPID",
		"SRANDOM", "0",   "$",   "?",    "#",    "!",      "-",       NULL,
	};
	return str_in(name, always);
}

/* Does the word w (a NAME=VALUE or a plain NAME) set name? */
static inline bool word_sets(const char *w, const char *name, bool plain_name_sets)
{
	size_t n = strlen(name);
	if (strncmp(w, name, n) != 0)
		return false;
	return w[n] == '=' || (w[n] == '+' && w[n + 1] == '=') || (plain_name_sets && !w[n]);
}

/* Is cmd a builtin that declares its NAME=VALUE operands (`local d=x`,
 * `export`, `declare`, `typeset`, `readonly`)? The model keeps those
 * words in argv, not among the assignments. */
static inline bool declaring_builtin(const char *cmd)
{
	static const char *const declaring[] = { "export",  "local",    "declare",
		                                 "typeset", "readonly", NULL };
	return str_in(cmd, declaring);
}

/* Does simple command sc set name (an assignment before it, or a builtin
 * that sets its operands)? */
static inline bool command_sets(const struct sluice_simple_command *sc, const char *name)
{
	for (size_t i = 0; i < sluice_assign_count(sc); i++)
		if (strcmp(sluice_assign_name(sc, i), name) == 0)
			return true;
	/* their operands are names: read a b, mapfile lines, getopts opts c */
	static const char *const reading[] = { "read", "mapfile", "readarray", "getopts", NULL };
	const char *cmd = sluice_name(sc);
	bool declares = declaring_builtin(cmd), reads = str_in(cmd, reading);
	bool printf_v = strcmp(cmd, "printf") == 0;
	if (!declares && !reads && !printf_v)
		return false;
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (printf_v) {
			if (strcmp(a, "-v") == 0 && i + 1 < sluice_argc(sc) &&
			    strcmp(sluice_arg(sc, i + 1), name) == 0)
				return true;
			continue;
		}
		if (a[0] != '-' && word_sets(a, name, reads))
			return true;
	}
	return false;
}

/* Is there, in text[0, upto), the word `keyword` followed by blanks and
 * then name as a word of its own (`for NAME in`, `select NAME`)? */
static inline bool text_has_keyword_name(const char *text, size_t upto, const char *keyword,
                                         const char *name)
{
	size_t k = strlen(keyword), n = strlen(name);
	for (size_t i = 0; i + k < upto; i++) {
		if (strncmp(text + i, keyword, k) != 0 ||
		    (i > 0 && var_name_byte(text[i - 1], false)))
			continue;
		size_t j = i + k;
		size_t blanks = strspn(text + j, " \t");
		if (blanks == 0)
			continue;
		j += blanks;
		if (j + n <= upto && strncmp(text + j, name, n) == 0 &&
		    !var_name_byte(text[j + n], false))
			return true;
	}
	return false;
}

/* Is name guarded in text[0, upto): `${NAME:?`, `${NAME?`, a test that is
 * true only for a value that is not empty (`-n`, `-d`, `-e`, `-f`, `-s`
 * followed by "$NAME" or ${NAME}), or `set -u` / `set -o nounset` (the
 * shell stops at an unset variable)? Text, not the model: the model does
 * not list [ ... ] as commands. */
static inline bool text_guards(const char *text, size_t upto, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i + 1 < upto; i++) {
		const char *p = text + i;
		if (p[0] == '$' && p[1] == '{' && i + 2 + n < upto &&
		    strncmp(p + 2, name, n) == 0 &&
		    (p[2 + n] == '?' || (p[2 + n] == ':' && p[3 + n] == '?')))
			return true;
		if (p[0] == '-' && p[1] && strchr("ndefs", p[1]) && (p[2] == ' ' || p[2] == '\t') &&
		    (i == 0 || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '[')) {
			const char *q = p + 2 + strspn(p + 2, " \t");
			if (*q == '"')
				q++;
			if (*q++ != '$')
				continue;
			if (*q == '{')
				q++;
			if ((size_t)(q - text) + n <= upto && strncmp(q, name, n) == 0 &&
			    !var_name_byte(q[n], false))
				return true;
		}
	}
	for (size_t i = 0; i + 4 < upto; i++) {
		if (strncmp(text + i, "set ", 4) != 0 ||
		    (i > 0 && var_name_byte(text[i - 1], false)))
			continue;
		const char *q = text + i + 4 + strspn(text + i + 4, " \t");
		if (strncmp(q, "-o nounset", 10) == 0)
			return true;
		if (q[0] == '-' && q[1] != '-') {
			size_t len = strcspn(q, " \t;&|\n");
			if (memchr(q, 'u', len))
				return true;
		}
	}
	return false;
}

/* Can command i of cmd count on name having a value: always set, set by an
 * earlier command, a for/select loop's name, or guarded before it? */
static inline bool var_counted_on(const struct sluice_command *cmd, size_t i, const char *name)
{
	if (var_always_set(name))
		return true;
	for (size_t j = 0; j < i; j++)
		if (command_sets(sluice_command_get(cmd, j), name))
			return true;
	size_t start, end;
	sluice_span(sluice_command_get(cmd, i), &start, &end);
	const char *text = sluice_command_source(cmd);
	return text_has_keyword_name(text, start, "for", name) ||
	       text_has_keyword_name(text, start, "select", name) || text_guards(text, start, name);
}

/* Write into out the word w as it is when the variables command i cannot
 * count on are empty: "$DIR/" is "/", "${D}/x" is "/x", "$HOME/$X" is
 * "$HOME/"; a variable it can count on, and $(...), stay as written. The
 * first such variable is copied to ret_name. False when w has no variable
 * that may be empty, or out is too small (nothing to judge then). */
static inline bool var_empty_form(const struct sluice_command *cmd, size_t i, const char *w,
                                  char *out, size_t size, char ret_name[VAR_NAME_CAP])
{
	size_t o = 0;
	bool any = false;
	for (const char *c = w; *c;) {
		char name[VAR_NAME_CAP];
		enum var_form form;
		const char *end;
		if (var_expansion_at(c, name, &form, &end) && form != VAR_NOT_EMPTY &&
		    !var_counted_on(cmd, i, name)) {
			if (!any)
				memcpy(ret_name, name, strlen(name) + 1);
			any = true;
			c = end;
			continue;
		}
		size_t len = c[0] == '$' && var_expansion_at(c, name, &form, &end)
		                     ? (size_t)(end - c)
		                     : 1;
		if (o + len >= size)
			return false;
		memcpy(out + o, c, len);
		o += len;
		c += len;
	}
	out[o] = '\0';
	return any;
}

#endif
