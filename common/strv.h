/* SPDX-License-Identifier: MIT */
/*
 * NULL-terminated vectors of owned strings (char **), as execve(2) takes them.
 * Not for: borrowed strings; every element is owned by the vector.
 */
#ifndef SLUICE_STRV_H
#define SLUICE_STRV_H

#include <stddef.h>

#define STRV_FOREACH(s, l) for (char **s = (l); s && *s; s++)

/* Free every element and the vector; accepts NULL; returns NULL. */
char **strv_free(char **l);
static inline void strv_freep(char ***l)
{
	strv_free(*l);
}
#define _cleanup_strv_free_ __attribute__((cleanup(strv_freep)))

size_t strv_length(char *const *l);

/* Append a copy of s; -ENOMEM leaves *l as it was. */
int strv_extend(char ***l, const char *s);

/* Append s itself, taking ownership even on failure (s is freed then). */
int strv_consume(char ***l, char *s);

#endif
