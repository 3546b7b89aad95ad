/* SPDX-License-Identifier: MIT */
/*
 * An operand that reads a variable the model left as written because its
 * value holds an expansion the model could not resolve (`d=${1:-$HOME};
 * rm -rf "$d"`, `y=$x/; rm -rf "$y"`): the operand with that variable
 * replaced by the text its last assignment wrote, so that a rule judges it
 * as it judges that text written in place (`rm -rf "${1:-$HOME}"` is the
 * home directory when $1 is unset, as it is at the top of `bash -c`; `rm
 * -rf "$x/"` is the root when $x is empty). Static inline, as
 * plugin-util.h is.
 * Not for: values the model knows (it gives them in the words already),
 * values filled from data (run-time-values.h).
 */
#ifndef SLUICE_COPIED_VALUES_H
#define SLUICE_COPIED_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "plugin-util.h"
#include "run-time-values.h"
#include "sluice/policy.h"
#include "unset-vars.h"

/* The text the last command before i that sets name gave it, when that is
 * an assignment or a declaring builtin's NAME=VALUE with an expansion in
 * it (value_set()); its index in *at. NULL when the last one to set it
 * does so otherwise (read, printf -v, NAME+=: not one text), its value
 * holds no `$`, or the model walked it again with the value known
 * (value_rounds_known()). */
static inline const char *copied_value(const struct sluice_command *cmd, size_t i, const char *name,
                                       size_t *at)
{
	for (size_t j = i; j-- > 0;) {
		const struct sluice_simple_command *o = sluice_command_get(cmd, j);
		if (!command_sets(o, name))
			continue;
		const char *value = printf_sets(o, name) ? NULL : value_set(o, name);
		if (!value || !strchr(value, '$') || appends_to(cmd, j, name) ||
		    value_rounds_known(cmd, j, name))
			return NULL;
		*at = j;
		return value;
	}
	return NULL;
}

/* Append to out[*o..size) the text w (a word of command i, or a value
 * command i assigns) with each $NAME and ${NAME} that copied_value()
 * gives replaced by that value, itself so replaced; a `~`, `*`, `?` or `[`
 * of a value past its first byte is written with a backslash before it
 * (in "$d" bash expands neither). *lookups bounds the copies followed, as
 * RUN_TIME_LOOKUPS does. False when it does not fit. */
static inline bool copied_append(const struct sluice_command *cmd, size_t i, const char *w,
                                 bool value, char *out, size_t size, size_t *o, int *lookups,
                                 bool *any)
{
	int depth = 0; /* inside ${...} or $(...), kept as written */
	for (const char *c = w; *c;) {
		char name[VAR_NAME_CAP];
		enum var_form form;
		const char *end, *copy = NULL;
		size_t at = 0;
		bool expansion = c[0] == '$' && var_expansion_at(c, name, &form, &end);
		if (expansion && form == VAR_PLAIN && depth == 0 && --*lookups >= 0)
			copy = copied_value(cmd, i, name, &at);
		if (copy) {
			*any = true;
			if (!copied_append(cmd, at, copy, true, out, size, o, lookups, any))
				return false;
			c = end;
			continue;
		}
		size_t len = expansion ? (size_t)(end - c) : 1;
		if (!expansion && c[0] == '$' && c[1] == '(')
			depth++;
		else if (!expansion && depth > 0 && c[0] == ')')
			depth--;
		bool literal = value && depth == 0 && !expansion && c != w && strchr("~*?[", c[0]);
		if (*o + len + (literal ? 1 : 0) >= size)
			return false;
		if (literal)
			out[(*o)++] = '\\';
		memcpy(out + *o, c, len);
		*o += len;
		c += len;
	}
	out[*o] = '\0';
	return true;
}

/* Write into out (size bytes) w, an operand of command i of cmd as
 * path_operand() gives it, with the copies in it replaced
 * (copied_append()). False when it has none, or the result does not fit
 * (nothing more to judge then: the operand as written was). */
static inline bool copied_form(const struct sluice_command *cmd, size_t i, const char *w, char *out,
                               size_t size)
{
	if (!strchr(w, '$') || size == 0)
		return false;
	int lookups = RUN_TIME_LOOKUPS;
	size_t o = 0;
	bool any = false;
	return copied_append(cmd, i, w, false, out, size, &o, &lookups, &any) && any;
}

#endif
