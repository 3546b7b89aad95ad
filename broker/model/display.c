/* SPDX-License-Identifier: MIT */
/*
 * The display form (see display.h): finds the first `cd DIR` of the top-level
 * list in the syntax tree and, when it leads into the working directory and
 * is followed by `&&`, `;` or a newline, leaves it out of the text.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "model/model-storage.h"
#include "model/display.h"

/* The path with trailing slashes removed (but "/" kept). */
static void trim_slashes(char *p)
{
	size_t len = strlen(p);
	while (len > 1 && p[len - 1] == '/')
		p[--len] = '\0';
}

static bool same_dir(const char *dir, const char *cwd)
{
	if (strcmp(dir, ".") == 0)
		return true;
	_cleanup_free_ char *abs = NULL;
	if (dir[0] == '/')
		abs = strdup(dir);
	else if (asprintf(&abs, "%s/%s", cwd, dir) < 0)
		abs = NULL;
	if (!abs)
		return false;
	_cleanup_free_ char *a = realpath(abs, NULL);
	_cleanup_free_ char *b = realpath(cwd, NULL);
	if (a && b)
		return strcmp(a, b) == 0;
	_cleanup_free_ char *c = strdup(cwd);
	if (!c)
		return false;
	trim_slashes(abs);
	trim_slashes(c);
	return strcmp(abs, c) == 0;
}

/* Is n `cd DIR` with DIR the working directory? */
static bool is_cd_here(const char *src, const struct shell_node *n, const char *cwd)
{
	if (n->kind != SN_COMMAND || !cwd)
		return false;
	const struct shell_node *words[3];
	size_t count = 0;
	for (uint32_t i = 0; i < n->n_children; i++) {
		const struct shell_node *k = &n->children[i];
		if (k->kind == SN_COMMAND_NAME && k->n_children == 1)
			k = &k->children[0];
		else if (!shell_node_is_word(k))
			return false; /* redirections, assignments: keep it */
		if (count == 2)
			return false;
		words[count++] = k;
	}
	if (count != 2 || !shell_node_text_is(src, words[0], "cd"))
		return false;
	struct shell_word w;
	if (shell_word_expand(src, words[1], NULL, NULL, &w) < 0)
		return false;
	bool here = false;
	uint32_t dynamic = w.flags & WORD_DYNAMIC_MASK;
	if (dynamic == 0) {
		here = same_dir(w.text, cwd);
	} else if (dynamic == WORD_TILDE && (w.text[1] == '\0' || w.text[1] == '/')) {
		const char *home = getenv("HOME");
		_cleanup_free_ char *dir = NULL;
		if (home && asprintf(&dir, "%s%s", home, w.text + 1) >= 0)
			here = same_dir(dir, cwd);
	}
	shell_word_done(&w);
	return here;
}

static char *strip(const char *src, size_t len, size_t cut_from, size_t cut_to)
{
	char *out = NULL;
	if (asprintf(&out, "%.*s%.*s", (int)cut_from, src, (int)(len - cut_to), src + cut_to) < 0)
		return NULL;
	return out;
}

/* The first statement of root and what follows it. */
static int strip_cd(const struct command_model *m, const char *cwd, char **ret)
{
	const char *src = m->source;
	const struct shell_node *root = &m->tree.root;
	for (uint32_t i = 0; i < root->n_children; i++) {
		const struct shell_node *s = &root->children[i];
		if (s->kind == SN_COMMENT)
			continue;
		if (!shell_node_is_statement(s))
			return 0;
		if (s->kind == SN_COMMAND) {
			/* `cd DIR; REST` or `cd DIR <newline> REST` */
			uint32_t next = i + 1;
			if (next < root->n_children &&
			    shell_node_is_token(src, &root->children[next], ";"))
				next++;
			if (next >= root->n_children || root->children[next].kind == SN_TOKEN ||
			    !is_cd_here(src, s, cwd))
				return 0;
			*ret = strip(src, m->len, s->start, root->children[next].start);
			return *ret ? 1 : -ENOMEM;
		}
		/* `cd DIR && REST...`: the leftmost command of the list */
		const struct shell_node *list = NULL, *left = s;
		while (left->kind == SN_LIST && left->n_children >= 3) {
			list = left;
			left = &left->children[0];
		}
		if (!list || !shell_node_is_token(src, &list->children[1], "&&") ||
		    !is_cd_here(src, left, cwd))
			return 0;
		*ret = strip(src, m->len, left->start, list->children[2].start);
		return *ret ? 1 : -ENOMEM;
	}
	return 0;
}

int display_form_of_run(struct command_model_parser *parser, const struct command_model *m,
                        const char *rewrite, const char *cwd, char **ret,
                        struct sluice_error *reterr)
{
	_cleanup_(command_model_freep) struct command_model *rewritten = NULL;
	if (rewrite) {
		int r = command_model_parse(parser, rewrite, strlen(rewrite), NULL, &rewritten,
		                            reterr);
		if (r < 0)
			return r;
	}
	int r = display_form(rewritten ? rewritten : m, cwd, ret);
	return r < 0 ? sluice_error_set(reterr, r, "forming the display") : 0;
}

int display_form(const struct command_model *m, const char *cwd, char **ret)
{
	if (!m->tree.timed_out && !m->tree.has_error && !m->tree.blank_control) {
		int r = strip_cd(m, cwd, ret);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	*ret = strdup(m->source);
	return *ret ? 0 : -ENOMEM;
}
