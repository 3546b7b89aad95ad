/* SPDX-License-Identifier: MIT */
/*
 * The check after a run for protected files it created. Each folder on the
 * way from the workspace is opened without following symlinks, so that a
 * folder the command replaced by a link cannot make the rename happen
 * elsewhere.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "run/protect-watch.h"
#include "util/terminal-text.h"
#include "strv.h"

/* The folder of entry (relative, its last component a name or a pattern),
 * opened from the workspace without following a symlink; -errno. */
static int open_folder(const char *workspace, const char *entry)
{
	_cleanup_close_ int fd = open(workspace, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	const char *last = strrchr(entry, '/');
	for (const char *s = entry; last && s < last;) {
		size_t n = strcspn(s, "/");
		char part[NAME_MAX + 1];
		if (n >= sizeof(part))
			return -ENAMETOOLONG;
		memcpy(part, s, n);
		part[n] = '\0';
		int next = openat(fd, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			return neg_errno();
		(void)close(fd);
		fd = next;
		s += n + 1;
	}
	return TAKE_FD(fd);
}

/* Folder entries ("NAME/") are made by the launcher; only files are
 * watched. */
static bool watched(const char *entry)
{
	size_t n = strlen(entry);
	return n > 0 && entry[n - 1] != '/';
}

/* The length of entry's folder part, its last "/" included (0: the
 * workspace itself). */
static size_t folder_len(const char *entry)
{
	const char *last = strrchr(entry, '/');
	return last ? (size_t)(last - entry + 1) : 0;
}

/* Whether watched entries a and b lie in the same folder. */
static bool same_folder(const char *a, const char *b)
{
	size_t n = folder_len(a);
	return n == folder_len(b) && strncmp(a, b, n) == 0;
}

/* Whether a watched entry before the i-th has its folder (which was read
 * for it, with the i-th's pattern among the others). */
static bool folder_done(const struct run_settings *s, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (watched(s->protect[j]) && same_folder(s->protect[j], s->protect[i]))
			return true;
	return false;
}

/* Call fn for each name in the i-th entry's folder that matches the last
 * component of a watched entry in that folder, with the first such entry:
 * the folder is read once for all of its entries (the workspace's top
 * level holds most of them). */
static int each_match(struct protect_watch *w, size_t i,
                      int (*fn)(struct protect_watch *w, int dir, const char *entry,
                                const char *name))
{
	const struct run_settings *s = w->settings;
	int dir = open_folder(w->workspace, s->protect[i]);
	if (dir < 0)
		return dir == -ENOENT || dir == -ENOTDIR || dir == -ELOOP ? 0 : dir;
	int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int r = neg_errno();
		if (fd >= 0)
			(void)close(fd);
		(void)close(dir);
		return r;
	}
	int r = 0;
	for (const struct dirent *de; r >= 0 && (de = readdir(d)) != NULL;) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		for (size_t k = i; k < s->n_protect; k++) {
			const char *e = s->protect[k];
			if (!watched(e) || !same_folder(e, s->protect[i]) ||
			    fnmatch(e + folder_len(e), de->d_name, FNM_PERIOD) != 0)
				continue;
			r = fn(w, dir, e, de->d_name);
			break;
		}
	}
	(void)closedir(d);
	(void)close(dir);
	return r;
}

/* "FOLDER/NAME" of a match: the entry's folder part, then the name. */
static char *match_path(const char *entry, const char *name)
{
	const char *last = strrchr(entry, '/');
	char *s = NULL;
	return asprintf(&s, "%.*s%s", last ? (int)(last - entry + 1) : 0, entry, name) < 0 ? NULL
	                                                                                   : s;
}

static int note_before(struct protect_watch *w, int dir, const char *entry, const char *name)
{
	(void)dir;
	_cleanup_free_ char *p = match_path(entry, name);
	return p ? strv_extend(&w->before, p) : -ENOMEM;
}

static int block_new(struct protect_watch *w, int dir, const char *entry, const char *name)
{
	_cleanup_free_ char *p = match_path(entry, name);
	if (!p)
		return -ENOMEM;
	if (strstr(name, PROTECT_WATCH_SUFFIX))
		return 0;
	STRV_FOREACH (b, w->before)
		if (strcmp(*b, p) == 0)
			return 0;
	/* Never over what is there: the command may have made a folder under
	 * the blocked name, which a plain rename of a file fails on (leaving
	 * the file where it runs); another number is tried then. */
	char to[NAME_MAX + 1];
	int r = -EEXIST;
	for (int n = 1; n <= PROTECT_WATCH_TRIES && r == -EEXIST; n++) {
		int len =
		        n == 1 ? snprintf(to, sizeof(to), "%s" PROTECT_WATCH_SUFFIX, name)
		               : snprintf(to, sizeof(to), "%s" PROTECT_WATCH_SUFFIX "-%d", name, n);
		if (len >= (int)sizeof(to))
			return -ENAMETOOLONG;
		r = renameat2(dir, name, dir, to, RENAME_NOREPLACE) < 0 ? neg_errno() : 0;
	}
	if (r < 0)
		return r;
	/* the name is the command's: no control character reaches a report */
	for (char *c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return strv_extend(&w->blocked, p);
}

int protect_watch_begin(struct protect_watch *w, const char *workspace,
                        const struct run_settings *s)
{
	*w = (struct protect_watch){ .workspace = workspace, .settings = s };
	if (s->sandbox_mode != SANDBOX_MODE_WORKSPACE_WRITE)
		return 0;
	w->active = true;
	for (size_t i = 0; i < s->n_protect; i++) {
		if (!watched(s->protect[i]) || folder_done(s, i))
			continue;
		int r = each_match(w, i, note_before);
		if (r < 0) {
			/* nothing to compare with afterwards: said, never guessed */
			w->active = false;
			w->error = r;
			return r;
		}
	}
	return 0;
}

int protect_watch_end(struct protect_watch *w)
{
	if (!w->active)
		return 0;
	int r = 0;
	for (size_t i = 0; i < w->settings->n_protect; i++) {
		if (!watched(w->settings->protect[i]) || folder_done(w->settings, i))
			continue;
		int q = each_match(w, i, block_new);
		if (q < 0 && r == 0)
			r = q;
	}
	w->error = r;
	return r < 0 ? r : (int)strv_length(w->blocked);
}

void protect_watch_write_text(const struct protect_watch *w, FILE *f)
{
	if (!w)
		return;
	STRV_FOREACH (b, w->blocked) {
		fputs("[sandbox: the command created a protected file, which other programs would "
		      "run; renamed to NAME" PROTECT_WATCH_SUFFIX ": ",
		      f);
		terminal_safe_write(f, *b);
		fputs(": tell the user, who may restore it on purpose]\n", f);
	}
	if (w->error < 0)
		fprintf(f,
		        "[sandbox: the check for protected files the command created failed (%s): "
		        "tell the user to look at the workspace's agent, editor and hook manager "
		        "files before using them]\n",
		        strerror(-w->error));
}

void protect_watch_done(struct protect_watch *w)
{
	w->before = strv_free(w->before);
	w->blocked = strv_free(w->blocked);
}
