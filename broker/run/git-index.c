/* SPDX-License-Identifier: MIT */
/*
 * The gitlinks of a repository's index (git-index.h): the fixed part of
 * each entry, its flags, and its path (versions 2 and 3 padded to 8
 * bytes, version 4 prefix-compressed against the path before). A split
 * index (`git update-index --split-index`) keeps most entries in a file
 * "sharedindex.HASH" beside it, named by its "link" extension: the
 * gitlinks of every such file in the gitdir are read too, without
 * reading the extension, so that a command cannot hide a gitlink from the
 * sweep there (git reads the shared file whole, then the index's changes;
 * a gitlink the index deleted is at worst looked at needlessly).
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "run/git-index.h"
#include "path-text.h"

/* Git's "offset" varint (index v4). */
static bool read_varint(const unsigned char **p, const unsigned char *end, size_t *ret)
{
	if (*p >= end)
		return false;
	unsigned char c = *(*p)++;
	size_t v = c & 127;
	while (c & 128) {
		if (*p >= end || v > (SIZE_MAX >> 8))
			return false;
		c = *(*p)++;
		v = ((v + 1) << 7) + (c & 127);
	}
	*ret = v;
	return true;
}

/* The gitlinks of the index file name in the gitdir. */
static void each_gitlink_in(int gitdir_fd, const char *file, size_t hash_len,
                            git_index_gitlink_fn fn, void *userdata)
{
	_cleanup_close_ int ifd =
	        openat(gitdir_fd, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (ifd < 0 || fstat(ifd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 12)
		return;
	size_t size = (size_t)st.st_size;
	const unsigned char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, ifd, 0);
	if (map == MAP_FAILED)
		return;
	const unsigned char *p = map + 12, *end = map + size;
	uint32_t version = (uint32_t)map[4] << 24 | map[5] << 16 | map[6] << 8 | map[7];
	uint32_t count = (uint32_t)map[8] << 24 | map[9] << 16 | map[10] << 8 | map[11];
	char prev[PATH_MAX] = "";
	if (memcmp(map, "DIRC", 4) != 0 || version < 2 || version > 4)
		count = 0;
	size_t fixed = 40 + hash_len + 2;
	for (uint32_t i = 0; i < count; i++) {
		if ((size_t)(end - p) < fixed)
			break;
		const unsigned char *e = p;
		uint32_t mode = (uint32_t)e[24] << 24 | e[25] << 16 | e[26] << 8 | e[27];
		uint16_t flags = (uint16_t)(e[40 + hash_len] << 8 | e[41 + hash_len]);
		p += fixed;
		if (version >= 3 && (flags & 0x4000))
			p += 2;
		char name[PATH_MAX];
		if (version == 4) {
			size_t strip, plen = strlen(prev);
			if (!read_varint(&p, end, &strip) || strip > plen)
				break;
			const unsigned char *z = memchr(p, '\0', (size_t)(end - p));
			if (!z || plen - strip + (size_t)(z - p) >= sizeof(name))
				break;
			memcpy(name, prev, plen - strip);
			memcpy(name + plen - strip, p, (size_t)(z - p));
			name[plen - strip + (size_t)(z - p)] = '\0';
			p = z + 1;
			memcpy(prev, name, strlen(name) + 1);
		} else {
			if (p > end)
				break;
			const unsigned char *z = memchr(p, '\0', (size_t)(end - p));
			if (!z || (size_t)(z - p) >= sizeof(name))
				break;
			memcpy(name, p, (size_t)(z - p));
			name[z - p] = '\0';
			size_t entry = (size_t)(z - e) + 1;
			p = e + ((entry + 7) & ~(size_t)7);
		}
		if ((mode & 0170000) == 0160000)
			fn(name, userdata);
	}
	munmap((void *)map, size);
}

/* Whether name is "sharedindex." and an object name in hex (40 or 64
 * digits), as git names a split index's shared part. */
static bool shared_index_name(const char *name)
{
	static const char prefix[] = "sharedindex.";
	if (strncmp(name, prefix, sizeof(prefix) - 1) != 0)
		return false;
	const char *h = name + sizeof(prefix) - 1;
	size_t n = strspn(h, "0123456789abcdef");
	return h[n] == '\0' && (n == 40 || n == 64);
}

void git_index_each_gitlink(int gitdir_fd, size_t hash_len, git_index_gitlink_fn fn, void *userdata)
{
	each_gitlink_in(gitdir_fd, "index", hash_len, fn, userdata);
	int dfd = openat(gitdir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	DIR *dir = fdopendir(dfd);
	if (!dir) {
		close(dfd);
		return;
	}
	struct dirent *d;
	while ((d = readdir(dir)))
		if (shared_index_name(d->d_name))
			each_gitlink_in(gitdir_fd, d->d_name, hash_len, fn, userdata);
	closedir(dir);
}

size_t git_index_hash_length(int fd)
{
	char text[8192];
	_cleanup_close_ int cfd =
	        openat(fd, "config", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (cfd < 0 || fstat(cfd, &st) < 0 || !S_ISREG(st.st_mode))
		return 20;
	ssize_t n = read_full(cfd, text, sizeof(text) - 1);
	if (n <= 0)
		return 20;
	text[n] = '\0';
	const char *f = strcasestr(text, "objectformat");
	return f && strcasestr(f, "sha256") ? 32 : 20;
}

char *git_index_gitlink_gitdir(const char *worktree, const char *rel)
{
	if (rel[0] == '/' || strstr(rel, "..") || !rel[0])
		return NULL;
	_cleanup_free_ char *dir = NULL, *dotgit = NULL;
	char *gitdir = NULL;
	if (asprintf(&dir, "%s/%s", worktree, rel) < 0 || asprintf(&dotgit, "%s/.git", dir) < 0)
		return NULL;
	struct stat st;
	if (lstat(dotgit, &st) < 0)
		return NULL;
	if (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode))
		return realpath(dotgit, NULL); /* git follows a symlinked .git as a folder */
	if (!S_ISREG(st.st_mode))
		return NULL;
	char line[PATH_MAX + 16];
	if (read_first_line_at(AT_FDCWD, dotgit, false, line, sizeof(line)) == 0 &&
	    strncmp(line, "gitdir: ", 8) == 0)
		gitdir = path_resolve_from(dir, line + 8);
	/* where it really lies, symlinks on the way followed as git does */
	char *real = gitdir ? realpath(gitdir, NULL) : NULL;
	if (real) {
		free(gitdir);
		gitdir = real;
	}
	return gitdir;
}
