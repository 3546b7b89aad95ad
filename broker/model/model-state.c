/* SPDX-License-Identifier: MIT */
/*
 * struct model_state: literal variables and the cd directory (see
 * model-state.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "model/model-state.h"

void model_state_done(struct model_state *s)
{
	model_state_forget_all(s);
	free(s->cwd);
	s->cwd = NULL;
	s->cwd_unknown = false;
}

int model_state_copy(struct model_state *dst, const struct model_state *src)
{
	*dst = (struct model_state){ .cwd_unknown = src->cwd_unknown };
	if (src->cwd) {
		dst->cwd = strdup(src->cwd);
		if (!dst->cwd)
			return -ENOMEM;
	}
	for (size_t i = 0; i < src->n_vars; i++) {
		const struct model_var *v = &src->vars[i];
		int r = model_state_set_marked(dst, v->name, v->value, v->tilde, v->glob);
		if (r < 0) {
			model_state_done(dst);
			return r;
		}
	}
	return 0;
}

static struct model_var *find_var_n(const struct model_state *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->n_vars; i++)
		if (strncmp(s->vars[i].name, name, len) == 0 && s->vars[i].name[len] == '\0')
			return (struct model_var *)&s->vars[i];
	return NULL;
}

static struct model_var *find_var(const struct model_state *s, const char *name)
{
	return find_var_n(s, name, strlen(name));
}

const char *model_state_get(const struct model_state *s, const char *name)
{
	const struct model_var *v = find_var(s, name);
	return v ? v->value : NULL;
}

int model_state_set_marked(struct model_state *s, const char *name, const char *value, bool tilde,
                           bool glob)
{
	char *copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	struct model_var *v = find_var(s, name);
	if (v) {
		free(v->value);
		v->value = copy;
		v->tilde = tilde;
		v->glob = glob;
		return 0;
	}
	if (s->n_vars >= MODEL_STATE_MAX_VARS) {
		free(copy);
		return 0;
	}
	char *n = strdup(name);
	if (!n) {
		free(copy);
		return -ENOMEM;
	}
	s->vars[s->n_vars++] = (struct model_var){ n, copy, tilde, glob };
	return 0;
}

int model_state_set(struct model_state *s, const char *name, const char *value)
{
	return model_state_set_marked(s, name, value, false, false);
}

int model_state_set_tilde(struct model_state *s, const char *name, const char *value)
{
	return model_state_set_marked(s, name, value, true, false);
}

bool model_state_tilde(const struct model_state *s, const char *name)
{
	const struct model_var *v = find_var(s, name);
	return v && v->tilde;
}

bool model_state_glob(const struct model_state *s, const char *name)
{
	const struct model_var *v = find_var(s, name);
	return v && v->glob;
}

bool model_state_positional_glob(const struct model_state *s, unsigned last)
{
	for (unsigned k = 1; k <= last && k <= 9; k++) {
		char p[2] = { (char)('0' + k), '\0' };
		if (model_state_glob(s, p))
			return true;
	}
	return false;
}

int model_state_copy_var(struct model_state *s, const char *to, const char *from)
{
	const struct model_var *v = find_var(s, from);
	if (!v) {
		model_state_unset(s, to);
		return 0;
	}
	/* v may move when to is added: copy what it holds first */
	_cleanup_free_ char *value = strdup(v->value);
	if (!value)
		return -ENOMEM;
	return model_state_set_marked(s, to, value, v->tilde, v->glob);
}

void model_state_unset_n(struct model_state *s, const char *name, size_t len)
{
	/* name may be one of s's own names (model_state_merge_vars passes
	 * one), freed below: compare with a copy. Without memory for it, forget
	 * every value: unknown is the safe side. */
	_cleanup_free_ char *own = strndup(name, len);
	if (!own) {
		model_state_forget_all(s);
		return;
	}
	for (size_t i = 0; i < s->n_vars;) {
		struct model_var *v = &s->vars[i];
		/* NAME, and the elements of an array NAME: NAME[0] ... NAME[#] */
		if (strncmp(v->name, own, len) != 0 ||
		    (v->name[len] != '\0' && v->name[len] != '[')) {
			i++;
			continue;
		}
		free(v->name);
		free(v->value);
		*v = s->vars[--s->n_vars]; /* the last one moves to i */
	}
}

void model_state_unset(struct model_state *s, const char *name)
{
	model_state_unset_n(s, name, strlen(name));
}

void model_state_forget_all(struct model_state *s)
{
	for (size_t i = 0; i < s->n_vars; i++) {
		free(s->vars[i].name);
		free(s->vars[i].value);
	}
	s->n_vars = 0;
}

char *model_state_join(const char *base, const char *dir)
{
	if (!base || dir[0] == '/' || dir[0] == '~')
		return strdup(dir);
	char *out = NULL;
	size_t blen = strlen(base);
	const char *sep = blen > 0 && base[blen - 1] == '/' ? "" : "/";
	if (asprintf(&out, "%s%s%s", base, sep, dir) < 0)
		return NULL;
	return out;
}

int model_state_cd(struct model_state *s, const char *dir)
{
	if (!dir || s->cwd_unknown) {
		free(s->cwd);
		s->cwd = NULL;
		s->cwd_unknown = true;
		return 0;
	}
	char *joined = model_state_join(s->cwd, dir);
	if (!joined)
		return -ENOMEM;
	free(s->cwd);
	s->cwd = joined;
	return 0;
}

void model_state_merge(struct model_state *s, const struct model_state *other)
{
	model_state_merge_vars(s, other);
	bool same = s->cwd_unknown == other->cwd_unknown &&
	            ((!s->cwd && !other->cwd) ||
	             (s->cwd && other->cwd && strcmp(s->cwd, other->cwd) == 0));
	if (!same)
		(void)model_state_cd(s, NULL);
}

void model_state_merge_vars(struct model_state *s, const struct model_state *other)
{
	for (size_t i = 0; i < s->n_vars;) {
		const char *theirs = model_state_get(other, s->vars[i].name);
		if (theirs && strcmp(theirs, s->vars[i].value) == 0 &&
		    model_state_tilde(other, s->vars[i].name) == s->vars[i].tilde &&
		    model_state_glob(other, s->vars[i].name) == s->vars[i].glob) {
			i++;
			continue;
		}
		/* forgets an array's elements with it, wherever they are: look
		 * again from the start */
		model_state_unset(s, s->vars[i].name);
		i = 0;
	}
}
