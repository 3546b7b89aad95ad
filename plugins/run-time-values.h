/* SPDX-License-Identifier: MIT */
/*
 * Operands whose value only exists when the command runs: a word that is
 * one command substitution (`rm -rf "$(cat list)"`), a variable the command
 * line fills from data (`read X`, `mapfile`, `X=$(...)`, a `for` loop over
 * a substitution or a glob), or what an xargs reads from a program the
 * model does not follow (`cat list | xargs rm -rf`). The command model
 * carries every value it can know (docs/command-model.md); these are the
 * ones it cannot, named so that a rule can ask and say why. Static inline,
 * as plugin-util.h is.
 * Not for: a variable from the environment (`rm -rf "$DIR/"`: what it is
 * when empty is unset-vars.h's), `$(mktemp -d)` (a new directory).
 */
#ifndef SLUICE_RUN_TIME_VALUES_H
#define SLUICE_RUN_TIME_VALUES_H

#include <stdbool.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"
#include "unset-vars.h"

/* Is text[0..len) one command substitution, $(...) or `...`, and nothing
 * else? A new temporary directory ($(mktemp ...)) is not counted: it
 * holds only what the command put there. */
static inline bool run_time_substitution(const char *text, size_t len)
{
	if (len >= 2 && text[0] == '`' && text[len - 1] == '`')
		return memchr(text + 1, '`', len - 2) == NULL &&
		       strncmp(text + 1, "mktemp", 6) != 0;
	if (len < 3 || strncmp(text, "$(", 2) != 0 || text[len - 1] != ')' || text[2] == '(')
		return false;
	int depth = 0;
	for (size_t i = 1; i < len; i++) {
		if (text[i] == '(')
			depth++;
		else if (text[i] == ')' && --depth == 0 && i + 1 != len)
			return false; /* $(a)$(b), $(a)/x */
	}
	const char *inner = text + 2 + strspn(text + 2, " \t");
	return strncmp(inner, "mktemp", 6) != 0;
}

/* Does `for NAME in LIST` in text[0, upto) iterate over a list the shell
 * makes when it runs: a command substitution or an unquoted glob? (A list
 * of known words is walked once per word by the model.) */
static inline bool run_time_loop(const char *text, size_t upto, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i + 4 + n < upto; i++) {
		if (strncmp(text + i, "for", 3) != 0 ||
		    (i > 0 && var_name_byte(text[i - 1], false)))
			continue;
		const char *p = text + i + 3;
		if (!strchr(" \t", *p))
			continue;
		p += strspn(p, " \t");
		if (strncmp(p, name, n) != 0 || var_name_byte(p[n], false))
			continue;
		p += n + strspn(p + n, " \t");
		if (strncmp(p, "in", 2) != 0 || !strchr(" \t", p[2]))
			continue;
		size_t list = strcspn(p + 2, ";\n");
		bool quoted = false;
		for (const char *c = p + 2; c < p + 2 + list && c < text + upto; c++) {
			if (*c == '"' || *c == '\'')
				quoted = !quoted;
			else if ((*c == '$' && c[1] == '(') || *c == '`' ||
			         (!quoted && strchr("*?[", *c)))
				return true;
		}
	}
	return false;
}

/* Where the value of the variable name that command i reads comes from,
 * when the command line fills it from data: "what read reads" and the
 * like, or NULL (a literal, the environment, or not set here). */
static inline const char *run_time_variable(const struct sluice_command *cmd, size_t i,
                                            const char *name)
{
	for (size_t j = i; j-- > 0;) {
		const struct sluice_simple_command *o = sluice_command_get(cmd, j);
		if (!command_sets(o, name))
			continue;
		static const char *const reading[] = { "read", "mapfile", "readarray", NULL };
		if (str_in(sluice_name(o), reading))
			return strcmp(sluice_name(o), "read") == 0 ? "what read reads"
			                                           : "the lines mapfile reads";
		for (size_t k = 0; k < sluice_assign_count(o); k++) {
			const char *v = sluice_assign_value(o, k);
			if (strcmp(sluice_assign_name(o, k), name) == 0 &&
			    run_time_substitution(v, strlen(v)))
				return "the output of a command substitution";
		}
		return NULL; /* the last one to set it: a literal, or a name */
	}
	size_t start, end;
	sluice_span(sluice_command_get(cmd, i), &start, &end);
	if (run_time_loop(sluice_command_source(cmd), start, name))
		return "a loop over a list made when it runs";
	return NULL;
}

/* Why word k of command i of cmd is only known when it runs, or NULL: one
 * command substitution, or one variable (with at most a trailing slash)
 * that the command line fills from data. */
static inline const char *run_time_operand(const struct sluice_command *cmd, size_t i, size_t k)
{
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	const char *a = sluice_arg(sc, k);
	size_t len = strlen(a);
	if ((sluice_arg_flags(sc, k) & SLUICE_WORD_CMDSUBST) && run_time_substitution(a, len))
		return "the output of a command substitution";
	char name[VAR_NAME_CAP];
	enum var_form form;
	const char *end;
	if (!(sluice_arg_flags(sc, k) & SLUICE_WORD_PARAM) ||
	    !var_expansion_at(a, name, &form, &end) || (end[0] && strcmp(end, "/") != 0))
		return NULL;
	return run_time_variable(cmd, i, name);
}

/* Does command i run under an xargs whose input the model does not know
 * (its argv is incomplete), fed by anything but find (whose start points
 * system_trees judges)? */
static inline bool run_time_xargs(const struct sluice_command *cmd, size_t i)
{
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	bool xargs = false;
	for (size_t k = 0; k < sluice_wrapper_count(sc); k++)
		xargs |= strcmp(sluice_wrapper_name(sc, k), "xargs") == 0;
	if (!xargs || !(sluice_flags(sc) & SLUICE_CMD_ARGV_INCOMPLETE))
		return false;
	int64_t pipeline = sluice_pipeline(sc);
	size_t position = sluice_pipeline_position(sc);
	for (size_t j = 0; pipeline >= 0 && position > 0 && j < sluice_command_count(cmd); j++) {
		const struct sluice_simple_command *o = sluice_command_get(cmd, j);
		if (sluice_pipeline(o) == pipeline && sluice_pipeline_position(o) == position - 1 &&
		    strcmp(sluice_name(o), "find") == 0)
			return false;
	}
	return true;
}

#endif
