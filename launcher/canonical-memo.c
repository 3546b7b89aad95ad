/* SPDX-License-Identifier: MIT */
/*
 * See canonical-memo.h. Each prefix of a path is looked up once: its
 * canonical form is its folder's (already resolved) and its own name, as
 * long as it is no symlink; where it is missing, so is everything beneath
 * it, whose canonical form is then the missing prefix's and the rest.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "canonical-memo.h"
#include "path-text.h"

void canonical_memo_done(struct canonical_memo *memo)
{
	for (size_t i = 0; i < CANONICAL_MEMO_SLOTS; i++) {
		free(memo->slot[i].path);
		free(memo->slot[i].canonical);
		memo->slot[i] = (struct canonical_memo_entry){ 0 };
	}
	memo->n = 0;
}

/* realpath(), else path_canonical_missing(): what the memo stands in for. */
static char *resolve_whole(const char *path, bool *ret_exists)
{
	char *c = realpath(path, NULL);
	*ret_exists = c != NULL;
	return c ? c : path_canonical_missing(path);
}

/* The slot of the prefix path[0..len): where it is, or the free one where
 * it would go. FNV-1a, probed linearly; the memo is never more than half
 * full (see remember()), so there always is a free slot. */
static struct canonical_memo_entry *slot_for(struct canonical_memo *memo, const char *path,
                                             size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)path[i]) * 16777619u;
	for (size_t i = h % CANONICAL_MEMO_SLOTS;; i = (i + 1) % CANONICAL_MEMO_SLOTS) {
		struct canonical_memo_entry *e = &memo->slot[i];
		if (!e->path || (strncmp(e->path, path, len) == 0 && e->path[len] == '\0'))
			return e;
	}
}

/* Keep the prefix in its free slot e, taking canonical; a full memo (or
 * no memory for the prefix) keeps nothing and gives canonical back to the
 * caller, who then owns it. */
static char *remember(struct canonical_memo *memo, struct canonical_memo_entry *e, const char *path,
                      size_t len, char *canonical, bool exists)
{
	if (memo->n >= CANONICAL_MEMO_SLOTS / 2)
		return canonical;
	char *copy = strndup(path, len);
	if (!copy)
		return canonical;
	*e = (struct canonical_memo_entry){ .path = copy,
		                            .canonical = canonical,
		                            .exists = exists };
	memo->n++;
	return NULL;
}

/* folder's canonical form and name, joined ("/" is "" here). */
static char *join_name(const char *folder, const char *name, size_t name_len)
{
	size_t n = strlen(folder);
	char *out = malloc(n + 1 + name_len + 1);
	if (!out)
		return NULL;
	memcpy(out, folder, n);
	out[n] = '/';
	memcpy(out + n + 1, name, name_len);
	out[n + 1 + name_len] = '\0';
	return out;
}

char *canonical_memo_resolve(struct canonical_memo *memo, const char *path, bool *ret_exists)
{
	size_t total = strlen(path);
	if (path[0] != '/' || total >= PATH_MAX || path_has_dots(path) || strstr(path, "//") ||
	    (total > 1 && path[total - 1] == '/'))
		return resolve_whole(path, ret_exists);
	if (total == 1)
		return *ret_exists = true, strdup("/");
	const char *folder = ""; /* the canonical form of the prefix so far */
	char *owned = NULL;      /* folder, when the memo could not keep it */
	bool exists = true;
	size_t end = 0;
	while (end < total) {
		const char *name = path + end + 1;
		const char *slash = strchr(name, '/');
		size_t name_len = slash ? (size_t)(slash - name) : strlen(name);
		end = (size_t)(name - path) + name_len;
		struct canonical_memo_entry *e = slot_for(memo, path, end);
		if (!e->path) {
			char prefix[PATH_MAX];
			memcpy(prefix, path, end);
			prefix[end] = '\0';
			struct stat st;
			bool found = lstat(prefix, &st) == 0;
			if (found ? S_ISLNK(st.st_mode) : errno != ENOENT && errno != ENOTDIR) {
				free(owned);
				return resolve_whole(path, ret_exists);
			}
			char *canonical = join_name(folder, name, name_len);
			if (!canonical)
				return free(owned), NULL;
			char *unkept = remember(memo, e, path, end, canonical, found);
			free(owned);
			owned = unkept;
			folder = unkept ? unkept : e->canonical;
			exists = found;
		} else {
			free(owned);
			owned = NULL;
			folder = e->canonical;
			exists = e->exists;
		}
		if (!exists)
			break; /* nothing beneath a missing name is looked up */
	}
	*ret_exists = exists;
	char *out = NULL;
	if (end < total)
		out = join_name(folder, path + end + 1, total - end - 1);
	else
		out = owned ? owned : strdup(folder);
	if (out != owned)
		free(owned);
	return out;
}
