/* SPDX-License-Identifier: MIT */
/*
 * Operands whose value only exists when the command runs: a word with
 * a command substitution of data (`rm -rf "$(cat list)"`, also with a path
 * before or after it), a variable the command line fills from data (`read
 * X`, `mapfile`, `X=$(...)`, `local X=$(...)`, `printf -v X`, a `for`
 * loop over a list of values the model does not know: `$(...)`, `$X`,
 * `"$@"`, `"${a[@]}"`), with a path around it or not (`"$d"/`,
 * `~/"$d"`), or what an xargs reads from a program the model does not
 * follow (`cat list | xargs rm -rf`). The command model
 * carries every value it can know (docs/command-model.md); these are the
 * ones it cannot, named so that a rule can ask and say why. Static inline,
 * as plugin-util.h is.
 * Not for: a variable from the environment (`rm -rf "$DIR/"`: what it is
 * when empty is unset-vars.h's), `$(mktemp -d)` (a new directory).
 */
#ifndef SLUICE_RUN_TIME_VALUES_H
#define SLUICE_RUN_TIME_VALUES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"
#include "unset-vars.h"

/* Commands whose output is a path the command line did not read from
 * data: a new temporary directory, the working directory, a name cut from
 * a path, the repository's top. Only the first is safe to remove whole;
 * the others name a place for the path after them
 * (`"$(git rev-parse --show-toplevel)/build"`). */
static const char *const known_producers[] = {
	"mktemp", "pwd", "dirname", "basename", "git rev-parse", "realpath", NULL,
};

/* Is inner[0..len) (the text inside $( ) or backquotes) one of producers
 * with only plain words after it? Anything that could run a second
 * command or read data (`;`, `&`, `|`, a newline, a redirection, a nested
 * substitution) makes it unknown: `$(mktemp -d; cat list)` prints the
 * list. So does an argument that could carry data or a home (`$`, `~`,
 * quotes, backquotes): `$(dirname "$x")` is wherever x says, `$(realpath
 * ~)` is the home directory. */
static inline bool known_producer(const char *inner, size_t len, const char *const *producers)
{
	size_t lead = strspn(inner, " \t");
	inner += lead;
	len = len > lead ? len - lead : 0;
	for (size_t i = 0; i < len; i++)
		if (strchr(";&|<>()`\n\\$~'\"", inner[i]))
			return false;
	for (const char *const *p = producers; *p; p++) {
		size_t n = strlen(*p);
		if (n <= len && strncmp(inner, *p, n) == 0 && (n == len || strchr(" \t", inner[n])))
			return true;
	}
	return false;
}

/* If text begins with a command substitution, $(...) or `...`, the length
 * of it (and its inner text in *inner, *inner_len), else 0. */
static inline size_t substitution_at(const char *text, size_t len, const char **inner,
                                     size_t *inner_len)
{
	if (len >= 2 && text[0] == '`') {
		const char *close = memchr(text + 1, '`', len - 1);
		if (!close)
			return 0;
		*inner = text + 1;
		*inner_len = (size_t)(close - text - 1);
		return (size_t)(close - text) + 1;
	}
	if (len < 3 || strncmp(text, "$(", 2) != 0 || text[2] == '(')
		return 0;
	int depth = 0;
	for (size_t i = 1; i < len; i++) {
		if (text[i] == '(') {
			depth++;
		} else if (text[i] == ')' && --depth == 0) {
			*inner = text + 2;
			*inner_len = i - 2;
			return i + 1;
		}
	}
	return 0;
}

/* Does rest[0..len) (what follows a producer's output in its word) name
 * something below that output: a '/', then more literal names than `..`
 * (`.`, empty components, globs of stars and question marks and
 * components with an expansion count for nothing)? `/build` does, and so
 * does `/build/` with a star after it; `/`, `/.`, `/x/..`, and `/` with a
 * star after it name the output itself or everything in it. */
static inline bool names_below(const char *rest, size_t len)
{
	if (len == 0 || rest[0] != '/')
		return false;
	long depth = 0;
	for (size_t i = 0; i < len;) {
		size_t n = 0;
		while (i + n < len && rest[i + n] != '/')
			n++;
		const char *c = rest + i;
		bool name = n > 0 && !(n == 1 && c[0] == '.');
		bool glob_only = true;
		for (size_t j = 0; j < n; j++) {
			name &= c[j] != '$' && c[j] != '`';
			glob_only &= c[j] == '*' || c[j] == '?';
		}
		if (n == 2 && strncmp(c, "..", 2) == 0)
			depth--;
		else if (name && !glob_only)
			depth++;
		i += n + 1;
	}
	return depth > 0;
}

/* Is the command substitution at text[0..n) (inner text inner[0..inner_len)),
 * with rest[0..rest_len) after it in its word, data: alone at the end,
 * anything but mktemp (`$(cat list)`, `$(git rev-parse --show-toplevel)`);
 * with anything after it, anything but one of known_producers with a name
 * below its output (`$(cat list)/x`, `$(pwd)/`, `$(echo ~)$(true)` are
 * data, `$(pwd)/build` is not)? */
static inline bool substitution_is_data(const char *inner, size_t inner_len, const char *rest,
                                        size_t rest_len)
{
	static const char *const temporary[] = { "mktemp", NULL };
	if (rest_len == 0)
		return !known_producer(inner, inner_len, temporary);
	return !names_below(rest, rest_len) || !known_producer(inner, inner_len, known_producers);
}

/* Does any command substitution in text[0..len), wherever it is in the
 * word, put data in it (substitution_is_data())? `/$(cat list)`,
 * `~/$(cat list)`, `$(echo ~)$(true)` do; a word is as unknown as its
 * least known part. */
static inline bool run_time_substitution(const char *text, size_t len)
{
	for (size_t p = 0; p < len; p++) {
		if (text[p] != '$' && text[p] != '`')
			continue;
		const char *inner;
		size_t inner_len;
		size_t n = substitution_at(text + p, len - p, &inner, &inner_len);
		if (n == 0)
			continue;
		if (substitution_is_data(inner, inner_len, text + p + n, len - p - n))
			return true;
		p += n - 1;
	}
	return false;
}

/* Does `for NAME in LIST` in text[0, upto) iterate over a list the shell
 * makes when it runs: one with an expansion of any kind ($X, "$@",
 * "${a[@]}", a command substitution) or an unquoted glob, or none at all
 * (`for NAME; do`: "$@")? When the model
 * knows every value of such a list, it walks the body once per value as
 * well (rounds_known()). */
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
		if (*p == ';' || *p == '\n' || strncmp(p, "do", 2) == 0)
			return true; /* `for NAME; do`: over "$@" */
		if (strncmp(p, "in", 2) != 0 || !strchr(" \t", p[2]))
			continue;
		size_t list = strcspn(p + 2, ";\n");
		bool quoted = false;
		for (const char *c = p + 2; c < p + 2 + list && c < text + upto; c++) {
			if (*c == '"' || *c == '\'')
				quoted = !quoted;
			else if (*c == '$' || *c == '`' || (!quoted && strchr("*?[", *c)))
				return true;
		}
	}
	return false;
}

/* Did the model walk command i once more with word k known: a command of
 * the same text whose word k is no parameter? It does so for each value of
 * a loop over values it knows (`a=(x y); for d in "${a[@]}"`, `for f in
 * *.o`), and each of those is judged on its own. */
static inline bool rounds_known(const struct sluice_command *cmd, size_t i, size_t k)
{
	size_t start, end, s, e;
	sluice_span(sluice_command_get(cmd, i), &start, &end);
	for (size_t j = 0; j < sluice_command_count(cmd); j++) {
		const struct sluice_simple_command *o = sluice_command_get(cmd, j);
		sluice_span(o, &s, &e);
		if (j != i && s == start && e == end && k < sluice_argc(o) &&
		    !(sluice_arg_flags(o, k) & SLUICE_WORD_PARAM))
			return true;
	}
	return false;
}

/* Is v, the value of an assignment or of a declaring builtin's
 * NAME=VALUE, made when the command runs: an array with a substitution in
 * it (`a=($(ls))`), or a substitution of data (run_time_substitution())? */
static inline bool run_time_value(const char *v)
{
	bool array = v[0] == '(' && (strstr(v, "$(") || strchr(v, '`'));
	return array || run_time_substitution(v, strlen(v));
}

/* The value of the last NAME=VALUE word by which o, a declaring builtin
 * (`local`, `export`, `declare`, `typeset`, `readonly`), sets name, as
 * written (`local d="$x"`); NULL if it is none or sets no such word. */
static inline const char *declared_value(const struct sluice_simple_command *o, const char *name)
{
	if (!declaring_builtin(sluice_name(o)))
		return NULL;
	size_t n = strlen(name);
	const char *value = NULL;
	for (size_t a = 1; a < sluice_argc(o); a++) {
		const char *w = sluice_arg(o, a);
		if (w[0] != '-' && word_sets(w, name, false))
			value = w + n + (w[n] == '+' ? 2 : 1);
	}
	return value;
}

/* The index of the word after `-v NAME` when o is `printf -v NAME ...`
 * (its format, then the arguments it prints into NAME), else 0. */
static inline size_t printf_sets(const struct sluice_simple_command *o, const char *name)
{
	if (strcmp(sluice_name(o), "printf") != 0)
		return 0;
	for (size_t a = 1; a + 1 < sluice_argc(o); a++)
		if (strcmp(sluice_arg(o, a), "-v") == 0 && strcmp(sluice_arg(o, a + 1), name) == 0)
			return a + 2;
	return 0;
}

/* Does o set name from data as a declaring builtin with a NAME=VALUE word
 * whose value is run_time_value() (the last such word counts), or as
 * `printf -v NAME` with a command substitution among its arguments? */
static inline bool declares_run_time(const struct sluice_simple_command *o, const char *name)
{
	size_t from = printf_sets(o, name);
	if (from) {
		for (size_t a = from; a < sluice_argc(o); a++)
			if (sluice_arg_flags(o, a) & SLUICE_WORD_CMDSUBST)
				return true;
		return false;
	}
	const char *value = declared_value(o, name);
	return value && run_time_value(value);
}

/* Does o set name in a way the model does not follow, so that a word
 * still reading it holds what only bash knows: an array (`a=("$@")`,
 * `local -a a=("$@")`, `declare -A m=([k]=$HOME)`: a followed one is
 * resolved before a plugin sees it) or a name reference (`declare -n
 * r=HOME`: "$r" is $HOME)? */
static inline bool unfollowed_set(const struct sluice_simple_command *o, const char *name)
{
	for (size_t a = 0; a < sluice_assign_count(o); a++)
		if (strcmp(sluice_assign_name(o, a), name) == 0 &&
		    sluice_assign_value(o, a)[0] == '(')
			return true;
	const char *value = declared_value(o, name);
	if (value && value[0] == '(')
		return true;
	for (size_t a = 1; value && a < sluice_argc(o) && sluice_arg(o, a)[0] == '-'; a++)
		if (strchr(sluice_arg(o, a), 'n'))
			return true; /* declare -n, local -n, typeset -n */
	return false;
}

/* Was command j, which sets a variable command i reads, run outside the
 * new shell i runs in (`export T=~; bash -c 'rm -rf "$T"'`)? The model
 * walks a new shell with nothing set, so the value stays a variable
 * there; bash passes it in when it is exported. A shell that shares the
 * command's variables (eval, source, trap, alias) is not a new one. */
static inline bool outside_new_shell(const struct sluice_command *cmd, size_t i, size_t j)
{
	static const char *const same_shell[] = { "eval", "source", ".", "trap", "alias", NULL };
	for (int64_t p = sluice_parent(sluice_command_get(cmd, i)); p >= 0;) {
		const struct sluice_simple_command *parent = sluice_command_get(cmd, (size_t)p);
		if ((int64_t)j > p)
			return false; /* set inside the nested script */
		if (!str_in(sluice_name(parent), same_shell))
			return true;
		p = sluice_parent(parent);
	}
	return false;
}

/* How many variables one operand's value is looked up through, copies of
 * copies included (d2="$d", x=$a$b). A budget for the whole walk, not a
 * depth: a crafted chain whose every link names the one before several
 * times (v2=$v1$v1$v1) would otherwise take exponential time. Past it the
 * value is not followed, and asks (RUN_TIME_TOO_DEEP). */
#define RUN_TIME_LOOKUPS 64
#define RUN_TIME_TOO_DEEP "a value copied through more variables than sluice follows"

static inline const char *run_time_variable_within(const struct sluice_command *cmd, size_t i,
                                                   size_t k, const char *name, int *lookups);

/* Does command j of cmd append to name (NAME+=VALUE, `local NAME+=VALUE`)?
 * Then what name held before is still in it. Read from the command's text:
 * the model gives the appended part alone as the assignment's value. */
static inline bool appends_to(const struct sluice_command *cmd, size_t j, const char *name)
{
	size_t start, end, n = strlen(name);
	sluice_span(sluice_command_get(cmd, j), &start, &end);
	const char *text = sluice_command_source(cmd);
	for (size_t p = start; p + n + 2 <= end; p++)
		if ((p == start || !var_name_byte(text[p - 1], false)) &&
		    strncmp(text + p, name, n) == 0 && strncmp(text + p + n, "+=", 2) == 0)
			return true;
	return false;
}

/* The value o gives name, as written: its assignment, or the last
 * NAME=VALUE word of a declaring builtin (declared_value()); NULL if
 * neither. */
static inline const char *value_set(const struct sluice_simple_command *o, const char *name)
{
	for (size_t a = sluice_assign_count(o); a-- > 0;)
		if (strcmp(sluice_assign_name(o, a), name) == 0)
			return sluice_assign_value(o, a);
	return declared_value(o, name);
}

/* Did the model walk command j once more with the value it gives name
 * known (no `$` left in it)? It does so for each value of a loop over
 * values it knows (`for f in *.o; do x=$f; ...`), as rounds_known(). */
static inline bool value_rounds_known(const struct sluice_command *cmd, size_t j, const char *name)
{
	size_t start, end, s, e;
	sluice_span(sluice_command_get(cmd, j), &start, &end);
	for (size_t o = 0; o < sluice_command_count(cmd); o++) {
		const struct sluice_simple_command *other = sluice_command_get(cmd, o);
		sluice_span(other, &s, &e);
		const char *value =
		        o != j && s == start && e == end ? value_set(other, name) : NULL;
		if (value && !strchr(value, '$'))
			return true;
	}
	return false;
}

/* Where value (what command j gives the variable copy) gets data from
 * when it holds a variable the command line fills from data before j
 * (`read d; d2="$d"`, `local t=$d/x`), else NULL. */
static inline const char *run_time_copy(const struct sluice_command *cmd, size_t j,
                                        const char *copy, const char *value, int *lookups)
{
	if (value_rounds_known(cmd, j, copy))
		return NULL;
	char name[VAR_NAME_CAP];
	enum var_form form;
	const char *end;
	for (const char *c = strchr(value, '$'); c; c = strchr(c + 1, '$')) {
		/* k past every word: a loop is judged as one made when it runs */
		const char *source =
		        var_expansion_at(c, name, &form, &end)
		                ? run_time_variable_within(cmd, j, SIZE_MAX, name, lookups)
		                : NULL;
		if (source)
			return source;
	}
	return NULL;
}

static inline const char *run_time_operand_within(const struct sluice_command *cmd, size_t i,
                                                  size_t k, int *lookups);

/* Is a parameter past word k of o not placed by the model: the word
 * splits into any number of words ($X, $(cmd) unquoted; "$@" is the model's
 * own placeholder for the parameters it had)? */
static inline bool splits_uncounted(const struct sluice_simple_command *o, size_t k)
{
	uint32_t flags = sluice_arg_flags(o, k);
	static const char *const all_params[] = { "$@", "${@}", "$*", "${*}", NULL };
	return (flags & SLUICE_WORD_SPLIT) &&
	       (flags & (SLUICE_WORD_PARAM | SLUICE_WORD_CMDSUBST)) &&
	       !str_in(sluice_arg(o, k), all_params);
}

/* The index of the first word of o that is a positional parameter:
 * `set [options] [--] ARGS`, or a function call's first argument. */
static inline size_t positional_start(const struct sluice_simple_command *o)
{
	size_t a = 1;
	if (strcmp(sluice_name(o), "set") != 0)
		return a;
	for (; a < sluice_argc(o); a++) {
		const char *w = sluice_arg(o, a);
		if (strcmp(w, "--") == 0 || strcmp(w, "-") == 0)
			return a + 1;
		if (w[0] != '-' && w[0] != '+')
			break;
	}
	return a;
}

/* When command j gives the positional parameters of command at words the
 * model could not place (`set -- ...`, or the function call or `bash -c`
 * that at runs under): why parameter $index (0: all of them, "$@", or a
 * form of them) that the model left as written is only known when it
 * runs. A glob among them (`set -- * x`: how many names it matched is not
 * known), a value known only when it runs (`read x; set -- "$x" build`),
 * a word before it that splits into any number (`set -- $X a`: $2), or,
 * with none of those, a form of the parameters the model does not follow
 * (slice: the word reads "$@", "$*", "${@:2}", "${@: -1}", "${!#}"). NULL
 * otherwise. */
static inline const char *positional_source(const struct sluice_command *cmd, size_t j, size_t at,
                                            size_t index, bool slice, int *lookups)
{
	const struct sluice_simple_command *o = sluice_command_get(cmd, j);
	bool set = strcmp(sluice_name(o), "set") == 0 && sluice_argc(o) > 1;
	if (!set && sluice_parent(sluice_command_get(cmd, at)) != (int64_t)j)
		return NULL;
	size_t start = positional_start(o);
	for (size_t a = start; a < sluice_argc(o); a++)
		if (sluice_arg_flags(o, a) & SLUICE_WORD_GLOB)
			return "one of the names a glob matched";
	for (size_t a = start; a < sluice_argc(o); a++) {
		const char *source = run_time_operand_within(cmd, j, a, lookups);
		if (source)
			return source;
		bool before = index == 0 ? a + 1 < sluice_argc(o) : a - start + 1 < index;
		if (before && splits_uncounted(o, a))
			return "a parameter past a word that splits into any number of words";
	}
	return slice ? "a form of the positional parameters sluice does not follow" : NULL;
}

static inline const char *run_time_variable_within(const struct sluice_command *cmd, size_t i,
                                                   size_t k, const char *name, int *lookups)
{
	if (--*lookups < 0)
		return RUN_TIME_TOO_DEEP;
	/* $1 ... $9, "$@", "$*", and the forms of them the model does not
	 * follow: "@:" for ${@:2}, ${@: -1}, "!" for ${!#}, ${!N}
	 * (run_time_operand_within() names them so) */
	bool slice = strcmp(name, "@:") == 0 || strcmp(name, "!") == 0;
	bool positional = slice || strcmp(name, "@") == 0 || strcmp(name, "*") == 0 ||
	                  (name[0] >= '1' && name[0] <= '9' && !name[1]);
	for (size_t j = i; j-- > 0;) {
		const struct sluice_simple_command *o = sluice_command_get(cmd, j);
		size_t index = slice ? 0 : (size_t)(name[0] - '0');
		const char *given =
		        positional ? positional_source(cmd, j, i, index, slice, lookups) : NULL;
		if (given)
			return given;
		if (!command_sets(o, name))
			continue;
		if (outside_new_shell(cmd, i, j))
			return "a variable set outside its new shell (bash passes it in when "
			       "exported)";
		static const char *const reading[] = { "read", "mapfile", "readarray", NULL };
		if (str_in(sluice_name(o), reading))
			return strcmp(sluice_name(o), "read") == 0 ? "what read reads"
			                                           : "the lines mapfile reads";
		if (declares_run_time(o, name))
			return "the output of a command substitution";
		if (unfollowed_set(o, name))
			return "an array or a name reference sluice does not follow";
		for (size_t a = 0; a < sluice_assign_count(o); a++)
			if (strcmp(sluice_assign_name(o, a), name) == 0 &&
			    run_time_value(sluice_assign_value(o, a)))
				return "the output of a command substitution";
		/* printf -v NAME FORMAT ARGS: a copy of what its arguments hold */
		size_t printed = printf_sets(o, name);
		for (size_t a = printed; printed && a < sluice_argc(o); a++) {
			const char *source = run_time_copy(cmd, j, name, sluice_arg(o, a), lookups);
			if (source)
				return source;
		}
		const char *value = printed ? NULL : value_set(o, name);
		/* the last one to set it: a literal, a name, or a copy of one */
		const char *source = value ? run_time_copy(cmd, j, name, value, lookups) : NULL;
		/* NAME+=VALUE: and what it held before, set further back */
		if (source || !appends_to(cmd, j, name))
			return source;
	}
	size_t start, end;
	sluice_span(sluice_command_get(cmd, i), &start, &end);
	if (run_time_loop(sluice_command_source(cmd), start, name) && !rounds_known(cmd, i, k))
		return "a loop over a list made when it runs";
	return NULL;
}

/* Where the value of the variable name that word k of command i reads comes from,
 * when the command line fills it from data: "what read reads" and the
 * like, also through copies of it (d2="$d"), or NULL (a literal, the
 * environment, or not set here). */
static inline const char *run_time_variable(const struct sluice_command *cmd, size_t i, size_t k,
                                            const char *name)
{
	int lookups = RUN_TIME_LOOKUPS;
	return run_time_variable_within(cmd, i, k, name, &lookups);
}

/* Why word k of command i of cmd is only known when it runs, or NULL: a
 * command substitution of data, or a variable that the command line fills
 * from data, either anywhere in the word, with any path before or after it
 * (`"$d"/`, `$d/x`, `~/"$d"`: a path around an unknown value does not make
 * it known), or a parameter the model could not place
 * (positional_source()). *lookups bounds the variables followed. */
static inline const char *run_time_operand_within(const struct sluice_command *cmd, size_t i,
                                                  size_t k, int *lookups)
{
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	const char *a = sluice_arg(sc, k);
	size_t len = strlen(a);
	if ((sluice_arg_flags(sc, k) & SLUICE_WORD_CMDSUBST) && run_time_substitution(a, len))
		return "the output of a command substitution";
	if (!(sluice_arg_flags(sc, k) & SLUICE_WORD_PARAM))
		return NULL;
	/* every variable in the word, wherever it is: `~/"$d"`, `"$HOME/$d"` */
	char name[VAR_NAME_CAP];
	enum var_form form;
	const char *end;
	for (const char *c = strchr(a, '$'); c; c = strchr(c + 1, '$')) {
		if (!var_expansion_at(c, name, &form, &end))
			continue;
		/* ${!#}, ${!N}: an indirection of the parameters */
		bool indirect = c[1] == '{' && strcmp(name, "!") == 0 && strchr("#123456789", c[3]);
		if (!indirect && strcmp(name, "!") == 0)
			continue; /* $!, ${!x}: a process, another variable */
		if ((strcmp(name, "@") == 0 || strcmp(name, "*") == 0) && form == VAR_OTHER)
			memcpy(name, "@:", 3); /* ${@:2}, ${@: -1}, ${*:2} */
		const char *source = run_time_variable_within(cmd, i, k, name, lookups);
		if (source)
			return source;
	}
	return NULL;
}

/* run_time_operand_within() with a budget of its own. */
static inline const char *run_time_operand(const struct sluice_command *cmd, size_t i, size_t k)
{
	int lookups = RUN_TIME_LOOKUPS;
	return run_time_operand_within(cmd, i, k, &lookups);
}

/* Does sc run under xargs (one of its wrappers)? */
static inline bool under_xargs(const struct sluice_simple_command *sc)
{
	for (size_t k = 0; k < sluice_wrapper_count(sc); k++)
		if (strcmp(sluice_wrapper_name(sc, k), "xargs") == 0)
			return true;
	return false;
}

/* Is sc the script of a GNU parallel that reads its items from its input
 * (no `:::` list among its words: `echo / | parallel rm -rf`)? parallel
 * appends them to the script when it runs, so they are never known. */
static inline bool under_parallel_input(const struct sluice_simple_command *sc)
{
	bool parallel = false;
	for (size_t k = 0; k < sluice_wrapper_count(sc); k++)
		parallel |= strcmp(sluice_wrapper_name(sc, k), "parallel") == 0;
	for (size_t i = 0; parallel && i < sluice_argc(sc); i++)
		if (strcmp(sluice_arg(sc, i), ":::") == 0)
			return false;
	return parallel;
}

/* A command that writes what sc reads: the first part of the same
 * pipeline just before it named name (NULL: any name), or NULL. */
static inline const struct sluice_simple_command *
pipeline_writer(const struct sluice_command *cmd, const struct sluice_simple_command *sc,
                const char *name)
{
	int64_t pipeline = sluice_pipeline(sc);
	size_t position = sluice_pipeline_position(sc);
	for (size_t j = 0; pipeline >= 0 && position > 0 && j < sluice_command_count(cmd); j++) {
		const struct sluice_simple_command *o = sluice_command_get(cmd, j);
		if (sluice_pipeline(o) == pipeline && sluice_pipeline_position(o) == position - 1 &&
		    (!name || strcmp(sluice_name(o), name) == 0))
			return o;
	}
	return NULL;
}

/* Does command i run under an xargs whose input the model does not know
 * (its argv is incomplete), fed by anything but find (whose start points
 * system_trees judges)? */
/* Is sc in the script of a shell an `xargs -I REPL` (-i, --replace) runs,
 * with REPL among its words (`xargs -I{} sh -c 'rm -rf {}'`)? xargs puts
 * what it reads in the script's text, so the word is only known then. */
static inline bool xargs_replaced_in_script(const struct sluice_simple_command *sc)
{
	for (size_t k = 0; k < sluice_wrapper_count(sc); k++) {
		if (strcmp(sluice_wrapper_name(sc, k), "xargs") != 0)
			continue;
		const char *repl = NULL;
		for (size_t j = 1; j < sluice_wrapper_argc(sc, k) && !repl; j++) {
			const char *a = sluice_wrapper_arg(sc, k, j);
			if (strcmp(a, "-I") == 0 && j + 1 < sluice_wrapper_argc(sc, k))
				repl = sluice_wrapper_arg(sc, k, j + 1);
			else if (strncmp(a, "-I", 2) == 0 && a[2])
				repl = a + 2;
			else if (strncmp(a, "--replace=", 10) == 0 && a[10])
				repl = a + 10;
			else if (strcmp(a, "-i") == 0 || strcmp(a, "--replace") == 0)
				repl = "{}";
			else if (strncmp(a, "-i", 2) == 0 && a[2])
				repl = a + 2;
		}
		for (size_t i = 0; repl && i < sluice_argc(sc); i++)
			if (strstr(sluice_arg(sc, i), repl))
				return true;
	}
	return false;
}

static inline bool run_time_xargs(const struct sluice_command *cmd, size_t i)
{
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	if (under_parallel_input(sc) || xargs_replaced_in_script(sc))
		return true;
	if (!under_xargs(sc) || !(sluice_flags(sc) & SLUICE_CMD_ARGV_INCOMPLETE))
		return false;
	return pipeline_writer(cmd, sc, "find") == NULL;
}

/* Does `git ... ls-files ...` (w) list every file git tracks, or every
 * one with uncommitted changes (-m)? Not with a pathspec (other than `.`
 * or `:/`), nor when it lists files git does not track or no longer has
 * (-o, -i, -k, -d). */
static inline bool lists_tracked_files(const struct sluice_simple_command *w)
{
	static const char *const with_value[] = { "-C",          "-c",          "--git-dir",
		                                  "--work-tree", "--namespace", NULL };
	static const char *const not_tracked[] = { "-o",          "--others", "-i", "--ignored",
		                                   "-k",          "--killed", "-d", "--deleted",
		                                   "--directory", NULL };
	static const char *const whole_tree[] = { ".", ":/", ":", "./", NULL };
	size_t k = 1;
	while (k < sluice_argc(w) && sluice_arg(w, k)[0] == '-')
		k += str_in(sluice_arg(w, k), with_value) ? 2 : 1;
	if (k >= sluice_argc(w) || strcmp(sluice_arg(w, k), "ls-files") != 0)
		return false;
	bool dashdash = false;
	for (k++; k < sluice_argc(w); k++) {
		const char *a = sluice_arg(w, k);
		if (!dashdash && strcmp(a, "--") == 0)
			dashdash = true;
		else if (!dashdash && a[0] == '-' &&
		         (str_in(a, not_tracked) || (a[1] != '-' && strpbrk(a + 1, "oikd"))))
			return false;
		else if ((dashdash || a[0] != '-') && !str_in(a, whole_tree))
			return false; /* a pathspec: the files it names */
	}
	return true;
}

#endif
