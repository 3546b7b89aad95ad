/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the refs as files (git-later-snapshot.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "strv.h"
#include "run/git-later-refs.h"
#include "run/git-later-snapshot.h"

/* Loose refs read at most, how deep, and the packed-refs read after a run
 * that changed it. Past them the check says it could not look. */
#define SNAPSHOT_LOOSE_MAX 4096
#define SNAPSHOT_DEPTH_MAX 12
#define SNAPSHOT_PACKED_MAX (64 * 1024 * 1024)

/* --- reading ------------------------------------------------------------ */

static int list_dir(int dir, const char *prefix, int depth, char ***l);

/* "NAME\tTEXT" of the entry de of dir (its ref name prefix + de's): a
 * file's first line, a symlink's "-> target", any other kind "(not a
 * file)"; a folder is walked. */
static int list_entry(int dir, const char *prefix, const struct dirent *de, int depth, char ***l)
{
	_cleanup_free_ char *name = NULL;
	if (asprintf(&name, "%s%s", prefix, de->d_name) < 0)
		return -ENOMEM;
	if (strcmp(name, "refs/sluice") == 0) /* the check's own */
		return 0;
	struct stat st;
	if (fstatat(dir, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : neg_errno();
	char text[320] = "(not a file)";
	if (S_ISDIR(st.st_mode)) {
		if (depth >= SNAPSHOT_DEPTH_MAX)
			return -E2BIG;
		_cleanup_close_ int sub =
		        openat(dir, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		_cleanup_free_ char *deeper = NULL;
		if (sub < 0)
			return neg_errno();
		if (asprintf(&deeper, "%s/", name) < 0)
			return -ENOMEM;
		return list_dir(sub, deeper, depth + 1, l);
	}
	if (S_ISLNK(st.st_mode)) {
		char target[300];
		ssize_t n = readlinkat(dir, de->d_name, target, sizeof(target) - 1);
		target[n < 0 ? 0 : n] = '\0';
		snprintf(text, sizeof(text), "-> %s", target);
	} else if (S_ISREG(st.st_mode) &&
	           read_first_line_at(dir, de->d_name, false, text, sizeof(text)) < 0) {
		snprintf(text, sizeof(text), "(unreadable)");
	}
	if (strv_length(*l) >= SNAPSHOT_LOOSE_MAX)
		return -E2BIG;
	char *line = NULL;
	if (asprintf(&line, "%s\t%s", name, text) < 0)
		return -ENOMEM;
	return strv_consume(l, line);
}

static int list_dir(int dir, const char *prefix, int depth, char ***l)
{
	int fd = dup(dir);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		int r = neg_errno();
		if (fd >= 0)
			(void)close(fd);
		return r;
	}
	int r = 0;
	struct dirent *de;
	while (r == 0 && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			r = list_entry(dir, prefix, de, depth, l);
	closedir(d);
	return r;
}

/* The loose refs under refs/ of the common directory cfd. */
static int list_loose(int cfd, char ***l)
{
	*l = NULL;
	_cleanup_close_ int dir =
	        openat(cfd, "refs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0)
		return errno == ENOENT ? 0 : neg_errno();
	return list_dir(dir, "refs/", 0, l);
}

/* The "NAME\tID" lines of packed-refs text (its peeled lines, "^ID", and
 * its header skipped). */
static int list_packed(char *text, char ***l)
{
	*l = NULL;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *space = strchr(line, ' ');
		if (line[0] != '#' && line[0] != '^' && space &&
		    strncmp(space + 1, "refs/", 5) == 0 &&
		    strncmp(space + 1, "refs/sluice/", 12) != 0) {
			*space = '\0';
			char *entry = NULL;
			if (asprintf(&entry, "%s\t%s", space + 1, line) < 0 ||
			    strv_consume(l, entry) < 0)
				return -ENOMEM;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* A whole regular file from fd (read from its start), its refs into *l. */
static int read_packed(int fd, char ***l)
{
	struct stat st;
	_cleanup_free_ char *text = NULL;
	size_t len;
	*l = NULL;
	int r = git_later_read_small(fd, SNAPSHOT_PACKED_MAX, &st, &text, &len);
	return r < 0 ? r : list_packed(text, l);
}

void git_later_snapshot_take(struct git_later_snapshot *snap, int cfd)
{
	*snap = (struct git_later_snapshot){ .packed_fd = -1 };
	snap->packed_fd =
	        openat(cfd, "packed-refs", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (snap->packed_fd >= 0 &&
	    (fstat(snap->packed_fd, &snap->packed_st) < 0 || !S_ISREG(snap->packed_st.st_mode)))
		snap->packed_fd = safe_close(snap->packed_fd);
	snap->loose_unknown = list_loose(cfd, &snap->loose) < 0;
}

/* --- comparing ---------------------------------------------------------- */

static int by_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The length of a "NAME\tTEXT" line's name. */
static size_t name_len(const char *line)
{
	return strcspn(line, "\t");
}

static int by_name(const char *a, const char *b)
{
	size_t la = name_len(a), lb = name_len(b);
	int c = strncmp(a, b, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

/* The refs git reads from loose and packed lines (a loose ref over the
 * packed line of its name): "NAME\tTEXT" sorted by name; packed lines
 * that no loose ref covers are marked "NAME\t\x01TEXT" when marked. */
static int effective(char **loose, char **packed, bool mark_packed, char ***ret)
{
	*ret = NULL;
	size_t nl = strv_length(loose), np = strv_length(packed);
	if (nl)
		qsort(loose, nl, sizeof(char *), by_line);
	if (np)
		qsort(packed, np, sizeof(char *), by_line);
	for (size_t i = 0, j = 0; i < nl || j < np;) {
		int c = i == nl ? 1 : j == np ? -1 : by_name(loose[i], packed[j]);
		char *line = NULL;
		if (c <= 0) {
			line = strdup(loose[i++]);
			j += c == 0;
		} else if (mark_packed) {
			const char *p = packed[j++];
			size_t n = name_len(p);
			if (asprintf(&line, "%.*s\t\x01%s", (int)n, p, p + n + 1) < 0)
				line = NULL;
		} else {
			line = strdup(packed[j++]);
		}
		if (!line || strv_consume(ret, line) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int add_change(struct git_later_ref_change **c, size_t *n, const char *name, size_t len,
                      const char *before, const char *after)
{
	struct git_later_ref_change *more = realloc(*c, (*n + 1) * sizeof(**c));
	if (!more)
		return -ENOMEM;
	*c = more;
	struct git_later_ref_change *x = &more[(*n)++];
	*x = (struct git_later_ref_change){ .name = strndup(name, len) };
	x->before = before ? strdup(before) : NULL;
	x->after = after ? strdup(after) : NULL;
	if (!x->name || (before && !x->before) || (after && !x->after))
		return -ENOMEM;
	return 0;
}

/* The text of a "NAME\tTEXT" line (after effective()'s mark, if any). */
static const char *text_of(const char *line)
{
	const char *t = line + name_len(line) + 1;
	return t + (t[0] == '\x01');
}

/* Whether effective() marked the line: packed, in a file whose text
 * before the run is not known. */
static bool marked(const char *line)
{
	return line[name_len(line) + 1] == '\x01';
}

static int copy_lines(char **from, char ***to)
{
	*to = NULL;
	for (size_t i = 0; from && from[i]; i++)
		if (strv_extend(to, from[i]) < 0)
			return -ENOMEM;
	return 0;
}

/* packed-refs now (where there is one: packed_now) and before the run
 * (the same where it is unchanged: same; else the held file, where it is
 * as it was: *known false otherwise). */
static int packed_both(const struct git_later_snapshot *snap, int cfd, bool packed_now, bool same,
                       char ***after, char ***before, bool *known)
{
	*known = true;
	if (packed_now) {
		_cleanup_close_ int fd =
		        openat(cfd, "packed-refs", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		int r = fd < 0 ? neg_errno() : read_packed(fd, after);
		if (r < 0)
			return r;
	}
	struct stat held;
	if (same)
		return copy_lines(*after, before);
	if (snap->packed_fd >= 0)
		*known = fstat(snap->packed_fd, &held) == 0 &&
		         git_later_same_file(0, &held, 0, &snap->packed_st) &&
		         read_packed(snap->packed_fd, before) == 0;
	return 0;
}

int git_later_snapshot_changes(const struct git_later_snapshot *snap, int cfd,
                               struct git_later_ref_change **ret, size_t *n, char ***before)
{
	*ret = NULL;
	*n = 0;
	if (before)
		*before = NULL;
	if (snap->loose_unknown)
		return -E2BIG;
	_cleanup_strv_free_ char **loose_now = NULL, **loose_before = NULL;
	int r = list_loose(cfd, &loose_now);
	if (r < 0)
		return r;
	struct stat st;
	bool packed_now = fstatat(cfd, "packed-refs", &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (!packed_now && errno != ENOENT)
		return neg_errno();
	bool packed_same = packed_now ? snap->packed_fd >= 0 &&
	                                        git_later_same_file(0, &st, 0, &snap->packed_st)
	                              : snap->packed_fd < 0;
	if (copy_lines(snap->loose, &loose_before) < 0)
		return -ENOMEM;
	size_t a = strv_length(loose_now), b = strv_length(loose_before);
	if (a)
		qsort(loose_now, a, sizeof(char *), by_line);
	if (b)
		qsort(loose_before, b, sizeof(char *), by_line);
	bool loose_same = a == b;
	for (size_t i = 0; loose_same && i < a; i++)
		loose_same = strcmp(loose_now[i], loose_before[i]) == 0;
	if (loose_same && packed_same)
		return 0;
	/* packed-refs now, and as it was before the run */
	_cleanup_strv_free_ char **packed_after = NULL, **packed_before = NULL;
	bool before_known = true;
	r = packed_both(snap, cfd, packed_now, packed_same, &packed_after, &packed_before,
	                &before_known);
	if (r < 0)
		return r;
	_cleanup_strv_free_ char **was = NULL, **is = NULL;
	r = effective(loose_before, packed_before, false, &was);
	if (r == 0)
		r = effective(loose_now, packed_after, !before_known, &is);
	if (r < 0)
		return r;
	/* names of both, in order */
	size_t nw = strv_length(was), ni = strv_length(is);
	for (size_t i = 0, j = 0; r == 0 && (i < nw || j < ni);) {
		int c = i == nw ? 1 : j == ni ? -1 : by_name(was[i], is[j]);
		if (c < 0) { /* gone */
			r = add_change(ret, n, was[i], name_len(was[i]), text_of(was[i]), NULL);
			i++;
		} else if (c > 0) { /* new, or packed in a file not known before */
			r = add_change(ret, n, is[j], name_len(is[j]), marked(is[j]) ? "" : NULL,
			               text_of(is[j]));
			j++;
		} else {
			if (strcmp(text_of(was[i]), text_of(is[j])) != 0)
				r = add_change(ret, n, is[j], name_len(is[j]), text_of(was[i]),
				               text_of(is[j]));
			i++;
			j++;
		}
	}
	for (size_t i = 0; r == 0 && before && i < nw; i++) {
		char *name = strndup(was[i], name_len(was[i]));
		r = name ? strv_consume(before, name) : -ENOMEM;
	}
	if (r < 0) {
		if (before)
			*before = strv_free(*before);
		git_later_ref_changes_free(*ret, *n);
		*ret = NULL;
		*n = 0;
	}
	return r;
}

void git_later_ref_changes_free(struct git_later_ref_change *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].name);
		free(c[i].before);
		free(c[i].after);
	}
	free(c);
}

void git_later_snapshot_done(struct git_later_snapshot *snap)
{
	snap->loose = strv_free(snap->loose);
	snap->packed_fd = safe_close(snap->packed_fd);
}
