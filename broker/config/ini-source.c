/* SPDX-License-Identifier: MIT */
/*
 * The INI reader over inih r55 (Debian's libinih, built with its defaults:
 * 200-byte line buffer, multiline continuation on, ';' inline comments).
 * Our reader hands inih one physical line per call and classifies each line
 * the way inih will, so that it can refuse what inih would silently split or
 * cut, and tell the handler which physical line it is on.
 * Not for: meaning of sections and keys (config-parse.c).
 */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "fd-util.h"
#include "config/ini-source.h"

struct reader {
	const char *text;
	size_t len;
	size_t pos;
	unsigned line;     /* physical line last handed to inih */
	bool have_key;     /* inih's prev_name is set: indented lines continue it */
	bool continuation; /* the current line continues the previous key */
	const struct ini_source_ops *ops;
	void *user;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n';
}

/* Where inih's find_chars_or_comment() stops: a char of chars, or a ';' that
 * follows whitespace (an inline comment). Returns the length of s before it. */
static size_t span_to(const char *s, size_t n, const char *chars)
{
	bool was_space = false;
	for (size_t i = 0; i < n; i++) {
		if (chars && strchr(chars, s[i]))
			return i;
		if (was_space && s[i] == ';')
			return i;
		was_space = is_space(s[i]);
	}
	return n;
}

static size_t rstrip_len(const char *s, size_t n)
{
	while (n > 0 && is_space(s[n - 1]))
		n--;
	return n;
}

static void report(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(struct reader *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->ops->on_error(r->user, r->line, msg);
}

/* Classify one line (without its newline) as inih r55 will; returns false
 * when inih must not see it (the error has been reported). */
static bool classify(struct reader *r, const char *s, size_t n)
{
	r->continuation = false;
	if (memchr(s, '\0', n)) {
		report(r, "NUL byte in line");
		return false;
	}
	size_t lead = 0;
	if (r->line == 1 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		s += 3, n -= 3; /* inih skips a UTF-8 byte order mark */
	while (lead < n && is_space(s[lead]))
		lead++;
	const char *start = s + lead;
	size_t rest = rstrip_len(start, n - lead);
	if (rest == 0 || *start == ';' || *start == '#')
		return true;
	if (r->have_key && lead > 0) {
		r->continuation = true;
		return true;
	}
	if (*start == '[') {
		size_t end = span_to(start + 1, rest - 1, "]");
		if (end >= rest - 1 || start[1 + end] != ']') {
			report(r, "section header without ']'");
			r->ops->on_section(r->user, NULL, r->line);
			return false;
		}
		if (end > INI_SOURCE_MAX_NAME) {
			report(r, "section name longer than %d bytes", INI_SOURCE_MAX_NAME);
			r->ops->on_section(r->user, NULL, r->line);
			return false;
		}
		char name[INI_SOURCE_MAX_NAME + 1];
		memcpy(name, start + 1, end);
		name[end] = '\0';
		r->have_key = false;
		r->ops->on_section(r->user, name, r->line);
		return true;
	}
	size_t eq = span_to(start, rest, "=:");
	if (eq >= rest || (start[eq] != '=' && start[eq] != ':')) {
		report(r, "expected 'key = value'");
		return false;
	}
	size_t key_len = rstrip_len(start, eq);
	if (key_len == 0) {
		report(r, "empty key name");
		return false;
	}
	if (key_len > INI_SOURCE_MAX_NAME) {
		report(r, "key name longer than %d bytes", INI_SOURCE_MAX_NAME);
		return false;
	}
	r->have_key = true;
	return true;
}

/* inih's ini_reader: one physical line per call, or a blank line in place of
 * one that must not reach inih, so that line numbers stay in step. */
static char *reader_next(char *buf, int num, void *stream)
{
	struct reader *r = stream;
	if (r->pos >= r->len || num < 4)
		return NULL;
	const char *s = r->text + r->pos;
	const char *nl = memchr(s, '\n', r->len - r->pos);
	size_t n = nl ? (size_t)(nl - s) : r->len - r->pos;
	r->pos += n + (nl ? 1 : 0);
	r->line++;
	size_t content = n;
	if (content > 0 && s[content - 1] == '\r')
		content--;
	/* inih needs room for "\r\n\0" past the longest line (ini.h). */
	size_t max = (size_t)num - 3;
	bool pass;
	if (content > max) {
		r->continuation = false;
		report(r,
		       "line is longer than %zu bytes (the INI reader's limit); write a long "
		       "value as indented continuation lines",
		       max);
		pass = false;
	} else {
		pass = classify(r, s, content);
	}
	if (!pass) {
		strcpy(buf, "\n");
		return buf;
	}
	memcpy(buf, s, content);
	buf[content] = '\n';
	buf[content + 1] = '\0';
	return buf;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;
	r->ops->on_entry(r->user, section, name, value, r->line, r->continuation);
	return 1; /* errors are recorded by the callbacks, never by inih */
}

int ini_source_parse(const char *text, size_t len, const struct ini_source_ops *ops, void *user)
{
	if (len > INI_SOURCE_MAX_FILE)
		return -EFBIG;
	struct reader r = { .text = text, .len = len, .ops = ops, .user = user };
	int k = ini_parse_stream(reader_next, &r, handler, &r);
	if (k == -2)
		return -ENOMEM;
	if (k != 0) /* every line inih could reject was screened: a mismatch is a bug here */
		ops->on_error(user, (unsigned)k, "line not understood by the INI reader");
	return 0;
}

int ini_source_read_fd(int fd, char **ret, size_t *ret_len)
{
	size_t cap = 4096, len = 0;
	_cleanup_free_ char *buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t k = read_full(fd, buf + len, cap - len);
		if (k < 0)
			return (int)k;
		len += (size_t)k;
		if (len < cap) /* end of file */
			break;
		if (cap > INI_SOURCE_MAX_FILE)
			return -EFBIG;
		char *p = realloc(buf, cap * 2 + 1);
		if (!p)
			return -ENOMEM;
		buf = p;
		cap *= 2;
	}
	if (len > INI_SOURCE_MAX_FILE)
		return -EFBIG;
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}
