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

/* The verbs that name a commit, long and short (git's sequencer.c,
 * todo_command_info; revert has no short form): those that apply one
 * (made `drop` when it plants), and reset and merge, which go to or merge
 * any revision or a label (commented out). */
enum verb { V_PICK, V_REWORD, V_EDIT, V_SQUASH, V_FIXUP, V_REVERT, V_RESET, V_MERGE, VERBS };
static const char *const verbs[VERBS][2] = {
	[V_PICK] = { "pick", "p" },   [V_REWORD] = { "reword", "r" },
	[V_EDIT] = { "edit", "e" },   [V_SQUASH] = { "squash", "s" },
	[V_FIXUP] = { "fixup", "f" }, [V_REVERT] = { "revert", "" },
	[V_RESET] = { "reset", "t" }, [V_MERGE] = { "merge", "m" },
};

/* The names a line makes git resolve, at most: a merge's parents past it
 * make the line count as planting unresolved (fail closed). */
#define TODO_NAMES_MAX 16

/* What git resolves for one name: the name with a prefix and a suffix. */
struct todo_query {
	const char *prefix, *name, *suffix;
	size_t len;
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

static void query(struct todo_query *q, size_t *n, const char *prefix, const char *name, size_t len,
                  const char *suffix)
{
	if (*n < TODO_NAMES_MAX + 1 && len > 0)
		q[*n] = (struct todo_query){ prefix, name, suffix, len };
	*n += len > 0;
}

/* The verb of the line [line, end), as git's is_command() reads it (blanks
 * first, the long or short word, then a blank or the line's end), and
 * where its argument begins (*arg); VERBS for a line that names no commit
 * (a comment, exec, label, update-ref, break, noop, drop). */
static enum verb verb_of(const char *line, const char *end, const char **arg)
{
	const char *v = skip_blanks(line, end), *p = word_end(v, end);
	size_t vl = (size_t)(p - v);
	for (int i = 0; i < VERBS; i++)
		if ((vl == strlen(verbs[i][0]) && memcmp(v, verbs[i][0], vl) == 0) ||
		    (vl == 1 && verbs[i][1][0] && *v == verbs[i][1][0])) {
			*arg = skip_blanks(p, end);
			return (enum verb)i;
		}
	return VERBS;
}

/* What git resolves for the line [line, end) into q (as git's
 * parse_insn_line() and do_reset()/do_merge() read it): a picking verb's
 * commit (fixup's -C/-c first, its name right after or past blanks),
 * revert's and its parent (whose content the revert brings back), reset's
 * name and merge's -C commit and each parent (up to a '#'), the latter
 * two each as refs/rewritten/NAME (a label, which git reads first, and
 * which the run can write: a ref of the worktree's own) and as a revision.
 * Returns how many (TODO_NAMES_MAX + 1: too many to read), *v the verb. */
static size_t queries(const char *line, const char *end, struct todo_query q[TODO_NAMES_MAX + 1],
                      enum verb *v)
{
	const char *p;
	size_t n = 0;
	*v = verb_of(line, end, &p);
	if (*v == VERBS)
		return 0;
	if ((*v == V_FIXUP || *v == V_MERGE) && end - p >= 2 && p[0] == '-' &&
	    (p[1] == 'C' || p[1] == 'c')) {
		p = skip_blanks(p + 2, end);
		if (*v == V_MERGE) { /* the commit whose message (-c, -C) and, parents
		                      * matching, whose tree git takes */
			const char *e = word_end(p, end);
			query(q, &n, "", p, (size_t)(e - p), "^{commit}");
			p = skip_blanks(e, end);
		}
	}
	if (*v != V_RESET && *v != V_MERGE) {
		const char *e = word_end(p, end);
		query(q, &n, "", p, (size_t)(e - p), "^{commit}");
		if (*v == V_REVERT)
			query(q, &n, "", p, (size_t)(e - p), "^^{commit}");
		return n;
	}
	for (; p < end && *p != '#'; p = skip_blanks(p, end)) {
		const char *e = word_end(p, end);
		query(q, &n, "refs/rewritten/", p, (size_t)(e - p), "^{commit}");
		query(q, &n, "", p, (size_t)(e - p), "^{commit}");
		p = e;
		if (*v == V_RESET)
			break; /* its name only */
	}
	return n;
}

/* The commit each name the lines of text make git resolve is, resolved by
 * git in gitdir (`git cat-file --batch-check`, each peeled to a commit),
 * in the lines' order into *ids ("" for a name git cannot resolve: git
 * then refuses the line, or the list, and applies nothing; a line with
 * more names than are read has none there). */
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
		const char *end = line + strcspn(line, "\n");
		struct todo_query q[TODO_NAMES_MAX + 1];
		enum verb v;
		size_t k = queries(line, end, q, &v);
		for (size_t i = 0; k <= TODO_NAMES_MAX && i < k; i++, n++)
			fprintf(f, "%s%.*s%s\n", q[i].prefix, (int)q[i].len, q[i].name,
			        q[i].suffix);
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

/* The line [line, end): its verb (*v), the commits of its names (the next
 * of each, from *at on), added to *named where named is not NULL, the
 * first into *first. Returns 1 where one of them is listed in planting (a
 * line with too many names: always, its commit the null id, which git
 * cannot compare), 0 where none, or -ENOMEM. */
static int line_ids(const struct git_later *g, const char *line, const char *end, char **each,
                    size_t *at, char **planting, enum verb *v, char ***named, const char **first)
{
	static char null_id[65];
	struct todo_query q[TODO_NAMES_MAX + 1];
	size_t k = queries(line, end, q, v);
	int plants = 0;
	*first = NULL;
	if (k > TODO_NAMES_MAX) {
		memset(null_id, '0', g->hex_len);
		null_id[g->hex_len] = '\0';
		*first = null_id;
		if (named && !git_later_listed(*named, null_id) && strv_extend(named, null_id) < 0)
			return -ENOMEM;
		return 1;
	}
	for (size_t i = 0; i < k && each && each[*at]; i++) {
		char *id = each[(*at)++];
		if (!id[0])
			continue;
		*first = *first ? *first : id;
		plants |= planting && git_later_listed(planting, id);
		if (named && !git_later_listed(*named, id) && strv_extend(named, id) < 0)
			return -ENOMEM;
	}
	return plants;
}

int git_later_todo_ids(struct git_later *g, struct git_sweep *s, const char *gitdir,
                       const char *text, char ***ids)
{
	_cleanup_strv_free_ char **each = NULL;
	int r = resolve(g, s, gitdir, text, &each);
	size_t at = 0;
	for (const char *line = text; r == 0 && *line;) {
		const char *end = line + strcspn(line, "\n"), *first;
		enum verb v;
		r = line_ids(g, line, end, each, &at, NULL, &v, ids, &first);
		r = r < 0 ? r : 0;
		line = *end ? end + 1 : end;
	}
	return r;
}

/* A line that names a planting commit: a picking verb's made `drop ID`
 * (git's own verb for a commit left out), reset's and merge's commented
 * out. Those two have no such verb: git skips a comment line, so the
 * rebase goes on from the commit it is at (a reset left out: the picks
 * after it land on the rebase's HEAD; a merge left out: no merge commit,
 * the rebase's HEAD stays), and may stop on a conflict, but takes nothing
 * the line named. (Where core.commentChar is not '#', git reads the line
 * as an unknown verb and refuses the whole list: nothing applied.) */
int git_later_todo_drop(struct git_later *g, struct git_sweep *s, const char *gitdir,
                        const char *text, char **planting, char **ret)
{
	*ret = NULL;
	_cleanup_strv_free_ char **each = NULL;
	int r = resolve(g, s, gitdir, text, &each);
	if (r < 0)
		return r;
	size_t len = 0, at = 0;
	FILE *f = open_memstream(ret, &len);
	if (!f)
		return -ENOMEM;
	for (const char *line = text; r >= 0 && *line;) {
		const char *end = line + strcspn(line, "\n"), *id;
		enum verb v;
		int n = (int)(end - line);
		r = line_ids(g, line, end, each, &at, planting, &v, NULL, &id);
		if (r > 0 && (v == V_RESET || v == V_MERGE || !id))
			fprintf(f, "# sluice: was %.*s\n", n, line);
		else if (r > 0)
			fprintf(f, "drop %s # sluice: was %.*s\n", id, n, line);
		else
			fprintf(f, "%.*s%s", n, line, *end ? "\n" : "");
		line = *end ? end + 1 : end;
	}
	if (fclose(f) != 0 || r < 0) {
		free(*ret);
		*ret = NULL;
		return r < 0 ? r : -ENOMEM;
	}
	return 0;
}
