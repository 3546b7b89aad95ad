/* SPDX-License-Identifier: MIT */
/*
 * git's config syntax, as far as the keys of git-config.h need it:
 * "[section]" and "[section "sub"]" headers (names ignore case), "key =
 * value" (a key alone is boolean true), values with double quotes, the
 * escapes \" \\ \n \t \b and line continuations, and "#" or ";" comments
 * outside quotes. Anything else on a line is skipped. Includes are followed
 * after the file that names them is read: the view keeps every value, not
 * the last, so the order does not matter.
 */
#include "config.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "git-config.h"

/* A config file larger than this is read only this far. */
#define GIT_CONFIG_MAX (64 * 1024)
#define NAME_MAX_LEN 64

enum section {
	SECTION_OTHER,
	SECTION_CORE,
	SECTION_EXTENSIONS,
	SECTION_INCLUDE, /* [include], or [includeIf "condition"] whatever the condition */
};

struct cursor {
	const char *p;
	const char *end;
};

static bool at_end(const struct cursor *c)
{
	return c->p >= c->end;
}

static void skip_blanks(struct cursor *c)
{
	while (!at_end(c) && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static void skip_line(struct cursor *c)
{
	while (!at_end(c) && *c->p != '\n')
		c->p++;
}

/* A section or key name: letters, digits, '-' and '.', lowered. */
static void read_name(struct cursor *c, char name[NAME_MAX_LEN])
{
	size_t n = 0;
	while (!at_end(c) && (isalnum((unsigned char)*c->p) || *c->p == '-' || *c->p == '.')) {
		if (n + 1 < NAME_MAX_LEN)
			name[n++] = (char)tolower((unsigned char)*c->p);
		c->p++;
	}
	name[n] = '\0';
}

/* After '[': the header up to ']'. A subsection ("sub" or the old
 * section.sub) makes it a section nobody here cares about, but for
 * includeIf, whose subsection is its condition. */
static enum section read_header(struct cursor *c)
{
	char name[NAME_MAX_LEN];
	read_name(c, name);
	skip_blanks(c);
	bool plain = !at_end(c) && *c->p == ']' && strchr(name, '.') == NULL;
	bool include_if = strcmp(name, "includeif") == 0 || strncmp(name, "includeif.", 10) == 0;
	bool quoted = false;
	while (!at_end(c) && *c->p != '\n' && (quoted || *c->p != ']')) {
		if (*c->p == '\\' && c->p + 1 < c->end)
			c->p++;
		else if (*c->p == '"')
			quoted = !quoted;
		c->p++;
	}
	if (!at_end(c) && *c->p == ']')
		c->p++;
	if (include_if)
		return SECTION_INCLUDE;
	if (!plain)
		return SECTION_OTHER;
	if (strcmp(name, "core") == 0)
		return SECTION_CORE;
	if (strcmp(name, "extensions") == 0)
		return SECTION_EXTENSIONS;
	if (strcmp(name, "include") == 0)
		return SECTION_INCLUDE;
	return SECTION_OTHER;
}

/* After '=': the value into out (size bytes, cut if longer). */
static void read_value(struct cursor *c, char *out, size_t size)
{
	size_t n = 0, kept = 0; /* kept: length without trailing unquoted blanks */
	bool quoted = false;
	skip_blanks(c);
	while (!at_end(c) && *c->p != '\n') {
		char ch = *c->p++;
		if (!quoted && (ch == '#' || ch == ';')) {
			skip_line(c);
			break;
		}
		if (ch == '"') {
			quoted = !quoted;
			kept = n;
			continue;
		}
		if (ch == '\\' && !at_end(c)) {
			char e = *c->p++;
			if (e == '\n')
				continue; /* a line continuation */
			ch = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'b' ? '\b' : e;
		} else if (!quoted && (ch == ' ' || ch == '\t' || ch == '\r')) {
			if (n + 1 < size)
				out[n++] = ' ';
			continue;
		}
		if (n + 1 < size)
			out[n++] = ch;
		kept = n;
	}
	out[kept] = '\0';
}

/* git's boolean: true, yes, on, a non-zero number; false, no, off, 0, "". */
static bool parse_bool(const char *v)
{
	if (strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 || strcasecmp(v, "on") == 0)
		return true;
	if (strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0 || strcasecmp(v, "off") == 0)
		return false;
	return strtol(v, NULL, 0) != 0;
}

/* Add a copy of value to list (n entries, at most max) unless there. */
static void add_once(char **list, size_t *n, size_t max, const char *value, bool *overflow)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(list[i], value) == 0)
			return;
	char *copy = *n < max ? strdup(value) : NULL;
	if (!copy) {
		*overflow = true;
		return;
	}
	list[(*n)++] = copy;
}

/* An include's value as a path, as git resolves it: "~/" against HOME, a
 * relative path against the folder of the including file. "~user/" is not
 * resolved (git would ask the user database; nothing is protected). */
static void add_include(const char *value, const char *path, struct git_config_view *view)
{
	char full[PATH_MAX];
	int n;
	if (!value[0])
		return;
	if (value[0] == '~') {
		const char *home = getenv("HOME");
		if (!home || (value[1] != '/' && value[1] != '\0'))
			return;
		n = snprintf(full, sizeof(full), "%s%s", home, value + 1);
	} else if (value[0] == '/') {
		n = snprintf(full, sizeof(full), "%s", value);
	} else {
		const char *slash = strrchr(path, '/');
		int dir_len = slash ? (int)(slash - path) : 1;
		n = snprintf(full, sizeof(full), "%.*s/%s", dir_len, slash ? path : ".", value);
	}
	if (n < 0 || (size_t)n >= sizeof(full)) {
		view->overflow = true; /* a path git could not open either, but fail closed */
		return;
	}
	add_once(view->includes, &view->n_includes, GIT_CONFIG_INCLUDES_MAX, full, &view->overflow);
}

void git_config_parse(const char *text, size_t len, const char *path, struct git_config_view *view)
{
	struct cursor c = { text, text + len };
	enum section section = SECTION_OTHER;
	char value[PATH_MAX];
	while (!at_end(&c)) {
		skip_blanks(&c);
		if (at_end(&c))
			break;
		char ch = *c.p;
		if (ch == '\n') {
			c.p++;
		} else if (ch == '#' || ch == ';') {
			skip_line(&c);
		} else if (ch == '[') {
			c.p++;
			section = read_header(&c); /* a key may follow on the same line */
		} else if (isalpha((unsigned char)ch)) {
			char key[NAME_MAX_LEN];
			read_name(&c, key);
			skip_blanks(&c);
			bool has_value = !at_end(&c) && *c.p == '=';
			if (has_value) {
				c.p++;
				read_value(&c, value, sizeof(value));
			} else {
				skip_line(&c);
			}
			if (section == SECTION_CORE && strcmp(key, "hookspath") == 0 && has_value)
				add_once(view->hooks_paths, &view->n_hooks_paths,
				         GIT_CONFIG_HOOKS_PATHS_MAX, value, &view->overflow);
			else if (section == SECTION_CORE && strcmp(key, "worktree") == 0 &&
			         has_value)
				memcpy(view->worktree, value, strlen(value) + 1);
			else if (section == SECTION_CORE && strcmp(key, "excludesfile") == 0 &&
			         has_value)
				memcpy(view->excludes_file, value, strlen(value) + 1);
			else if (section == SECTION_EXTENSIONS &&
			         strcmp(key, "worktreeconfig") == 0)
				view->worktree_config |= !has_value || parse_bool(value);
			else if (section == SECTION_INCLUDE && strcmp(key, "path") == 0 &&
			         has_value)
				add_include(value, path, view);
		} else {
			skip_line(&c);
		}
	}
}

static void read_file(const char *path, struct git_config_view *view, int depth)
{
	/* O_NONBLOCK and a regular file only: a FIFO a command left where a
	 * configuration file is read cannot hang the launcher */
	_cleanup_close_ int fd =
	        openat(AT_FDCWD, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	/* the launcher is one thread; a static buffer costs no mmap per file,
	 * and it is free again before the includes are read */
	static char buf[GIT_CONFIG_MAX];
	ssize_t n = read_full(fd, buf, sizeof(buf));
	if (n <= 0)
		return;
	size_t first = view->n_includes;
	git_config_parse(buf, (size_t)n, path, view);
	size_t last = view->n_includes;
	/* listed once each: a loop of includes ends here, or at the depth */
	for (size_t i = first; i < last && depth < GIT_CONFIG_INCLUDE_DEPTH; i++)
		read_file(view->includes[i], view, depth + 1);
}

void git_config_read(const char *path, struct git_config_view *view)
{
	read_file(path, view, 0);
}

void git_config_view_done(struct git_config_view *view)
{
	for (size_t i = 0; i < view->n_hooks_paths; i++)
		free(view->hooks_paths[i]);
	for (size_t i = 0; i < view->n_includes; i++)
		free(view->includes[i]);
	view->n_hooks_paths = view->n_includes = 0;
}

/* One of them, its path kept in files[*n] while there is room. */
static void read_user_config(const char *path, struct git_config_view *view, char **files,
                             size_t max, size_t *n)
{
	git_config_read(path, view);
	if (*n < max) {
		files[*n] = strdup(path);
		if (files[*n])
			(*n)++;
		else
			view->overflow = true; /* out of memory: refused, never skipped */
	}
}

void git_config_read_user(struct git_config_view *view, char **files, size_t max, size_t *n)
{
	const char *home = getenv("HOME");
	if (!getenv("GIT_CONFIG_NOSYSTEM")) {
		const char *sys = getenv("GIT_CONFIG_SYSTEM");
		read_user_config(sys ? sys : "/etc/gitconfig", view, files, max, n);
	}
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	char path[PATH_MAX];
	if (global) {
		read_user_config(global, view, files, max, n);
		return;
	}
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && xdg[0] == '/')
		snprintf(path, sizeof(path), "%s/git/config", xdg);
	else
		snprintf(path, sizeof(path), "%s/.config/git/config", home ? home : "");
	if (home || xdg)
		read_user_config(path, view, files, max, n);
	if (home) {
		snprintf(path, sizeof(path), "%s/.gitconfig", home);
		read_user_config(path, view, files, max, n);
	}
}
