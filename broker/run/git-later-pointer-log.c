/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the lines of a HEAD reflog the run added
 * (git-later-pointer-log.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "run/git-later-pointer-log.h"
#include "run/git-later-refs.h"

/* What is read of the log before the run for its newest lines. */
#define LOG_READ_BEFORE (16 * 1024)
/* And before those, for its newest checkout line where they hold none. */
#define LOG_READ_CHECKOUT (1024 * 1024)

/* The newest checkout line of the log fd before offset upto (where its
 * newest lines kept begin), within LOG_READ_CHECKOUT of it, into
 * b->checkout: 0 (none found: NULL) or -ENOMEM. */
static int take_checkout(struct git_later_log_before *b, int fd, off_t upto)
{
	off_t start = upto > LOG_READ_CHECKOUT ? upto - LOG_READ_CHECKOUT : 0;
	size_t want = (size_t)(upto - start);
	_cleanup_free_ char *buf = want > 0 ? malloc(want) : NULL;
	if (want == 0 || !buf)
		return want == 0 ? 0 : -ENOMEM;
	if (pread(fd, buf, want, start) != (ssize_t)want)
		return 0;
	git_later_nul_to_newline(buf, want);
	size_t from = 0;
	if (start > 0) { /* whole lines only */
		const char *nl = memchr(buf, '\n', want);
		from = nl ? (size_t)(nl - buf) + 1 : want;
	}
	size_t at = from + git_later_log_newest_checkout(buf + from, want - from);
	if (at >= want)
		return 0;
	size_t len = strcspn(buf + at, "\n");
	len = at + len > want ? want - at : len;
	b->checkout = strndup(buf + at, len);
	return b->checkout ? 0 : -ENOMEM;
}

int git_later_log_take(struct git_later_log_before *b, int fd, const struct stat *st)
{
	*b = (struct git_later_log_before){ .tail_len = 0 };
	size_t want = st->st_size < LOG_READ_BEFORE ? (size_t)st->st_size : LOG_READ_BEFORE;
	char *buf = want > 0 ? malloc(want + 1) : NULL;
	if (want > 0 && !buf)
		return -ENOMEM;
	ssize_t n = fd < 0 || !buf ? -1 : pread(fd, buf, want, st->st_size - (off_t)want);
	if (n != (ssize_t)want) {
		free(buf);
		return 0;
	}
	size_t tail = want < sizeof(b->tail) ? want : sizeof(b->tail);
	memcpy(b->tail, buf + want - tail, tail);
	b->tail_len = tail;
	git_later_nul_to_newline(buf, want); /* as the text after the run is read */
	/* whole lines only: the first is whole at the file's start alone */
	size_t from = 0;
	if (want < (size_t)st->st_size) {
		const char *nl = memchr(buf, '\n', want);
		from = nl ? (size_t)(nl - buf) + 1 : want;
	}
	size_t end = want;
	while (end > from && buf[end - 1] != '\n')
		end--;
	memmove(buf, buf + from, end - from);
	buf[end - from] = '\0';
	b->lines = buf;
	b->lines_len = end - from;
	if (git_later_log_newest_checkout(b->lines, b->lines_len) < b->lines_len)
		return 0;
	return take_checkout(b, fd, st->st_size - (off_t)want + (off_t)from);
}

void git_later_log_done(struct git_later_log_before *b)
{
	free(b->lines);
	free(b->checkout);
	b->lines = NULL;
	b->checkout = NULL;
	b->lines_len = 0;
}

size_t git_later_log_new_from(const struct git_later_log_before *b, bool known,
                              const struct stat *was, const char *text, size_t len,
                              const struct stat *now, bool *rewritten)
{
	size_t tail = b->tail_len;
	*rewritten = false;
	if (known && tail > 0 && now->st_ino == was->st_ino && now->st_dev == was->st_dev &&
	    (off_t)len >= was->st_size &&
	    memcmp(text + (size_t)was->st_size - tail, b->tail, tail) == 0)
		return (size_t)was->st_size;
	*rewritten = true;
	size_t from = len, lines = 0;
	while (from > 0 && lines <= POINTER_LOG_WINDOW)
		if (text[--from] == '\n' && from + 1 < len)
			lines++;
	from = lines > POINTER_LOG_WINDOW ? from + 1 : 0;
	/* the first place the old last bytes stand: lines after it that lie
	 * before the window are read too (a copy of them never shortens it) */
	const char *first = tail > 0 ? memmem(text, len, b->tail, tail) : NULL;
	size_t after = first ? (size_t)(first - text) + tail : len;
	return after < from ? after : from;
}

bool git_later_log_was_there(const struct git_later_log_before *b, const char *line, size_t len)
{
	if (b->checkout && strlen(b->checkout) == len && memcmp(b->checkout, line, len) == 0)
		return true; /* the newest checkout line before the run */
	const char *s = b->lines, *end = b->lines + b->lines_len;
	while (s && s + len < end) {
		if (memcmp(s, line, len) == 0 && s[len] == '\n')
			return true;
		s = memchr(s, '\n', (size_t)(end - s));
		s = s ? s + 1 : NULL;
	}
	return false;
}

size_t git_later_log_newest_checkout(const char *text, size_t len)
{
	static const char msg[] = "\tcheckout: moving from ";
	size_t found = len;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		/* anywhere in the line: git reads the message after the time
		 * zone, and a name the command wrote may hold a tab */
		if (memmem(text + at, end - at, msg, sizeof(msg) - 1))
			found = at;
		at = end + 1;
	}
	return found;
}

size_t git_later_log_unname_old(char *text, size_t len, char **planting, size_t hex_len)
{
	size_t n = 0;
	const char *prev_new = NULL; /* the line before's new id */
	char id[65];
	for (size_t at = 0; at < len && hex_len < sizeof(id);) {
		char *line = text + at;
		size_t end = at;
		while (end < len && text[end] != '\n' && text[end] != '\0')
			end++; /* a NUL ends a line too, as git_later_nul_to_newline() */
		bool ids = end - at > 2 * hex_len + 1 && line[hex_len] == ' ' &&
		           line[2 * hex_len + 1] == ' ';
		if (ids) {
			memcpy(id, line, hex_len);
			id[hex_len] = '\0';
			if (git_later_listed(planting, id)) {
				/* as git reflog delete --rewrite sets it: the id the
				 * line before went to, or none */
				if (prev_new)
					memcpy(line, prev_new, hex_len);
				else
					memset(line, '0', hex_len);
				n++;
			}
		}
		prev_new = ids ? line + hex_len + 1 : NULL;
		at = end + 1;
	}
	return n;
}
