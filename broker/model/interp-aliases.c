/* SPDX-License-Identifier: MIT */
/*
 * The names code gives to modules and to their calls, read from its tokens
 * (interp-lang.h) so that a call through one is found by its full name:
 * python's `import shutil as s`, `from shutil import rmtree as r`, `from
 * os import system`; JavaScript's `const f = require('fs')`, `const
 * {rmSync: r} = require('fs')`, `import * as f from 'fs'`, `import
 * {rmSync as r} from 'node:fs'`; `r = os.system` in either; ruby's
 * `include FileUtils` (its calls without the module's name). Each NAME
 * token that begins with such a name is rewritten: `s.rmtree` becomes
 * `shutil.rmtree`.
 * Not for: names made at run time (getattr(os, 'system'), importlib,
 * `fs[name]`): the reader does not know them.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/interp-lang.h"

/* Names given in one piece of code; past this, more are not followed. */
#define ALIASES_MAX 32
/* Modules whose calls are named without the module (ruby's include). */
#define MIXINS_MAX 4
/* A full name made from an alias. */
#define FULL_NAME_CAP 256

struct aliases {
	char *name[ALIASES_MAX]; /* owned */
	char *full[ALIASES_MAX]; /* owned */
	size_t n;
	const char *mixin[MIXINS_MAX]; /* borrowed from the tokens */
	size_t n_mixins;
};

static void aliases_done(struct aliases *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->name[i]);
		free(a->full[i]);
	}
}

static const struct interp_token *tok_at(const struct interp_tokens *t, size_t i)
{
	return i < t->n ? &t->v[i] : NULL;
}

static bool is_name(const struct interp_tokens *t, size_t i, const char *text)
{
	const struct interp_token *k = tok_at(t, i);
	return k && k->type == TOK_NAME && (!text || strcmp(k->text, text) == 0);
}

static bool is_punct(const struct interp_tokens *t, size_t i, char c)
{
	const struct interp_token *k = tok_at(t, i);
	return k && k->type == TOK_PUNCT && k->punct == c;
}

/* A module as JavaScript names it ('node:fs', 'fs/promises') as a dotted
 * name of the tables ("fs", "fs.promises"), into buf. */
static const char *module_name(const char *spec, char *buf, size_t size)
{
	if (strncmp(spec, "node:", 5) == 0)
		spec += 5;
	snprintf(buf, size, "%s", spec);
	for (char *p = buf; *p; p++)
		if (*p == '/')
			*p = '.';
	return buf;
}

/* name stands for full (a dotted name); a full name that begins with an
 * earlier alias is that alias's (`import os as o; r = o.system`). 0 or
 * -ENOMEM. */
static int alias_add(struct aliases *a, const char *name, const char *full)
{
	if (a->n >= ALIASES_MAX || strcmp(name, full) == 0)
		return 0;
	char chained[FULL_NAME_CAP];
	size_t head = strcspn(full, ".");
	for (size_t i = a->n; i-- > 0;)
		if (strlen(a->name[i]) == head && strncmp(full, a->name[i], head) == 0) {
			snprintf(chained, sizeof(chained), "%s%s", a->full[i], full + head);
			full = chained;
			break;
		}
	char *n = strdup(name), *f = strdup(full);
	if (!n || !f) {
		free(n);
		free(f);
		return -ENOMEM;
	}
	a->name[a->n] = n;
	a->full[a->n] = f;
	a->n++;
	return 0;
}

/* module.member as a full name into buf. */
static const char *member(const char *module, const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s.%s", module, name);
	return buf;
}

/* python: `import A [as B], C [as D]` and `from A import x [as y], (z)`,
 * at token i (the `import` or `from`). */
static int python_import(const struct interp_tokens *t, size_t i, struct aliases *a)
{
	const char *from = NULL;
	if (is_name(t, i, "from")) {
		if (!is_name(t, i + 1, NULL) || !is_name(t, i + 2, "import"))
			return 0;
		from = t->v[i + 1].text;
		i += 2;
	}
	i++;
	bool parens = is_punct(t, i, '(');
	if (parens)
		i++;
	int r = 0;
	while (r >= 0 && is_name(t, i, NULL) && (parens || !t->v[i].line_start)) {
		const char *what = t->v[i].text;
		const char *as = is_name(t, i + 1, "as") && is_name(t, i + 2, NULL)
		                         ? t->v[i + 2].text
		                         : NULL;
		char full[FULL_NAME_CAP];
		if (from)
			r = alias_add(a, as ? as : what, member(from, what, full, sizeof(full)));
		else if (as)
			r = alias_add(a, as, what);
		i += as ? 3 : 1;
		if (!is_punct(t, i, ','))
			break;
		i++;
	}
	return r;
}

/* The module of `require('M')` at token i, into buf; NULL when there is
 * none. */
static const char *required_module(const struct interp_tokens *t, size_t i, char *buf, size_t size)
{
	const struct interp_token *spec = tok_at(t, i + 2);
	if (!is_name(t, i, "require") || !is_punct(t, i + 1, '(') || !spec ||
	    spec->type != TOK_STRING || spec->dynamic || !is_punct(t, i + 3, ')'))
		return NULL;
	return module_name(t->v[i + 2].text, buf, size);
}

/* `{a, b: c}` at token i (the `{`) of module: a is module.a, c module.b.
 * import: the list of an import (`a as c`), else a destructuring (`a: c`). */
static int js_members(const struct interp_tokens *t, size_t i, const char *module, bool import,
                      struct aliases *a)
{
	int r = 0;
	i++;
	while (r >= 0 && is_name(t, i, NULL)) {
		const char *what = t->v[i].text;
		const char *as = NULL;
		if (import && is_name(t, i + 1, "as") && is_name(t, i + 2, NULL))
			as = t->v[i += 2].text;
		else if (!import && is_punct(t, i + 1, ':') && is_name(t, i + 2, NULL))
			as = t->v[i += 2].text;
		char full[FULL_NAME_CAP];
		r = alias_add(a, as ? as : what, member(module, what, full, sizeof(full)));
		if (!is_punct(t, i + 1, ','))
			break;
		i += 2; /* the name after the comma */
	}
	return r;
}

/* `NAME = DOTTED.NAME` with nothing after it (`r = os.system`): NAME is
 * that name; not a call's result (`x = os.getcwd()`). */
static int plain_assignment(const struct interp_tokens *t, size_t i, struct aliases *a)
{
	if (!is_punct(t, i + 1, '=') || is_punct(t, i + 2, '=') || !is_name(t, i + 2, NULL) ||
	    !strchr(t->v[i + 2].text, '.') || strchr(t->v[i].text, '.'))
		return 0;
	const struct interp_token *after = tok_at(t, i + 3);
	if (after && !after->line_start &&
	    !(after->type == TOK_PUNCT && strchr(";,", after->punct)))
		return 0;
	return alias_add(a, t->v[i].text, t->v[i + 2].text);
}

/* JavaScript: `const|let|var NAME = require('M')`, `const {a, b: c} =
 * require('M')`, at token i (the keyword). */
static int js_require(const struct interp_tokens *t, size_t i, struct aliases *a)
{
	char module[FULL_NAME_CAP];
	if (is_name(t, i + 1, NULL) && is_punct(t, i + 2, '=') &&
	    required_module(t, i + 3, module, sizeof(module)))
		return alias_add(a, t->v[i + 1].text, module);
	if (!is_punct(t, i + 1, '{'))
		return is_name(t, i + 1, NULL) ? plain_assignment(t, i + 1, a) : 0;
	size_t close = i + 1;
	while (close < t->n && !is_punct(t, close, '}'))
		close++;
	if (!is_punct(t, close + 1, '=') || !required_module(t, close + 2, module, sizeof(module)))
		return 0;
	return js_members(t, i + 1, module, false, a);
}

/* JavaScript: `import NAME from 'M'`, `import * as NAME from 'M'`,
 * `import {a as b, c} from 'M'`, `import NAME, {a} from 'M'`, at token i. */
static int js_import(const struct interp_tokens *t, size_t i, struct aliases *a)
{
	size_t end = i + 1;
	while (end < t->n && !is_name(t, end, "from") && !t->v[end].line_start &&
	       !is_punct(t, end, ';'))
		end++;
	const struct interp_token *spec = tok_at(t, end + 1);
	if (!is_name(t, end, "from") || !spec || spec->type != TOK_STRING || spec->dynamic)
		return 0;
	char module[FULL_NAME_CAP];
	module_name(spec->text, module, sizeof(module));
	int r = 0;
	for (size_t k = i + 1; k < end && r >= 0; k++) {
		if (is_punct(t, k, '*') && is_name(t, k + 1, "as") && is_name(t, k + 2, NULL))
			r = alias_add(a, t->v[k += 2].text, module);
		else if (is_punct(t, k, '{')) {
			r = js_members(t, k, module, true, a);
			while (k < end && !is_punct(t, k, '}'))
				k++;
		} else if (is_name(t, k, NULL) && k == i + 1)
			r = alias_add(a, t->v[k].text, module); /* the default export */
	}
	return r;
}

static int collect(const struct interp_lang *lang, const struct interp_tokens *t, struct aliases *a)
{
	int r = 0;
	for (size_t i = 0; i < t->n && r >= 0; i++) {
		const struct interp_token *k = &t->v[i];
		if (k->type != TOK_NAME)
			continue;
		if ((lang->lex & LEX_PY_STRINGS) &&
		    (strcmp(k->text, "import") == 0 || strcmp(k->text, "from") == 0))
			r = python_import(t, i, a);
		else if ((lang->lex & LEX_REQUIRE) &&
		         (strcmp(k->text, "const") == 0 || strcmp(k->text, "let") == 0 ||
		          strcmp(k->text, "var") == 0))
			r = js_require(t, i, a);
		else if ((lang->lex & LEX_REQUIRE) && strcmp(k->text, "import") == 0)
			r = js_import(t, i, a);
		else if ((lang->lex & LEX_RUBY_PERCENT) && strcmp(k->text, "include") == 0 &&
		         is_name(t, i + 1, NULL) && a->n_mixins < MIXINS_MAX)
			a->mixin[a->n_mixins++] = t->v[i + 1].text;
		else if ((lang->lex & (LEX_PY_STRINGS | LEX_REQUIRE)) &&
		         (i == 0 || k->line_start || is_punct(t, i - 1, ';')))
			r = plain_assignment(t, i, a);
	}
	return r;
}

/* The full name of text, in buf, when its first part is an alias (or it
 * is a call of a mixed-in module); NULL when it is not. */
static const char *resolve(const struct interp_lang *lang, const struct aliases *a,
                           const char *text, char *buf, size_t size)
{
	size_t head = strcspn(text, ".");
	for (size_t i = a->n; i-- > 0;)
		if (strlen(a->name[i]) == head && strncmp(text, a->name[i], head) == 0) {
			snprintf(buf, size, "%s%s", a->full[i], text + head);
			return buf;
		}
	if (text[head] == '\0' && !interp_lang_call(lang, text))
		for (size_t i = 0; i < a->n_mixins; i++) {
			snprintf(buf, size, "%s.%s", a->mixin[i], text);
			if (interp_lang_call(lang, buf))
				return buf;
		}
	return NULL;
}

int interp_resolve_aliases(const struct interp_lang *lang, struct interp_tokens *t)
{
	struct aliases a = { 0 };
	int r = collect(lang, t, &a);
	if (r < 0 || (a.n == 0 && a.n_mixins == 0)) {
		aliases_done(&a);
		return r;
	}
	/* the mixins' names are borrowed from t: rewrite into a copy first */
	char **rewritten = calloc(t->n, sizeof(char *));
	if (!rewritten) {
		aliases_done(&a);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->n && r >= 0; i++) {
		char full[FULL_NAME_CAP];
		if (t->v[i].type == TOK_NAME &&
		    resolve(lang, &a, t->v[i].text, full, sizeof(full)) &&
		    !(rewritten[i] = strdup(full)))
			r = -ENOMEM;
	}
	for (size_t i = 0; i < t->n; i++) {
		if (!rewritten[i])
			continue;
		if (r >= 0) {
			free(t->v[i].text);
			t->v[i].text = rewritten[i];
		} else {
			free(rewritten[i]);
		}
	}
	free(rewritten);
	aliases_done(&a);
	return r;
}
