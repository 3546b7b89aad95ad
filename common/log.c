/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics on stderr, prefixed with the program's name. Each message is
 * formatted whole and written with one write(2), so lines from concurrent
 * processes do not interleave.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

static void emit(const char *line, int len)
{
	if (len <= 0)
		return;
	ssize_t r;
	do
		r = write(STDERR_FILENO, line, (size_t)len);
	while (r < 0 && errno == EINTR);
}

static int format_line(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = snprintf(buf, size, "%s: ", program_invocation_short_name);
	if (n < 0 || (size_t)n >= size)
		return -1;
	int m = vsnprintf(buf + n, size - (size_t)n, fmt, ap);
	if (m < 0)
		return -1;
	return (size_t)(n + m) < size ? n + m : (int)size - 1;
}

void log_error(const char *fmt, ...)
{
	int saved = errno;
	char line[4096];
	va_list ap;
	va_start(ap, fmt);
	int len = format_line(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (len >= 0) {
		line[len++] = '\n';
		emit(line, len);
	}
	errno = saved;
}

/* Whether strerror(-code) says something the detail does not: not for the
 * codes sluice gives what it finds wrong itself (a bad option or value, a
 * plugin of another ABI or that cannot load, a malformed message, too
 * many of something), whose text ("Invalid argument") would only be noise
 * after a detail that says what is wrong; nor when the detail ends with it
 * already. */
static bool errno_text_adds(int code, const char *detail)
{
	static const int own[] = { EINVAL, E2BIG, EPROTO, ENOEXEC, EBADMSG };
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (-code == own[i])
			return false;
	const char *text = strerror(-code);
	size_t d = strlen(detail), t = strlen(text);
	return !(d >= t && strcmp(detail + d - t, text) == 0);
}

void log_sluice_error(const struct sluice_error *err, const char *fmt, ...)
{
	int saved = errno;
	char line[4096];
	va_list ap;
	va_start(ap, fmt);
	int len = format_line(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (len < 0)
		goto out;
	if (err && err->detail[0])
		len += snprintf(line + len, sizeof(line) - 1 - (size_t)len, ": %s", err->detail);
	if ((size_t)len < sizeof(line) - 1 && err && err->code < 0 &&
	    errno_text_adds(err->code, err->detail))
		len += snprintf(line + len, sizeof(line) - 1 - (size_t)len, ": %s",
		                strerror(-err->code));
	if ((size_t)len >= sizeof(line) - 1)
		len = (int)sizeof(line) - 2;
	line[len++] = '\n';
	emit(line, len);
out:
	errno = saved;
}
