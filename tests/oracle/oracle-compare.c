/* SPDX-License-Identifier: MIT */
/*
 * The model's predictions as word patterns, and the match of a record
 * against them (see oracle-compare.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "oracle/oracle-compare.h"
#include "policy/verdict.h"
#include "strv.h"

/* One argv the model says may run: words[0..n), each exact or wild. */
struct form {
	size_t n;
	const char **words; /* borrowed from the model */
	bool *wild;         /* stands for any number of words (0 too) */
	bool incomplete;    /* words may follow (xargs appends its input) */
	/* the argv may end after this many words: the words of the command
	 * an xargs wrapper starts that came from its input are not in the
	 * xargs's own argv (SIZE_MAX: it may not) */
	size_t may_end_from;
};

struct oracle_prediction {
	struct form *forms;
	size_t n_forms, alloc;
	char **names; /* variables the model sees assigned (strv) */
	bool asks;
};

struct oracle_prediction *oracle_prediction_free(struct oracle_prediction *p)
{
	if (!p)
		return NULL;
	for (size_t i = 0; i < p->n_forms; i++) {
		free(p->forms[i].words);
		free(p->forms[i].wild);
	}
	free(p->forms);
	strv_free(p->names);
	free(p);
	return NULL;
}

bool oracle_prediction_asks(const struct oracle_prediction *p)
{
	return p->asks;
}

/* A wrapper's words carry no flags: a word that bash would expand is
 * taken as wild. */
static bool looks_dynamic(const char *w)
{
	return w[0] == '~' || strpbrk(w, "$`*?[") != NULL;
}

/* The string xargs -I / -i / --replace puts its input in place of, or NULL. */
static const char *xargs_replace(const struct simple_command *c)
{
	for (size_t i = 0; i < simple_command_wrapper_count(c); i++) {
		if (strcmp(simple_command_wrapper_name(c, i), "xargs") != 0)
			continue;
		size_t n = simple_command_wrapper_argc(c, i);
		for (size_t j = 1; j < n; j++) {
			const char *w = simple_command_wrapper_arg(c, i, j);
			if (strcmp(w, "-I") == 0 && j + 1 < n)
				return simple_command_wrapper_arg(c, i, j + 1);
			if (strncmp(w, "-I", 2) == 0 && w[2])
				return w + 2;
			if (strncmp(w, "-i", 2) == 0 || strcmp(w, "--replace") == 0)
				return w[2] && w[1] == 'i' ? w + 2 : "{}";
			if (strncmp(w, "--replace=", 10) == 0)
				return w + 10;
		}
	}
	return NULL;
}

static int add_form(struct oracle_prediction *p, const struct simple_command *c,
                    size_t from_wrapper)
{
	size_t nw = simple_command_wrapper_count(c), argc = simple_command_argc(c), n = argc;
	for (size_t i = from_wrapper; i < nw; i++)
		n += simple_command_wrapper_argc(c, i);
	if (n == 0)
		return 0;
	if (p->n_forms == p->alloc) {
		size_t want = p->alloc ? p->alloc * 2 : 16;
		struct form *f = reallocarray(p->forms, want, sizeof(*f));
		if (!f)
			return -ENOMEM;
		p->forms = f;
		p->alloc = want;
	}
	struct form *f = &p->forms[p->n_forms];
	*f = (struct form){
		.n = n,
		.words = calloc(n, sizeof(char *)),
		.wild = calloc(n, sizeof(bool)),
		.incomplete = (simple_command_flags(c) & CMD_ARGV_INCOMPLETE) != 0,
	};
	if (!f->words || !f->wild) {
		free(f->words);
		free(f->wild);
		return -ENOMEM;
	}
	p->n_forms++;
	const char *replace = f->incomplete ? xargs_replace(c) : NULL;
	size_t k = 0;
	f->may_end_from = SIZE_MAX;
	for (size_t i = from_wrapper; i < nw; i++) {
		if (strcmp(simple_command_wrapper_name(c, i), "xargs") == 0 &&
		    f->may_end_from == SIZE_MAX)
			f->may_end_from = n - argc + 1; /* the command's name on */
		for (size_t j = 0; j < simple_command_wrapper_argc(c, i); j++, k++) {
			f->words[k] = simple_command_wrapper_arg(c, i, j);
			f->wild[k] = looks_dynamic(f->words[k]);
		}
	}
	for (size_t i = 0; i < argc; i++, k++) {
		f->words[k] = simple_command_arg(c, i);
		f->wild[k] =
		        !simple_command_arg_is_static(c, i) ||
		        (f->incomplete && (strstr(f->words[k], "{}") ||
		                           (replace && *replace && strstr(f->words[k], replace))));
	}
	return 0;
}

/* NAME of a word NAME=..., NAME+=... or NAME[...]=..., into *len; false
 * when the word is no assignment. */
static bool assignment_name(const char *w, size_t *len)
{
	size_t n = 0;
	if (!((w[0] >= 'a' && w[0] <= 'z') || (w[0] >= 'A' && w[0] <= 'Z') || w[0] == '_'))
		return false;
	while ((w[n] >= 'a' && w[n] <= 'z') || (w[n] >= 'A' && w[n] <= 'Z') ||
	       (w[n] >= '0' && w[n] <= '9') || w[n] == '_')
		n++;
	*len = n;
	return w[n] == '=' || (w[n] == '+' && w[n + 1] == '=') || w[n] == '[';
}

static int add_name(struct oracle_prediction *p, const char *name, size_t len)
{
	_cleanup_free_ char *copy = strndup(name, len);
	if (!copy)
		return -ENOMEM;
	return strv_consume(&p->names, TAKE_PTR(copy));
}

/* Where git's own options end in words[0..n) (git first): the trace of
 * the command an alias became shows it without them. */
static size_t git_options_end(const char *const *words, size_t n)
{
	static const char *const with_value[] = {
		"-C",          "-c",           "--git-dir",     "--work-tree",
		"--namespace", "--config-env", "--super-prefix"
	};
	size_t i = 1;
	while (i < n && words[i][0] == '-') {
		bool takes = false;
		for (size_t k = 0; k < ELEMENTSOF(with_value); k++)
			takes |= strcmp(words[i], with_value[k]) == 0;
		i += takes ? 2 : 1;
	}
	return i < n ? i : n;
}

/* The form of a git command without git's own options. */
static int add_git_form(struct oracle_prediction *p, const struct simple_command *c)
{
	size_t n = simple_command_argc(c);
	if (n < 2 || strcmp(simple_command_name(c), "git") != 0 || p->n_forms == 0)
		return 0;
	const struct form *full = &p->forms[p->n_forms - 1]; /* argv alone, just added */
	if (full->n != n || full->words[0] != simple_command_arg(c, 0))
		return 0;
	size_t skip = git_options_end(full->words, n);
	if (skip <= 1)
		return 0;
	if (p->n_forms == p->alloc) {
		size_t want = p->alloc * 2;
		struct form *f = reallocarray(p->forms, want, sizeof(*f));
		if (!f)
			return -ENOMEM;
		p->forms = f;
		p->alloc = want;
		full = &p->forms[p->n_forms - 1];
	}
	struct form *f = &p->forms[p->n_forms];
	*f = (struct form){ .n = n - skip + 1,
		            .incomplete = full->incomplete,
		            .may_end_from = SIZE_MAX };
	f->words = calloc(f->n, sizeof(char *));
	f->wild = calloc(f->n, sizeof(bool));
	if (!f->words || !f->wild) {
		free(f->words);
		free(f->wild);
		return -ENOMEM;
	}
	f->words[0] = full->words[0];
	memcpy(f->words + 1, full->words + skip, (n - skip) * sizeof(char *));
	memcpy(f->wild + 1, full->wild + skip, (n - skip) * sizeof(bool));
	p->n_forms++;
	return 0;
}

static int predict_command(struct oracle_prediction *p, const struct simple_command *c)
{
	int r = 0;
	for (size_t i = 0; i <= simple_command_wrapper_count(c) && r >= 0; i++)
		r = add_form(p, c, i);
	if (r >= 0)
		r = add_git_form(p, c);
	for (size_t i = 0; i < simple_command_assign_count(c) && r >= 0; i++) {
		const char *name = simple_command_assign_name(c, i);
		r = add_name(p, name, strlen(name));
	}
	for (size_t i = 0; i < simple_command_argc(c) && r >= 0; i++) {
		size_t len;
		if (assignment_name(simple_command_arg(c, i), &len))
			r = add_name(p, simple_command_arg(c, i), len);
	}
	return r;
}

int oracle_prediction_new(const struct command_model *m, struct oracle_prediction **ret)
{
	struct oracle_prediction *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	int r = 0;
	for (size_t i = 0; i < command_model_count(m) && r >= 0; i++)
		r = predict_command(p, command_model_get(m, i));
	struct verdict v;
	verdict_init(&v);
	if (r >= 0)
		r = verdict_from_model(&v, m);
	p->asks = v.kind != VERDICT_ALLOW;
	verdict_done(&v);
	if (r < 0) {
		oracle_prediction_free(p);
		return r;
	}
	*ret = p;
	return 0;
}

/* Glob-style: a wild word takes any run of argv's words. */
static bool form_matches(const struct form *f, char *const *argv, size_t n)
{
	_cleanup_free_ bool *cur = calloc(n + 1, sizeof(bool));
	_cleanup_free_ bool *next = calloc(n + 1, sizeof(bool));
	if (!cur || !next)
		return false; /* out of memory: counted as not explained, never hidden */
	cur[0] = true;
	for (size_t i = 0; i < f->n; i++) {
		bool any = false;
		for (size_t j = 0; j <= n; j++) {
			if (f->wild[i]) {
				any |= cur[j];
				next[j] = any;
			} else {
				next[j] = j > 0 && cur[j - 1] &&
				          strcmp(f->words[i], argv[j - 1]) == 0;
			}
		}
		memcpy(cur, next, (n + 1) * sizeof(bool));
		if (i + 1 >= f->may_end_from && cur[n])
			return true;
	}
	if (!f->incomplete)
		return cur[n];
	for (size_t j = 0; j <= n; j++)
		if (cur[j])
			return true;
	return false;
}

bool oracle_prediction_explains(const struct oracle_prediction *p, char *const *argv)
{
	size_t n = strv_length(argv), len;
	if (n > 0 && assignment_name(argv[0], &len)) {
		STRV_FOREACH (name, p->names)
			if (strlen(*name) == len && strncmp(*name, argv[0], len) == 0)
				return true;
	}
	for (size_t i = 0; i < p->n_forms; i++)
		if (form_matches(&p->forms[i], argv, n))
			return true;
	return false;
}

bool oracle_record_ignored(char *const *argv)
{
	static const char *const heads[] = { "for", "select", "case", "[[", "((", "[" };
	if (!argv[0])
		return true;
	for (size_t i = 0; i < ELEMENTSOF(heads); i++)
		if (strcmp(argv[0], heads[i]) == 0)
			return true;
	return false;
}
