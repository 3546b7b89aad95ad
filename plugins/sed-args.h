/* SPDX-License-Identifier: MIT */
/*
 * A sed command line as GNU sed reads it, for the destroyers plugin's
 * sed -i rule: -i[SUFFIX] and --in-place[=SUFFIX], -e SCRIPT and
 * --expression=SCRIPT (each one a line of the script), -f FILE and --file
 * (a script not known here), -n, -l N, -s, -E, -r, -z, -u, clustered
 * (-ni, -Ei.bak; -ie is -i with the suffix e); without -e or -f the first
 * operand is the script. And whether a script deletes or empties every
 * line. Static inline, as plugin-util.h is.
 * Not for: what a script that edits does.
 */
#ifndef SLUICE_SED_ARGS_H
#define SLUICE_SED_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "plugin-util.h"

/* The most operands kept (more are not judged). */
#define SED_MAX_FILES 64

/* Does sed's script delete every line (or empty every line)? The whole
 * script, spaces and a last ; left out: `d`, `1,$d`, `0,$d` (GNU), `/^/d`,
 * `/.*\/d`, `/^.*$/d`, `s/.*\//`; with -n, a script that prints nothing
 * (empty, or one of these). A script that deletes some lines, a range or
 * the last line (`/^#/d`, `1d`, `$d`) edits, and passes. */
static inline bool sed_script_empties(const char *script, bool quiet)
{
	static const char *const every_line[] = {
		"d",      "1,$d",   "0,$d",    "/^/d",     "/.*/d",   "/^.*$/d",   "/^.*/d",
		"/.*$/d", "s/.*//", "s/.*//g", "s/^.*$//", "s/^.*//", "1,$s/.*//", NULL,
	};
	char compact[32];
	size_t n = 0;
	for (const char *p = script; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n')
			continue;
		if (n + 1 >= sizeof(compact))
			return false;
		compact[n++] = *p;
	}
	while (n > 0 && compact[n - 1] == ';')
		n--;
	compact[n] = '\0';
	return (quiet && n == 0) || str_in(compact, every_line);
}

/* What check_sed() reads of a sed command line. */
struct sed_args {
	char expr[256]; /* the -e scripts, one line each */
	size_t len;
	bool over; /* longer than expr holds */
	bool in_place, quiet, has_expr, script_file;
	size_t operand[SED_MAX_FILES + 1], n_operands;
};

/* The script of one -e: the scripts of -e are lines of one script. */
static inline void sed_add_expression(struct sed_args *s, const char *value)
{
	size_t len = strlen(value);
	if (s->len + len + 2 > sizeof(s->expr)) {
		s->over = true;
	} else {
		if (s->has_expr)
			s->expr[s->len++] = '\n';
		memcpy(s->expr + s->len, value, len);
		s->len += len;
		s->expr[s->len] = '\0';
	}
	s->has_expr = true;
}

/* A long option at argument *i; its value taken from the next argument
 * moves *i on. */
static inline void sed_long_option(const struct sluice_simple_command *sc, size_t *i, const char *a,
                                   struct sed_args *s)
{
	if (strncmp(a, "--in-place", 10) == 0 && (!a[10] || a[10] == '='))
		s->in_place = true;
	else if (strcmp(a, "--quiet") == 0 || strcmp(a, "--silent") == 0)
		s->quiet = true;
	else if (strncmp(a, "--expression=", 13) == 0)
		sed_add_expression(s, a + 13);
	else if (strcmp(a, "--expression") == 0 && *i + 1 < sluice_argc(sc))
		sed_add_expression(s, sluice_arg(sc, ++*i));
	else if (strncmp(a, "--file", 6) == 0)
		s->script_file = true;
	else if (strcmp(a, "--line-length") == 0)
		++*i;
}

/* A cluster of short options at argument *i (-ni, -Ei.bak, -e SCRIPT). */
static inline void sed_short_options(const struct sluice_simple_command *sc, size_t *i,
                                     const char *a, struct sed_args *s)
{
	for (size_t k = 1; a[k]; k++) {
		char c = a[k];
		if (c == 'i') {
			s->in_place = true;
			return; /* the rest is the suffix */
		}
		if (c == 'n')
			s->quiet = true;
		if (c == 'f')
			s->script_file = true;
		if (c == 'e' || c == 'l') {
			const char *val = a[k + 1]                   ? a + k + 1
			                  : *i + 1 < sluice_argc(sc) ? sluice_arg(sc, ++*i)
			                                             : "";
			if (c == 'e')
				sed_add_expression(s, val);
			return;
		}
	}
}

static inline void read_sed_args(const struct sluice_simple_command *sc, struct sed_args *s)
{
	bool dashdash = false;
	for (size_t i = 1; i < sluice_argc(sc) && !s->script_file; i++) {
		const char *a = sluice_arg(sc, i);
		if (!dashdash && strcmp(a, "--") == 0)
			dashdash = true;
		else if (dashdash || a[0] != '-' || !a[1]) {
			if (s->n_operands <= SED_MAX_FILES)
				s->operand[s->n_operands++] = i;
		} else if (a[1] == '-')
			sed_long_option(sc, &i, a, s);
		else
			sed_short_options(sc, &i, a, s);
	}
}

#endif
