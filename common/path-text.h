/* SPDX-License-Identifier: MIT */
/*
 * Paths as text: containment, joining, and the lexical form of a path,
 * shared by the launcher (what to bind and grant) and the broker (what a
 * run may touch, what it left). Only resolve_from and canonical_missing
 * look at the file system, through realpath().
 * Not for: whether a path can be trusted (path-trust.h).
 */
#ifndef SLUICE_PATH_TEXT_H
#define SLUICE_PATH_TEXT_H

#include <stdbool.h>

/* Whether path is dir or lies beneath it, compared as text (both absolute
 * and canonical; dir's trailing slashes do not count, "/" holds every
 * absolute path). */
bool path_within(const char *path, const char *dir);

/* "a/b" (malloc'd), or NULL when out of memory. */
char *path_join(const char *a, const char *b);

/* The canonical form (realpath) of text read from a file in base: relative
 * to base when not absolute. NULL when it does not resolve. */
char *path_resolve_from(const char *base, const char *text);

/* Whether a path has a "." or ".." component. */
bool path_has_dots(const char *path);

/* path (absolute) without ".", ".." or empty components, as if no
 * component were a symlink (malloc'd); NULL when out of memory or too
 * long. */
char *path_normalize(const char *path);

/* The canonical form of a path that does not exist (yet): its longest
 * existing ancestor resolved, the rest appended (malloc'd). NULL when the
 * rest has a "." or ".." component (what it names depends on folders not
 * yet made) or on error. */
char *path_canonical_missing(const char *path);

#endif
