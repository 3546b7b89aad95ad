/* SPDX-License-Identifier: MIT */
/*
 * The only place that formats diagnostics for people: one line on stderr,
 * "PROGRAM: message", with user strings in single quotes by convention.
 * Called from the top of each program (main, cmd_*), never from library code,
 * which returns errors instead.
 */
#ifndef SLUICE_LOG_H
#define SLUICE_LOG_H

#include <stdarg.h>

#include "errors.h"

/* "sluice: <message>\n" on stderr; errno is preserved. */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "sluice: <message>: <err->detail>: <strerror(-err->code)>\n"; parts that
 * are empty are left out, and so is the errno text where it adds nothing:
 * for -EINVAL, -E2BIG, -EPROTO, -ENOEXEC and -EBADMSG, the codes of what
 * sluice found wrong itself (the detail says what), and when the detail
 * ends with it already. */
void log_sluice_error(const struct sluice_error *err, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

#endif
