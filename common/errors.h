/* SPDX-License-Identifier: MIT */
/*
 * The one error convention inside sluice: functions return >= 0 on success
 * and -errno on failure; when the caller needs more than an errno (which
 * step, which file:line, which field), a struct sluice_error carries a
 * detail string, filled only on failure.
 * Not for: formatting or printing diagnostics (log.h does that, once).
 */
#ifndef SLUICE_ERRORS_H
#define SLUICE_ERRORS_H

#include <errno.h>
#include <stdarg.h>

/* The detail of an error; a fixed buffer so filling it can never fail. */
struct sluice_error {
	int code;          /* -errno, or 0 when nothing was recorded */
	char detail[1024]; /* human-readable, without a trailing newline */
};

/* -errno from the errno a libc call just set; never 0 (a call that failed
 * without setting errno becomes -EIO rather than "success"). */
static inline int neg_errno(void)
{
	return errno > 0 ? -errno : -EIO;
}

/*
 * Record code (a negative errno) and a printf-style detail in err, if err is
 * not NULL; returns code, so a caller can write
 *         return sluice_error_set(reterr, -EINVAL, "unknown key '%s'", key);
 * A detail longer than the buffer is cut and ends in "...".
 */
int sluice_error_set(struct sluice_error *err, int code, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
int sluice_error_setv(struct sluice_error *err, int code, const char *fmt, va_list ap)
        __attribute__((format(printf, 3, 0)));

/* Put context in front of an error's detail: "context: old detail". */
void sluice_error_prefix(struct sluice_error *err, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

#endif
