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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "path-text.h"
#include "run/protect-watch.h"
#include "util/terminal-text.h"
#include "strv.h"

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

static int open_followed(struct protect_watch *w, const char *folder, bool end, char ***before,
                         char ***planted);

/* Call fn for each name in the i-th entry's folder that matches the last
 * component of a watched entry in that folder, with the first such entry:
 * the folder is read once for all of its entries (the workspace's top
 * level holds most of them). */
static int each_match(struct protect_watch *w, size_t i, bool end,
                      int (*fn)(struct protect_watch *w, int dir, const char *entry,
                                const char *name))
{
	const struct run_settings *s = w->settings;
	/* the folder as the program that reads the entry reaches it: through
	 * the user's symlinks, and a symlink the run made on the way (.config
	 * -> .cfg, .cfg/lefthook-local.yml) blocked */
	_cleanup_free_ char *folder = strndup(s->protect[i], folder_len(s->protect[i]));
	if (!folder)
		return -ENOMEM;
	int dir = open_followed(w, folder, end, &w->before, NULL);
	if (dir < 0)
		return dir == -ENOENT || dir == -ENOTDIR ? 0 : dir;
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

int protect_watch_set_aside(int dir, const char *name, char *to, size_t size)
{
	return protect_watch_set_aside_at(dir, name, dir, name, to, size);
}

int protect_watch_set_aside_at(int dir, const char *name, int to_dir, const char *base, char *to,
                               size_t size)
{
	/* Never over what is there: the command may have made a folder under
	 * the blocked name, which a plain rename of a file fails on (leaving
	 * the file where it runs); another number is tried then. */
	int r = -EEXIST;
	for (int n = 1; n <= PROTECT_WATCH_TRIES && r == -EEXIST; n++) {
		int len = n == 1 ? snprintf(to, size, "%s" PROTECT_WATCH_SUFFIX, base)
		                 : snprintf(to, size, "%s" PROTECT_WATCH_SUFFIX "-%d", base, n);
		if (len >= (int)size) {
			r = -ENAMETOOLONG;
			break;
		}
		r = renameat2(dir, name, to_dir, to, RENAME_NOREPLACE) < 0 ? neg_errno() : 0;
	}
	/* every numbered name taken (the command made them all first), or the
	 * name too long for the suffix: a random name it cannot have guessed,
	 * never the file left where it runs */
	for (int n = 0; (r == -EEXIST || r == -ENAMETOOLONG) && n < 16; n++) {
		uint64_t random;
		if (getrandom(&random, sizeof(random), 0) != (ssize_t)sizeof(random))
			return -EIO;
		snprintf(to, size, "." PROTECT_WATCH_SUFFIX "-%016llx", (unsigned long long)random);
		r = renameat2(dir, name, to_dir, to, RENAME_NOREPLACE) < 0 ? neg_errno() : 0;
	}
	return r;
}

/* Rename name in dir aside (protect_watch_set_aside()), and list p (its
 * path relative to the workspace) in w->blocked. */
static int block(struct protect_watch *w, int dir, const char *name, char *p)
{
	char to[NAME_MAX + 1];
	int r = protect_watch_set_aside(dir, name, to, sizeof(to));
	if (r < 0)
		return r;
	/* the name is the command's: no control character reaches a report */
	for (char *c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return strv_extend(&w->blocked, p);
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
	return block(w, dir, name, p);
}

/* --- commands planted on the user's PATH: a folder of the workspace that
 * the user's PATH names ahead of the system's (direnv's PATH_add bin, a
 * relative "bin" or ".") runs what the command puts there in place of the
 * user's own git or ls. The folders are read from the PATH this process
 * has (the user's), a relative one taken from the workspace's top; an
 * executable there that is new or changed after the run, named as one in
 * a system folder that comes after it on the PATH, is blocked. The
 * system folders only: a project's node_modules/.bin ahead of
 * /usr/local/bin is how a project pins its own tools. */
static const char *const system_bins[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" };

/* The workspace's folders on the PATH (relative to it, "" for its top),
 * each with the system folders after it ("DIR\tSYS:SYS..."), into *ret. */
static int path_folders(const char *workspace, char ***ret)
{
	const char *path = getenv("PATH");
	_cleanup_strv_free_ char **parts = NULL;
	for (const char *at = path ? path : ""; path;) {
		size_t n = strcspn(at, ":");
		char *part = strndup(at, n);
		if (!part || strv_consume(&parts, part) < 0)
			return -ENOMEM;
		if (at[n] == '\0')
			break;
		at += n + 1;
	}
	size_t ws = strlen(workspace);
	_cleanup_free_ char *ws_canon = realpath(workspace, NULL);
	if (!ws_canon)
		return neg_errno();
	size_t wsc = strlen(ws_canon);
	for (size_t i = 0; parts && parts[i]; i++) {
		_cleanup_free_ char *joined = NULL, *full = NULL, *canon = NULL;
		const char *e = parts[i];
		const char *home = getenv("HOME");
		/* bash's command search expands a leading ~ of an entry (a
		 * PATH="~/bin:$PATH" quoted in a .bashrc works) */
		if (e[0] == '~' && (e[1] == '/' || e[1] == '\0')) {
			if (!home || home[0] != '/')
				continue;
			if (asprintf(&joined, "%s%s", home, e + 1) < 0)
				return -ENOMEM;
		} else if (e[0] != '/' && asprintf(&joined, "%s/%s", workspace, e) < 0)
			return -ENOMEM;
		full = path_normalize(joined ? joined : e);
		if (!full)
			return -ENOMEM;
		/* the folder where the shell finds it: an entry that reaches the
		 * workspace through a symlink (GNU stow's ~/bin -> ~/dotfiles/bin,
		 * the agent working in ~/dotfiles) is the workspace's too */
		canon = realpath(full, NULL);
		if (!canon && (errno == ENOENT || errno == ENOTDIR))
			canon = path_canonical_missing(full);
		const char *rel;
		if (path_within(full, workspace))
			rel = full[ws] == '/' ? full + ws + 1 : "";
		else if (canon && path_within(canon, ws_canon))
			rel = canon[wsc] == '/' ? canon + wsc + 1 : "";
		else
			continue;
		_cleanup_free_ char *line = NULL;
		if (asprintf(&line, "%s\t", rel) < 0)
			return -ENOMEM;
		for (size_t k = i + 1; parts[k]; k++)
			for (size_t j = 0; j < ELEMENTSOF(system_bins); j++) {
				char *longer = NULL;
				if (strcmp(parts[k], system_bins[j]) != 0)
					continue;
				if (asprintf(&longer, "%s%s:", line, parts[k]) < 0)
					return -ENOMEM;
				free(line);
				line = longer;
			}
		if (strv_extend(ret, line) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* "DIR/NAME\tINODE:MTIME:CTIME:SIZE" of an executable (a file with an x
 * bit, or a symlink) name in dir, or NULL (not one, or out of memory). The
 * ctime because the mtime is the command's to set back (touch -r) after a
 * rewrite of the same size; the ctime no program sets. */
static char *executable_key(int dir, const char *folder, const char *name)
{
	struct stat st;
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !(S_ISLNK(st.st_mode) || (S_ISREG(st.st_mode) && (st.st_mode & 0111))))
		return NULL;
	char *key = NULL;
	return asprintf(&key, "%s%s%s\t%llu:%lld.%ld:%lld.%ld:%lld", folder, *folder ? "/" : "",
	                name, (unsigned long long)st.st_ino, (long long)st.st_mtim.tv_sec,
	                st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec,
	                (long long)st.st_size) < 0
	               ? NULL
	               : key;
}

/* Whether a system folder of line (path_folders()'s) has an executable
 * name. */
static bool shadows(const char *line, const char *name)
{
	const char *sys = strchr(line, '\t');
	for (sys = sys ? sys + 1 : ""; *sys;) {
		size_t n = strcspn(sys, ":");
		char p[PATH_MAX];
		if (snprintf(p, sizeof(p), "%.*s/%s", (int)n, sys, name) < (int)sizeof(p) &&
		    access(p, X_OK) == 0)
			return true;
		sys += n + (sys[n] == ':');
	}
	return false;
}

static bool listed(char **list, const char *key)
{
	STRV_FOREACH (b, list)
		if (strcmp(*b, key) == 0)
			return true;
	return false;
}

/* A folder of the workspace (relative to it) opened as the user's shell or
 * tools reach it, or -errno (-ENOENT: nothing to look at). A
 * symlink on its way that was there before the run is followed, within
 * the workspace (one that leads out of it leaves the folder to its
 * target's owner); a new or changed one is blocked as a planted
 * executable is, since the shell would follow it to the folder the command
 * chose (bin -> .tools, .tools/git). The symlinks seen before the run are
 * listed in *before; one blocked is added to *planted too (when given). */
static int open_followed(struct protect_watch *w, const char *folder, bool end, char ***before,
                         char ***planted)
{
	_cleanup_close_ int fd = open(w->workspace, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	char done[PATH_MAX] = ""; /* the components walked, relative */
	for (const char *s = folder; *s;) {
		size_t n = strcspn(s, "/");
		char part[NAME_MAX + 1];
		if (n >= sizeof(part))
			return -ENAMETOOLONG;
		memcpy(part, s, n);
		part[n] = '\0';
		s += n + (s[n] == '/');
		if (n == 0)
			continue;
		size_t dl = strlen(done);
		int len = snprintf(done + dl, sizeof(done) - dl, "%s%s", dl ? "/" : "", part);
		if (len < 0 || (size_t)len >= sizeof(done) - dl)
			return -ENAMETOOLONG;
		struct stat st;
		if (fstatat(fd, part, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return neg_errno();
		if (S_ISLNK(st.st_mode)) {
			_cleanup_free_ char *key = NULL;
			if (asprintf(&key, "%s\tlink:%llu:%lld.%ld", done,
			             (unsigned long long)st.st_ino, (long long)st.st_ctim.tv_sec,
			             st.st_ctim.tv_nsec) < 0)
				return -ENOMEM;
			if (!end) {
				int r = strv_extend(before, key);
				if (r < 0)
					return r;
			} else if (!listed(*before, key)) {
				_cleanup_free_ char *p = strdup(done);
				if (!p)
					return -ENOMEM;
				int r = block(w, fd, part, p);
				if (r >= 0 && planted)
					r = strv_extend(planted, p);
				return r < 0 ? r : -ENOENT;
			}
			/* the user's own: where it leads now, the rest of the way
			 * taken from there */
			_cleanup_free_ char *at = NULL, *canon = NULL, *ws_canon = NULL,
			                    *entry = NULL;
			if (asprintf(&at, "%s/%s", w->workspace, done) < 0)
				return -ENOMEM;
			canon = realpath(at, NULL);
			ws_canon = realpath(w->workspace, NULL);
			if (!canon || !ws_canon)
				return neg_errno();
			if (!path_within(canon, ws_canon))
				return -ENOENT;
			size_t wsc = strlen(ws_canon);
			const char *rel = canon[wsc] == '/' ? canon + wsc + 1 : "";
			if (asprintf(&entry, "%s%s.", rel, *rel ? "/" : "") < 0)
				return -ENOMEM;
			int next = open_entry_folder(w->workspace, entry);
			if (next < 0) /* changed since: a background job's race */
				return next == -ELOOP ? -EAGAIN : next;
			(void)close(fd);
			fd = next;
			continue;
		}
		int next = openat(fd, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			return neg_errno();
		(void)close(fd);
		fd = next;
	}
	return TAKE_FD(fd);
}

/* Each executable in the workspace's folders on the PATH: noted before the
 * run (end false), or blocked after it when new or changed and shadowing
 * (end true). */
static int each_path_executable(struct protect_watch *w, bool end)
{
	int r = 0;
	STRV_FOREACH (line, w->path_folders) {
		_cleanup_free_ char *folder = strndup(*line, strcspn(*line, "\t"));
		if (!folder)
			return -ENOMEM;
		int dir = open_followed(w, folder, end, &w->path_before, &w->path_blocked);
		if (dir < 0) {
			if (dir != -ENOENT && dir != -ENOTDIR && r == 0)
				r = dir;
			continue;
		}
		int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
		if (!d) {
			if (fd >= 0)
				(void)close(fd);
			(void)close(dir);
			continue;
		}
		for (const struct dirent *de; r >= 0 && (de = readdir(d)) != NULL;) {
			_cleanup_free_ char *key = executable_key(dir, folder, de->d_name);
			if (!key || strstr(de->d_name, PROTECT_WATCH_SUFFIX))
				continue;
			if (!end) {
				r = strv_extend(&w->path_before, key);
				continue;
			}
			if (!listed(w->path_before, key) && shadows(*line, de->d_name)) {
				*strchr(key, '\t') = '\0';
				r = block(w, dir, de->d_name, key);
				if (r >= 0)
					r = strv_extend(&w->path_blocked, key);
			}
		}
		(void)closedir(d);
		(void)close(dir);
	}
	return r;
}

int protect_watch_begin(struct protect_watch *w, const char *workspace,
                        const struct run_settings *s)
{
	*w = (struct protect_watch){ .workspace = workspace, .settings = s };
	if (s->sandbox_mode != SANDBOX_MODE_WORKSPACE_WRITE)
		return 0;
	w->active = true;
	int r = path_folders(workspace, &w->path_folders);
	if (r >= 0)
		r = each_path_executable(w, false);
	for (size_t i = 0; r >= 0 && i < s->n_protect; i++)
		if (watched(s->protect[i]) && !folder_done(s, i))
			r = each_match(w, i, false, note_before);
	if (r < 0) {
		/* nothing to compare with afterwards: said, never guessed */
		w->active = false;
		w->error = r;
		return r;
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
		int q = each_match(w, i, true, block_new);
		if (q < 0 && r == 0)
			r = q;
	}
	int q = each_path_executable(w, true);
	if (q < 0 && r == 0)
		r = q;
	w->error = r;
	return r < 0 ? r : (int)strv_length(w->blocked);
}

void protect_watch_write_text(const struct protect_watch *w, FILE *f)
{
	if (!w)
		return;
	STRV_FOREACH (b, w->blocked) {
		bool planted = false;
		STRV_FOREACH (p, w->path_blocked)
			planted |= strcmp(*p, *b) == 0;
		if (planted) {
			fputs("[sandbox: the command put an executable in a folder of the workspace that "
			      "the user's PATH names ahead of the system's, where it would run in place of "
			      "the system's command of that name; renamed to NAME" PROTECT_WATCH_SUFFIX
			      ": ",
			      f);
			terminal_safe_write(f, *b);
			fputs(": tell the user, who may restore it on purpose]\n", f);
			continue;
		}
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

/* Whether path names folder (a path without a trailing "/"), or one of
 * the folders on the way to it: an entry of git's stands where a folder
 * would be, and a symlink there leads the program elsewhere. */
static bool on_the_way(const char *path, const char *folder, size_t folder_len)
{
	size_t n = strlen(path);
	return n > 0 && n <= folder_len && strncmp(folder, path, n) == 0 &&
	       (n == folder_len || folder[n] == '/');
}

bool protect_watch_runs_later(const struct protect_watch *w, const char *path, unsigned mode)
{
	const struct run_settings *s = w->settings;
	if (!s || s->sandbox_mode != SANDBOX_MODE_WORKSPACE_WRITE)
		return false;
	for (size_t i = 0; i < s->n_protect; i++) {
		const char *e = s->protect[i];
		size_t fl = folder_len(e);
		if (!watched(e)) { /* "NAME/": the folder, and all in it */
			if (on_the_way(path, e, strlen(e) - 1) || strncmp(path, e, strlen(e)) == 0)
				return true;
			continue;
		}
		if (fl > 0 && on_the_way(path, e, fl - 1))
			return true;
		if (strncmp(path, e, fl) == 0 && !strchr(path + fl, '/') &&
		    fnmatch(e + fl, path + fl, FNM_PERIOD) == 0)
			return true;
	}
	bool executable = mode == 0100755 || mode == 0120000;
	STRV_FOREACH (line, w->path_folders) {
		size_t rl = strcspn(*line, "\t");
		if (rl > 0 && on_the_way(path, *line, rl))
			return true;
		const char *name = NULL;
		if (rl == 0)
			name = path;
		else if (strncmp(path, *line, rl) == 0 && path[rl] == '/')
			name = path + rl + 1;
		if (name && executable && !strchr(name, '/') && shadows(*line, name))
			return true;
	}
	return false;
}

/* The pathspec of a path's first component: literal, or a glob where it
 * holds a wildcard (git's glob magic, whose "*" matches a leading dot
 * too, is no narrower than fnmatch()'s FNM_PERIOD). */
static int add_pathspec(char ***ret, const char *path, size_t len)
{
	size_t n = strcspn(path, "/");
	if (n > len)
		n = len;
	_cleanup_free_ char *spec = NULL;
	bool glob = strcspn(path, "*?[") < n;
	if (n == 0 ? asprintf(&spec, ":(glob)*") < 0
	           : asprintf(&spec, ":(%s)%.*s", glob ? "glob" : "literal", (int)n, path) < 0)
		return -ENOMEM;
	return listed(*ret, spec) ? 0 : strv_extend(ret, spec);
}

int protect_watch_pathspecs(const struct protect_watch *w, char ***ret)
{
	const struct run_settings *s = w->settings;
	if (!s || s->sandbox_mode != SANDBOX_MODE_WORKSPACE_WRITE)
		return 0;
	for (size_t i = 0; i < s->n_protect; i++) {
		int r = add_pathspec(ret, s->protect[i], strlen(s->protect[i]));
		if (r < 0)
			return r;
	}
	STRV_FOREACH (line, w->path_folders) {
		int r = add_pathspec(ret, *line, strcspn(*line, "\t"));
		if (r < 0)
			return r;
	}
	return 0;
}

void protect_watch_done(struct protect_watch *w)
{
	w->before = strv_free(w->before);
	w->blocked = strv_free(w->blocked);
	w->path_folders = strv_free(w->path_folders);
	w->path_before = strv_free(w->path_before);
	w->path_blocked = strv_free(w->path_blocked);
}
