/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: replace refs (git-later-replace.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "strv.h"
#include "run/git-later-git.h"
#include "run/git-later-refs.h"
#include "run/git-later-replace.h"
#include "run/git-sweep-state.h"

/* Loose refs listed under refs/replace/ at most, how deep, and the
 * packed-refs read after a run that changed it. Past them the check says
 * it could not look. */
#define REPLACE_LOOSE_MAX 4096
#define REPLACE_DEPTH_MAX 8
#define REPLACE_PACKED_MAX (64 * 1024 * 1024)

static bool listed(char **l, const char *s)
{
	STRV_FOREACH (x, l)
		if (strcmp(*x, s) == 0)
			return true;
	return false;
}

/* Whether a "NAME\tTEXT" of l has entry's NAME. */
static bool named_later(char **l, const char *entry)
{
	size_t n = strcspn(entry, "\t") + 1;
	STRV_FOREACH (x, l)
		if (strncmp(*x, entry, n) == 0)
			return true;
	return false;
}

/* "NAME\tTEXT" of the entry name in dir (its ref name below refs/replace/
 * is prefix + name): a file's first line, a symlink's "-> target", any
 * other kind "(not a file)"; a folder is walked. */
static int list_dir(int dir, const char *prefix, int depth, char ***l);

static int list_entry(int dir, const char *prefix, const struct dirent *de, int depth, char ***l)
{
	_cleanup_free_ char *name = NULL;
	if (asprintf(&name, "%s%s", prefix, de->d_name) < 0)
		return -ENOMEM;
	struct stat st;
	if (fstatat(dir, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : neg_errno();
	char text[320] = "(not a file)";
	if (S_ISDIR(st.st_mode)) {
		if (depth >= REPLACE_DEPTH_MAX)
			return -ELOOP;
		_cleanup_close_ int sub =
		        openat(dir, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		_cleanup_free_ char *deeper = NULL;
		if (sub < 0 || asprintf(&deeper, "%s/", name) < 0)
			return sub < 0 ? neg_errno() : -ENOMEM;
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
	if (strv_length(*l) >= REPLACE_LOOSE_MAX)
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

/* The loose refs under refs/replace/ of the common directory cfd; none
 * where there is no such folder. */
static int list_loose(int cfd, char ***l)
{
	*l = NULL;
	_cleanup_close_ int dir =
	        openat(cfd, "refs/replace", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0)
		return errno == ENOENT ? 0 : neg_errno();
	return list_dir(dir, "", 0, l);
}

/* The "NAME\tID" of refs/replace/ in packed-refs text (its peeled lines,
 * "^ID", and its header skipped). */
static int list_packed(char *text, char ***l)
{
	*l = NULL;
	static const char base[] = " refs/replace/";
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *ref = strstr(line, base);
		if (line[0] != '#' && line[0] != '^' && ref) {
			*ref = '\0';
			char *entry = NULL;
			if (asprintf(&entry, "%s\t%s", ref + strlen(base), line) < 0 ||
			    strv_consume(l, entry) < 0)
				return -ENOMEM;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* A whole regular file from fd (read from its start) into *ret. */
static int read_whole(int fd, char **ret)
{
	struct stat st;
	*ret = NULL;
	if (fstat(fd, &st) < 0)
		return neg_errno();
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_size > REPLACE_PACKED_MAX)
		return -E2BIG;
	_cleanup_free_ char *text = malloc((size_t)st.st_size + 1);
	if (!text)
		return -ENOMEM;
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t n = pread(fd, text + got, (size_t)st.st_size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return neg_errno();
		if (n == 0)
			break;
		got += (size_t)n;
	}
	text[got] = '\0';
	*ret = TAKE_PTR(text);
	return 0;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

void git_later_replace_begin(struct git_later_replace *r, int cfd)
{
	*r = (struct git_later_replace){ .packed_fd = -1 };
	r->packed_fd = openat(cfd, "packed-refs", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (r->packed_fd >= 0 &&
	    (fstat(r->packed_fd, &r->packed_st) < 0 || !S_ISREG(r->packed_st.st_mode)))
		r->packed_fd = safe_close(r->packed_fd);
	r->loose_unknown = list_loose(cfd, &r->loose) < 0;
}

/* The packed replace refs the run added or changed, appended to *fresh:
 * none when packed-refs is as it was; every one there when its text
 * before the run cannot be had (the held file changed too: written in
 * place, which git never does). */
static int packed_fresh(struct git_later_replace *r, int cfd, char ***fresh)
{
	_cleanup_close_ int now =
	        openat(cfd, "packed-refs", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (now < 0 && errno == ENOENT)
		return 0;
	if (now < 0 || fstat(now, &st) < 0)
		return neg_errno();
	if (r->packed_fd >= 0 && same_file(&st, &r->packed_st))
		return 0;
	_cleanup_free_ char *text = NULL, *old_text = NULL;
	_cleanup_strv_free_ char **after = NULL, **before = NULL;
	int e = read_whole(now, &text);
	if (e < 0 || (e = list_packed(text, &after)) < 0)
		return e;
	struct stat held;
	if (r->packed_fd >= 0 && fstat(r->packed_fd, &held) == 0 &&
	    same_file(&held, &r->packed_st) && read_whole(r->packed_fd, &old_text) == 0 &&
	    (e = list_packed(old_text, &before)) < 0)
		return e;
	STRV_FOREACH (x, after)
		if (!listed(before, *x) && (e = strv_extend(fresh, *x)) < 0)
			return e;
	return 0;
}

/* One replace ref of the run's ("NAME\tTEXT") taken out: its object held
 * where it names one, then the ref deleted (by git, which takes packed
 * and loose alike; a loose name git refuses removed here). */
static int take_out(struct git_later *g, struct git_sweep *s, int cfd, const char *entry)
{
	const char *tab = strchr(entry, '\t');
	_cleanup_free_ char *name = strndup(entry, (size_t)(tab - entry)), *ref = NULL;
	const char *text = tab + 1;
	if (!name || asprintf(&ref, "refs/replace/%s", name) < 0)
		return -ENOMEM;
	bool id = git_later_is_hex(text, g->hex_len);
	char held[96] = "";
	if (id && git_later_hold(g, s, text, held) < 0)
		return -EIO;
	struct git_output o = { .data = NULL };
	const char *del[] = { "update-ref", "--no-deref", "-d", ref, NULL };
	int r = git_later_run(g, del, -1, &o);
	bool gone = r == 0 && WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0;
	git_output_done(&o);
	if (!gone && unlinkat(cfd, ref, 0) < 0 && errno != ENOENT) {
		git_sweep_fail(s,
		               "the check of what git would restore later: the replace ref %s "
		               "could not be taken out: %s",
		               ref, strerror(errno));
		return -EIO;
	}
	_cleanup_free_ char *path = NULL, *what = NULL;
	char was[13];
	git_later_short_id(name, was);
	if (asprintf(&path, "%s/%s", g->common, ref) < 0 ||
	    asprintf(&what,
	             "the command added a replace ref, which makes the user's git read %s in "
	             "place of object %s (git reset --hard or checkout would write it); taken "
	             "out%s%s",
	             text, was, held[0] ? ", its object kept at " : "", held) < 0)
		return -ENOMEM;
	git_sweep_note_item(s, path, what, held[0] ? held : NULL);
	return 1;
}

int git_later_replace_end(struct git_later *g, struct git_sweep *s)
{
	struct git_later_replace *r = &g->replace;
	_cleanup_close_ int cfd = open(g->common, O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_strv_free_ char **loose = NULL, **fresh = NULL;
	int e = cfd < 0 ? neg_errno() : list_loose(cfd, &loose);
	STRV_FOREACH (x, loose)
		if (e == 0 && (r->loose_unknown || !listed(r->loose, *x)))
			e = strv_extend(&fresh, *x);
	if (e == 0)
		e = packed_fresh(r, cfd, &fresh);
	if (e < 0) {
		git_sweep_fail(s,
		               "the check of what git would restore later: the replace refs "
		               "(refs/replace/) could not be read: %s; look at them (git replace "
		               "-l) before git reset --hard",
		               strerror(-e));
		return e;
	}
	int found = 0;
	STRV_FOREACH (x, fresh) {
		if (named_later(x + 1, *x)) /* loose and packed: taken out once */
			continue;
		e = take_out(g, s, cfd, *x);
		if (e < 0)
			return e;
		found++;
	}
	return found;
}

void git_later_replace_done(struct git_later_replace *r)
{
	r->loose = strv_free(r->loose);
	r->packed_fd = safe_close(r->packed_fd);
}
