/* SPDX-License-Identifier: MIT */
/* Paths as text; see path-text.h. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "path-text.h"

bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *path_join(const char *a, const char *b)
{
	char *s = NULL;
	return asprintf(&s, "%s/%s", a, b) < 0 ? NULL : s;
}

char *path_resolve_from(const char *base, const char *text)
{
	_cleanup_free_ char *joined = text[0] == '/' ? strdup(text) : path_join(base, text);
	return joined ? realpath(joined, NULL) : NULL;
}

bool path_has_dots(const char *path)
{
	for (const char *s = path; *s; s = strchr(s, '/') ? strchr(s, '/') + 1 : s + strlen(s)) {
		size_t n = strcspn(s, "/");
		if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return true;
	}
	return false;
}

char *path_normalize(const char *path)
{
	char *out = malloc(PATH_MAX);
	if (!out)
		return NULL;
	size_t len = 0;
	for (const char *s = path; *s;) {
		size_t n = strcspn(s, "/");
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--; /* the slash */
		} else if (n > 0 && !(n == 1 && s[0] == '.')) {
			if (len + 1 + n >= PATH_MAX) {
				free(out);
				return NULL;
			}
			out[len++] = '/';
			memcpy(out + len, s, n);
			len += n;
		}
		s += n;
		while (*s == '/')
			s++;
	}
	if (len == 0)
		out[len++] = '/';
	out[len] = '\0';
	return out;
}

char *path_canonical_missing(const char *path)
{
	char head[PATH_MAX];
	size_t n = strlen(path);
	if (path[0] != '/' || n >= sizeof(head))
		return NULL;
	for (size_t i = n; i-- > 0;) {
		if (path[i] != '/')
			continue;
		const char *rest = path + i + 1;
		memcpy(head, path, i);
		head[i] = '\0';
		_cleanup_free_ char *real = realpath(i ? head : "/", NULL);
		if (!real && (errno == ENOENT || errno == ENOTDIR))
			continue;
		if (!real || path_has_dots(rest))
			return NULL;
		char *out = NULL;
		return asprintf(&out, "%s/%s", strcmp(real, "/") ? real : "", rest) < 0 ? NULL
		                                                                        : out;
	}
	return NULL;
}
