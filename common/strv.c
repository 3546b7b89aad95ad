/* SPDX-License-Identifier: MIT */
/*
 * String vectors. Growth is by one element per append: vectors here are
 * argv-sized, not bulk data.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strv.h"

char **strv_free(char **l)
{
	STRV_FOREACH (s, l)
		free(*s);
	free(l);
	return NULL;
}

size_t strv_length(char *const *l)
{
	size_t n = 0;
	while (l && l[n])
		n++;
	return n;
}

int strv_consume(char ***l, char *s)
{
	if (!s)
		return -ENOMEM;
	size_t n = strv_length(*l);
	char **grown = realloc(*l, (n + 2) * sizeof(char *));
	if (!grown) {
		free(s);
		return -ENOMEM;
	}
	grown[n] = s;
	grown[n + 1] = NULL;
	*l = grown;
	return 0;
}

int strv_extend(char ***l, const char *s)
{
	return strv_consume(l, strdup(s));
}
