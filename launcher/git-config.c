/* SPDX-License-Identifier: MIT */
/*
 * git's config syntax, as far as the two keys of git-config.h need it:
 * "[section]" and "[section "sub"]" headers (names ignore case), "key =
 * value" (a key alone is boolean true), values with double quotes, the
 * escapes \" \\ \n \t \b and line continuations, and "#" or ";" comments
 * outside quotes. Anything else on a line is skipped.
 */
#include "config.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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
 * section.sub) makes it a section nobody here cares about. */
static enum section read_header(struct cursor *c)
{
	char name[NAME_MAX_LEN];
	read_name(c, name);
	skip_blanks(c);
	bool plain = !at_end(c) && *c->p == ']' && strchr(name, '.') == NULL;
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
	if (!plain)
		return SECTION_OTHER;
	if (strcmp(name, "core") == 0)
		return SECTION_CORE;
	if (strcmp(name, "extensions") == 0)
		return SECTION_EXTENSIONS;
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

void git_config_parse(const char *text, size_t len, struct git_config_view *view)
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
				memcpy(view->hooks_path, value, strlen(value) + 1);
			else if (section == SECTION_EXTENSIONS &&
			         strcmp(key, "worktreeconfig") == 0)
				view->worktree_config = !has_value || parse_bool(value);
		} else {
			skip_line(&c);
		}
	}
}

void git_config_read(const char *path, struct git_config_view *view)
{
	_cleanup_close_ int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	/* the launcher is one thread; a static buffer costs no mmap per file */
	static char buf[GIT_CONFIG_MAX];
	ssize_t n = read_full(fd, buf, sizeof(buf));
	if (n > 0)
		git_config_parse(buf, (size_t)n, view);
}
