/* SPDX-License-Identifier: MIT */
/*
 * What a simple command changes for the commands after it in the same
 * shell: the directory (cd, pushd, popd), the positional parameters (set
 * --, shift), and the variables it may set in ways the model does not
 * follow (read, printf -v, source, a function call). Part of the model
 * builder (model-builder.h).
 * Not for: the command's own words (model-command.c).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "model/model-builder.h"

/* $HOME written alone: cd there is cd ~. */
static bool is_home(const char *source)
{
	return strcmp(source, "$HOME") == 0 || strcmp(source, "\"$HOME\"") == 0 ||
	       strcmp(source, "${HOME}") == 0 || strcmp(source, "\"${HOME}\"") == 0;
}

/* Positional parameters the model follows: $1 ... $9. */
#define POSITIONAL_MAX 9

/* The name under which model_state keeps $#, for "$@". */
#define POSITIONAL_COUNT "#"

/* Does w make a number of words the model does not know: an unquoted
 * expansion it could not resolve (`$X`, `$(cmd)`), which bash splits into
 * any number of words, none included? "$@" is not counted so: the model
 * keeps it as $1, a word that stands for any words (model-words.c). */
static bool splits_uncounted(const struct model_word *w)
{
	uint32_t unknown = WORD_PARAM | WORD_CMDSUBST | WORD_ARITH | WORD_UNKNOWN;
	if (!(w->w.flags & WORD_SPLIT) || !(w->w.flags & unknown))
		return false;
	static const char *const all_params[] = { "$@", "${@}", "$*", "${*}", NULL };
	for (const char *const *a = all_params; *a; a++)
		if (w->source && strcmp(w->source, *a) == 0)
			return false;
	return true;
}

int builder_set_positional(struct model_state *st, const struct model_word *words, size_t n)
{
	/* past a word that splits into any number, no parameter is known:
	 * `set -- $X a` puts `a` in $2 only when $X makes one word */
	bool uncounted = false;
	for (size_t k = 1; k <= POSITIONAL_MAX; k++) {
		char p[2] = { (char)('0' + k), '\0' };
		int r = 0;
		if (k <= n && !uncounted)
			r = builder_state_assign_expanded(st, p, &words[k - 1].w);
		else
			model_state_unset(st, p);
		if (r < 0)
			return r;
		uncounted |= k <= n && splits_uncounted(&words[k - 1]);
	}
	/* the count stays when only the last word splits: the model's $N for
	 * it stands for any words in "$@" (`set -- a $X; rm "$@"`) */
	bool count_unknown = false;
	for (size_t k = 0; k + 1 < n && !count_unknown; k++)
		count_unknown = splits_uncounted(&words[k]);
	if (n > POSITIONAL_MAX || count_unknown) {
		model_state_unset(st, POSITIONAL_COUNT);
		return 0;
	}
	char count[2] = { (char)('0' + n), '\0' };
	return model_state_set(st, POSITIONAL_COUNT, count);
}

/* `set [options] [--] ARGS`: ARGS are the new $1 ...; without ARGS (and
 * without --) they stay. Static words are known, others not. */
static int set_positional_params(const struct simple_command *c, struct model_state *st)
{
	size_t i = 1;
	for (; i < c->argc; i++) {
		const char *w = c->argv[i].w.text;
		if (strcmp(w, "--") == 0 || strcmp(w, "-") == 0) {
			i++;
			break;
		}
		if (w[0] != '-' && w[0] != '+')
			break;
		if (strcmp(w + 1, "o") == 0 && i + 1 < c->argc)
			i++; /* -o pipefail */
	}
	bool given = i < c->argc || (i > 1 && (strcmp(c->argv[i - 1].w.text, "--") == 0 ||
	                                       strcmp(c->argv[i - 1].w.text, "-") == 0));
	if (!given)
		return 0;
	return builder_set_positional(st, c->argv + i, c->argc - i);
}

/* `shift [N]`: $N+1 ... become $1 ...; a count not known forgets them
 * (and $#; bash's shift past $# changes nothing, which is not followed).
 * So does a glob among them (set -- * x): how many words it made is not
 * known, so neither is what comes first after the shift. */
static int shift_params(const struct simple_command *c, struct model_state *st)
{
	size_t n = model_state_positional_glob(st, POSITIONAL_MAX) ? POSITIONAL_MAX + 1 : 1;
	if (c->argc > 1 && n <= POSITIONAL_MAX) {
		const char *w = c->argv[1].w.text;
		n = builder_word_is_static(&c->argv[1]) && w[0] >= '0' && w[0] <= '9' && !w[1]
		            ? (size_t)(w[0] - '0')
		            : POSITIONAL_MAX + 1;
	}
	for (size_t k = 1; k <= POSITIONAL_MAX; k++) {
		char p[2] = { (char)('0' + k), '\0' }, from[2] = { (char)('0' + k + n), '\0' };
		int r = 0;
		if (k + n <= POSITIONAL_MAX)
			r = model_state_copy_var(st, p, from);
		else
			model_state_unset(st, p);
		if (r < 0)
			return r;
	}
	const char *count = model_state_get(st, POSITIONAL_COUNT);
	if (!count || (size_t)(count[0] - '0') < n) {
		model_state_unset(st, POSITIONAL_COUNT);
		return 0;
	}
	char left[2] = { (char)(count[0] - (char)n), '\0' };
	return model_state_set(st, POSITIONAL_COUNT, left);
}

/* `read [-r] NAME <<< WORD`: NAME is WORD when WORD is known and read
 * keeps it as it is (no backslash, no blank at either end, one line, and
 * no IFS anywhere in the command: another IFS splits otherwise). True
 * when it set NAME. */
static bool read_here_string(const struct builder *b, const struct simple_command *c,
                             struct model_state *st, int *error)
{
	if (c->n_assigns > 0 || strstr(b->m->source, "IFS"))
		return false;
	size_t i = 1;
	if (i < c->argc && strcmp(c->argv[i].w.text, "-r") == 0)
		i++;
	if (i + 1 != c->argc || !builder_word_is_static(&c->argv[i]) ||
	    !shell_word_is_name(c->argv[i].w.text, strlen(c->argv[i].w.text)))
		return false;
	const struct model_redirect *here = NULL;
	for (size_t k = 0; k < c->n_redirects; k++)
		if (c->redirects[k].fd <= 0 && c->redirects[k].op[0] == '<')
			here = strcmp(c->redirects[k].op, "<<<") == 0 ? &c->redirects[k] : NULL;
	if (!here)
		return false;
	const char *v = here->target.w.text;
	size_t len = strlen(v);
	uint32_t dynamic = here->target.w.flags & WORD_DYNAMIC_MASK;
	/* "$HOME" alone or with a path is a home (builder_state_assign()) */
	bool home = dynamic == WORD_PARAM && here->target.w.n_vars == 1 &&
	            strcmp(here->target.w.vars[0], "HOME") == 0;
	if ((dynamic != 0 && dynamic != WORD_TILDE && !home) || len == 0 || strpbrk(v, "\\\n") ||
	    strchr(" \t", v[0]) || strchr(" \t", v[len - 1]))
		return false;
	*error = builder_state_assign(st, c->argv[i].w.text, &here->target.w);
	return true;
}

/* `read -ra NAME <<< "WORDS"` (-a, -r -a, -ar) of static words: NAME holds
 * them as an array (`read -ra dirs <<< "build dist"`), split at blanks as
 * read does with the default IFS. True when it set NAME; anything else
 * (a home, a variable: what read reads) is not followed. */
static bool read_array_here_string(const struct simple_command *c, struct model_state *st,
                                   int *error)
{
	size_t i = 1;
	bool array = false;
	for (; i + 1 < c->argc && c->argv[i].w.text[0] == '-'; i++) {
		const char *o = c->argv[i].w.text;
		if (o[strspn(o + 1, "ra") + 1] != '\0')
			return false;
		array |= strchr(o, 'a') != NULL;
	}
	const char *var = i + 1 == c->argc ? c->argv[i].w.text : NULL;
	const struct model_redirect *here = c->n_redirects == 1 ? &c->redirects[0] : NULL;
	if (!array || !var || !shell_word_is_name(var, strlen(var)) || !here ||
	    strcmp(here->op, "<<<") != 0 || here->fd > 0 ||
	    !builder_word_is_static(&here->target) || strpbrk(here->target.w.text, "\\*?["))
		return false;
	char copy[1024], slot[96], count[24];
	snprintf(copy, sizeof(copy), "%s", here->target.w.text);
	if (strlen(here->target.w.text) >= sizeof(copy))
		return false;
	size_t words = 0; /* at most 8, as an array's elements */
	for (const char *p = copy + strspn(copy, " \t\n"); *p; p += strspn(p, " \t\n")) {
		words++;
		p += strcspn(p, " \t\n");
	}
	if (words > 8)
		return false;
	model_state_unset(st, var);
	long n = 0;
	char *save = NULL;
	for (char *tok = strtok_r(copy, " \t\n", &save); tok && *error >= 0;
	     tok = strtok_r(NULL, " \t\n", &save))
		*error = model_state_set(st, builder_array_slot(var, n++, slot, sizeof(slot)), tok);
	snprintf(count, sizeof(count), "%ld", n);
	if (*error >= 0)
		*error =
		        model_state_set(st, builder_array_slot(var, -1, slot, sizeof(slot)), count);
	if (*error >= 0 && n > 0)
		*error = model_state_copy_var(st, var,
		                              builder_array_slot(var, 0, slot, sizeof(slot)));
	return true;
}

/* `printf -v NAME '%s' WORD` and `printf -v NAME TEXT` (no % or backslash
 * in TEXT): NAME is WORD (a home stays one) or TEXT. True when it set
 * NAME. */
static bool printf_to_var(const struct simple_command *c, struct model_state *st, int *error)
{
	if (c->argc < 4 || c->argc > 5 || strcmp(c->argv[1].w.text, "-v") != 0 ||
	    !builder_word_is_static(&c->argv[2]) || !builder_word_is_static(&c->argv[3]) ||
	    !shell_word_is_name(c->argv[2].w.text, strlen(c->argv[2].w.text)))
		return false;
	const char *format = c->argv[3].w.text;
	const struct model_word *value = NULL;
	if (c->argc == 4 && !strpbrk(format, "%\\"))
		value = &c->argv[3];
	else if (c->argc == 5 && strcmp(format, "%s") == 0)
		value = &c->argv[4];
	if (!value)
		return false;
	*error = builder_state_assign(st, c->argv[2].w.text, &value->w);
	return true;
}

/* What the command changes for the commands after it. */
void builder_effects(struct builder *b, struct simple_command *c, struct model_state *st)
{
	const char *name = c->name;
	/* a name with a slash runs a program, never a builtin of this shell */
	if (c->flags & CMD_NAME_DYNAMIC || strchr(c->argv[0].w.text, '/'))
		return;
	bool only_builtin = true; /* `sudo cd x` changes nothing here */
	for (size_t i = c->n_inherited_wrappers; i < c->n_wrappers; i++)
		if (strcmp(c->wrappers[i].name, "builtin") != 0 &&
		    strcmp(c->wrappers[i].name, "command") != 0)
			only_builtin = false;
	if ((strcmp(name, "cd") == 0 || strcmp(name, "pushd") == 0) && only_builtin) {
		size_t i = 1;
		while (i < c->argc && c->argv[i].w.text[0] == '-' && c->argv[i].w.text[1] &&
		       strcmp(c->argv[i].w.text, "--") != 0)
			i++;
		if (i < c->argc && strcmp(c->argv[i].w.text, "--") == 0)
			i++;
		const char *dir = "~";
		uint32_t flags = 0;
		if (i < c->argc) {
			dir = c->argv[i].w.text;
			flags = c->argv[i].w.flags & WORD_DYNAMIC_MASK;
		}
		if (flags == WORD_PARAM && is_home(c->argv[i].source)) {
			dir = "~";
			flags = 0;
		}
		bool known = (flags == 0 || flags == WORD_TILDE) && strcmp(dir, "-") != 0;
		b->error = model_state_cd(st, known ? dir : NULL);
	} else if (strcmp(name, "popd") == 0) {
		b->error = model_state_cd(st, NULL);
	} else if (strcmp(name, "source") == 0 || strcmp(name, ".") == 0 ||
	           c->flags & CMD_FUNCTION_CALL) {
		model_state_forget_all(st);
		b->error = model_state_cd(st, NULL);
	} else if (strcmp(name, "set") == 0 || strcmp(name, "shift") == 0) {
		b->error = name[1] == 'e' ? set_positional_params(c, st) : shift_params(c, st);
	} else if (strcmp(name, "read") == 0 || strcmp(name, "printf") == 0 ||
	           strcmp(name, "getopts") == 0 || strcmp(name, "mapfile") == 0 ||
	           strcmp(name, "readarray") == 0) {
		if (strcmp(name, "read") == 0 && !strstr(b->m->source, "IFS") &&
		    read_array_here_string(c, st, &b->error))
			return;
		if (strcmp(name, "read") == 0 && read_here_string(b, c, st, &b->error))
			return;
		if (strcmp(name, "printf") == 0 && printf_to_var(c, st, &b->error))
			return;
		/* they assign variables named by their words: forget them all */
		for (size_t i = 1; i < c->argc; i++)
			model_state_unset(st, c->argv[i].w.text);
	}
}
