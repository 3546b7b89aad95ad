/* SPDX-License-Identifier: MIT */
/*
 * Filling struct sluice_error. The only formatting done here is of the
 * detail text; nothing is printed.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "errors.h"

static void mark_cut(char *buf, size_t size, int written)
{
	if (written >= 0 && (size_t)written >= size && size > 4)
		memcpy(buf + size - 4, "...", 4);
}

int sluice_error_setv(struct sluice_error *err, int code, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	int n = vsnprintf(err->detail, sizeof(err->detail), fmt, ap);
	if (n < 0)
		err->detail[0] = '\0';
	mark_cut(err->detail, sizeof(err->detail), n);
	return code;
}

int sluice_error_set(struct sluice_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sluice_error_setv(err, code, fmt, ap);
	va_end(ap);
	return code;
}

void sluice_error_prefix(struct sluice_error *err, const char *fmt, ...)
{
	if (!err)
		return;
	char prefix[sizeof(err->detail)];
	char old[sizeof(err->detail)];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	memcpy(old, err->detail, sizeof(old));
	n = snprintf(err->detail, sizeof(err->detail), "%s%s%s", prefix, old[0] ? ": " : "", old);
	mark_cut(err->detail, sizeof(err->detail), n);
}
