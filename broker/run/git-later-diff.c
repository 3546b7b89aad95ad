/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: what the index and a commit hold at the names
 * that run later, against the pre-run HEAD (git-later-diff.h), through
 * git's raw diffs, and whether an entry is the work tree's file as it is.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "strv.h"
#include "run/git-later-diff.h"
#include "run/git-later-git.h"
#include "run/git-later-refs.h"
#include "run/git-sweep-state.h"

/* The next record of raw -z output at *p, or false at its end (or at
 * anything malformed, which the caller then reports). */
bool git_later_next_change(const struct git_later *g, char **p, char *end,
                           struct git_later_change *c, bool *malformed)
{
	*malformed = false;
	if (*p >= end)
		return false;
	char *head = *p;
	char *z = memchr(head, '\0', (size_t)(end - head));
	if (!z || head[0] != ':') {
		*malformed = true;
		return false;
	}
	char *path = z + 1;
	char *pz = path < end ? memchr(path, '\0', (size_t)(end - path)) : NULL;
	char old_id[80], new_id[80], status[8];
	if (!pz ||
	    sscanf(head, ":%o %o %79s %79s %7s", &c->old_mode, &c->new_mode, old_id, new_id,
	           status) != 5 ||
	    strlen(old_id) != g->hex_len || strlen(new_id) != g->hex_len) {
		*malformed = true;
		return false;
	}
	memcpy(c->old_id, old_id, g->hex_len + 1);
	memcpy(c->new_id, new_id, g->hex_len + 1);
	c->status = status[0];
	c->path = path;
	*p = pz + 1;
	return true;
}

/* Whether the work tree's file at path is what git would store as mode
 * and id: then it is the user's (the run could not write it: protected,
 * or renamed away after the run), staged or committed as it is. */
static bool work_tree_has(struct git_later *g, struct git_sweep *s, const char *path, unsigned mode,
                          const char *id)
{
	if (mode != 0100644 && mode != 0100755 && mode != 0120000)
		return false;
	_cleanup_close_ int fd = open(g->workspace, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* each folder on the way opened without following a symlink */
	const char *name = path;
	for (const char *slash; (slash = strchr(name, '/')) != NULL; name = slash + 1) {
		char part[NAME_MAX + 1];
		size_t n = (size_t)(slash - name);
		if (n == 0 || n >= sizeof(part))
			return false;
		memcpy(part, name, n);
		part[n] = '\0';
		int next = openat(fd, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			return false;
		(void)close(fd);
		fd = next;
	}
	struct stat st;
	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return false;
	_cleanup_close_ int in = -1;
	if (mode == 0120000) {
		char target[PATH_MAX];
		ssize_t n = S_ISLNK(st.st_mode) ? readlinkat(fd, name, target, sizeof(target)) : -1;
		if (n < 0 || (size_t)n >= sizeof(target))
			return false;
		in = git_command_memfd("sluice-git-link", target, (size_t)n);
	} else {
		bool exec = (st.st_mode & S_IXUSR) != 0;
		if (!S_ISREG(st.st_mode) || exec != (mode == 0100755))
			return false;
		in = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	}
	if (in < 0)
		return false;
	const char *args[] = { "hash-object", "--no-filters", "-t", "blob", "--stdin", NULL };
	struct git_output o;
	bool same = git_later_ok(g, s, "hashing a file of the work tree", args, in, &o) == 0 &&
	            strncmp(o.data, id, g->hex_len) == 0 && o.data[g->hex_len] == '\n';
	git_output_done(&o);
	return same;
}

/* Whether a change (an entry added or changed, not deleted) puts content
 * at a name that runs later, other than the work tree's. */
bool git_later_plants(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                      const struct git_later_change *c)
{
	if (c->status == 'D')
		return false;
	/* an unmerged entry: its stages are the run's, whatever they hold */
	unsigned mode = c->status == 'U' ? 0100755 : c->new_mode;
	/* a nested repository's path, asked about from the workspace's top;
	 * without memory to join it: taken as one that runs later */
	_cleanup_free_ char *joined = NULL;
	if (g->prefix && asprintf(&joined, "%s/%s", g->prefix, c->path) < 0)
		return true;
	if (!protect_watch_runs_later(w, joined ? joined : c->path, mode))
		return false;
	return c->status == 'U' || !work_tree_has(g, s, c->path, c->new_mode, c->new_id);
}

const char *git_later_empty_tree(const struct git_later *g)
{
	return g->hex_len == 64 ? "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"
	                        : "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
}

/* `git diff-tree`/`diff-index --cached` of the pre-run HEAD against
 * against (a commit; NULL: the index), limited to pathspecs. */
int git_later_diff(struct git_later *g, struct git_sweep *s, const char *base, const char *against,
                   char **pathspecs, struct git_output *o)
{
	*o = (struct git_output){ .data = NULL };
	if (!base)
		base = g->head.id[0] ? g->head.id : git_later_empty_tree(g);
	_cleanup_free_ const char **args = calloc(16 + strv_length(pathspecs), sizeof(*args));
	if (!args)
		return -ENOMEM;
	size_t n = 0;
	args[n++] = against ? "diff-tree" : "diff-index";
	args[n++] = "-r";
	args[n++] = "-z";
	args[n++] = "--raw";
	args[n++] = "--no-renames";
	args[n++] = "--no-ext-diff";
	args[n++] = "--no-textconv";
	args[n++] = "--ignore-submodules=none";
	if (!against)
		args[n++] = "--cached";
	args[n++] = base;
	if (against)
		args[n++] = against;
	args[n++] = "--";
	for (size_t i = 0; pathspecs && pathspecs[i]; i++)
		args[n++] = pathspecs[i];
	args[n] = NULL;
	return git_later_ok(g, s, against ? "git diff-tree" : "git diff-index", args, -1, o);
}

/* The names a commit of the run plants (comma-separated into *ret, NULL
 * for none). */
int git_later_commit_plants(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                            const char *base, const char *commit, char **pathspecs, char **ret)
{
	*ret = NULL;
	struct git_output o;
	int r = git_later_diff(g, s, base, commit, pathspecs, &o);
	if (r < 0) {
		git_output_done(&o);
		return r;
	}
	char *p = o.data, *end = o.data + o.len;
	struct git_later_change c;
	bool bad;
	_cleanup_free_ char *names = NULL;
	while (git_later_next_change(g, &p, end, &c, &bad)) {
		if (!git_later_plants(g, s, w, &c))
			continue;
		char *more = NULL;
		if (asprintf(&more, "%s%s%s", names ? names : "", names ? ", " : "", c.path) < 0) {
			git_output_done(&o);
			return -ENOMEM;
		}
		free(names);
		names = more;
	}
	git_output_done(&o);
	if (bad) {
		git_sweep_fail(s, "the check of what git would restore later: git diff-tree's "
		                  "output could not be read");
		return -EIO;
	}
	*ret = TAKE_PTR(names);
	return 0;
}

int git_later_ids_plant(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                        char **ids, char **pathspecs, const char *base_id, char ***planting)
{
	*planting = NULL;
	_cleanup_free_ char *input = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&input, &len);
	if (!f)
		return -ENOMEM;
	const char *base = base_id[0] ? base_id : git_later_empty_tree(g);
	for (size_t i = 0; ids && ids[i]; i++)
		fprintf(f, "%s %s\n", ids[i], base);
	if (fclose(f) != 0)
		return -ENOMEM;
	_cleanup_free_ const char **args = calloc(12 + strv_length(pathspecs), sizeof(*args));
	_cleanup_close_ int in = git_command_memfd("sluice-git-ids", input, len);
	if (!args || in < 0)
		return in < 0 ? in : -ENOMEM;
	static const char *const fixed[] = { "diff-tree",
		                             "--stdin",
		                             "-r",
		                             "-z",
		                             "--raw",
		                             "--no-renames",
		                             "--no-ext-diff",
		                             "--no-textconv",
		                             "--ignore-submodules=none",
		                             "--" };
	size_t n = 0;
	for (; n < sizeof(fixed) / sizeof(*fixed); n++)
		args[n] = fixed[n];
	for (size_t i = 0; pathspecs && pathspecs[i]; i++)
		args[n++] = pathspecs[i];
	args[n] = NULL;
	struct git_output o;
	int r = git_later_ok(g, s, "git diff-tree --stdin", args, in, &o);
	/* "ID\0" before each id's records (only where it has some) */
	char *p = o.data, *end = o.data + o.len, *id = NULL;
	while (r == 0 && p < end) {
		if (*p != ':') {
			id = p;
			p += strnlen(p, (size_t)(end - p)) + 1;
			continue;
		}
		struct git_later_change c;
		bool bad;
		if (!git_later_next_change(g, &p, end, &c, &bad)) {
			r = bad ? -EIO : 0;
			break;
		}
		if (id && git_later_plants(g, s, w, &c) && !git_later_listed(*planting, id))
			r = strv_extend(planting, id);
	}
	git_output_done(&o);
	return r;
}
