/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the commits a todo list picks
 * (git-later-todo.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "strv.h"
#include "run/git-command.h"
#include "run/git-later-git.h"
#include "run/git-later-refs.h"
#include "run/git-later-todo.h"
#include "run/git-later.h"

/* The verbs that apply a commit, long and short (git's sequencer.c). */
static const char *const verbs[][2] = {
	{ "pick", "p" }, { "reword", "r" }, { "edit", "e" }, { "squash", "s" }, { "fixup", "f" },
};

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *word_end(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* The name the line [line, end) picks, as git reads it (blanks first, the
 * verb, fixup's -C or -c, then the name up to a blank), into *name and
 * *len; false for a line that picks nothing. */
static bool picked(const char *line, const char *end, const char **name, size_t *len)
{
	const char *v = skip_blanks(line, end), *p = word_end(v, end);
	size_t vl = (size_t)(p - v);
	bool verb = false, fixup = false;
	for (size_t i = 0; i < sizeof(verbs) / sizeof(*verbs) && !verb; i++) {
		verb = (vl == strlen(verbs[i][0]) && memcmp(v, verbs[i][0], vl) == 0) ||
		       (vl == 1 && *v == verbs[i][1][0]);
		fixup = verb && i == 4;
	}
	if (!verb)
		return false;
	p = skip_blanks(p, end);
	if (fixup && end - p >= 2 && p[0] == '-' && (p[1] == 'C' || p[1] == 'c') &&
	    (end - p == 2 || p[2] == ' ' || p[2] == '\t'))
		p = skip_blanks(p + 2, end);
	*name = p;
	*len = (size_t)(word_end(p, end) - p);
	return *len > 0;
}

/* The commit each picking line of text names, resolved by git in gitdir
 * (`git cat-file --batch-check`, each name peeled to a commit), in the
 * lines' order into *ids ("" for a name git cannot resolve: git then
 * refuses the list, and applies nothing). */
static int resolve(struct git_later *g, struct git_sweep *s, const char *gitdir, const char *text,
                   char ***ids)
{
	*ids = NULL;
	_cleanup_free_ char *input = NULL;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&input, &len);
	if (!f)
		return -ENOMEM;
	for (const char *line = text; *line;) {
		const char *end = line + strcspn(line, "\n"), *name;
		size_t nl;
		if (picked(line, end, &name, &nl)) {
			fprintf(f, "%.*s^{commit}\n", (int)nl, name);
			n++;
		}
		line = *end ? end + 1 : end;
	}
	if (fclose(f) != 0)
		return -ENOMEM;
	if (n == 0)
		return 0;
	_cleanup_close_ int in = git_command_memfd("sluice-git-todo", input, len);
	if (in < 0)
		return in;
	const char *args[] = { "cat-file", "--batch-check=%(objectname) %(objecttype)", NULL };
	struct git_output o;
	int r = git_later_ok_in(g, s, gitdir, "git cat-file (a todo list's commits)", args, in, &o);
	char *save = NULL;
	for (char *p = r == 0 ? strtok_r(o.data, "\n", &save) : NULL; p && r == 0;
	     p = strtok_r(NULL, "\n", &save)) {
		char *type = strchr(p, ' ');
		if (type)
			*type++ = '\0';
		bool commit =
		        type && strcmp(type, "commit") == 0 && git_later_is_hex(p, g->hex_len);
		r = strv_extend(ids, commit ? p : "");
	}
	git_output_done(&o);
	if (r == 0 && strv_length(*ids) != n)
		r = -EIO; /* git answers a line for each: not this git */
	return r;
}

int git_later_todo_ids(struct git_later *g, struct git_sweep *s, const char *gitdir,
                       const char *text, char ***ids)
{
	_cleanup_strv_free_ char **each = NULL;
	int r = resolve(g, s, gitdir, text, &each);
	for (size_t i = 0; r == 0 && each && each[i]; i++)
		if (each[i][0] && !git_later_listed(*ids, each[i]) && strv_extend(ids, each[i]) < 0)
			r = -ENOMEM;
	return r;
}

int git_later_todo_drop(struct git_later *g, struct git_sweep *s, const char *gitdir,
                        const char *text, char **planting, char **ret)
{
	*ret = NULL;
	_cleanup_strv_free_ char **each = NULL;
	int r = resolve(g, s, gitdir, text, &each);
	if (r < 0)
		return r;
	size_t len = 0, k = 0;
	FILE *f = open_memstream(ret, &len);
	if (!f)
		return -ENOMEM;
	for (const char *line = text; *line;) {
		const char *end = line + strcspn(line, "\n"), *name;
		size_t nl;
		const char *id = picked(line, end, &name, &nl) && each ? each[k++] : NULL;
		if (id && id[0] && git_later_listed(planting, id))
			fprintf(f, "drop %s # sluice: was %.*s\n", id, (int)(end - line), line);
		else
			fprintf(f, "%.*s%s", (int)(end - line), line, *end ? "\n" : "");
		line = *end ? end + 1 : end;
	}
	if (fclose(f) != 0) {
		free(*ret);
		*ret = NULL;
		return -ENOMEM;
	}
	return 0;
}
