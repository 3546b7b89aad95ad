/* SPDX-License-Identifier: MIT */
/*
 * config_stamp(): an FNV-1a hash over each place's path and what stat
 * says of it (device, inode, size, modification and change times in
 * nanoseconds; or the errno), and for policies.d each entry's name and
 * the same. The change time is in it because a file rewritten within the
 * modification time's granularity, to the same size, still moves it.
 * Not for: reading the files (config-layers.c).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/broker-config.h"
#include "config/config-stamp.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static void mix(uint64_t *h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		*h ^= p[i];
		*h *= FNV_PRIME;
	}
}

static void mix_stat(uint64_t *h, int dir, const char *name)
{
	mix(h, name, strlen(name) + 1);
	struct stat st;
	if (fstatat(dir, name, &st, 0) < 0) {
		int e = errno;
		mix(h, &e, sizeof(e));
		return;
	}
	const uint64_t fields[] = {
		(uint64_t)st.st_dev,         (uint64_t)st.st_ino,
		(uint64_t)st.st_size,        (uint64_t)st.st_mode,
		(uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec,
		(uint64_t)st.st_ctim.tv_sec, (uint64_t)st.st_ctim.tv_nsec,
	};
	mix(h, fields, sizeof(fields));
}

/* A drop-in directory: itself, then each entry (unsorted: a reordering
 * changes the hash, which only costs a needless reload). */
static void mix_directory(uint64_t *h, const char *path)
{
	mix_stat(h, AT_FDCWD, path);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			mix_stat(h, dirfd(d), e->d_name);
	closedir(d);
}

int config_stamp(const char *cli_file, uint64_t *ret)
{
	struct config_paths paths = { .cli_file = cli_file };
	struct config_place *places;
	size_t n;
	int r = config_search(&paths, &places, &n);
	if (r < 0)
		return r;
	uint64_t h = FNV_OFFSET;
	for (size_t i = 0; i < n; i++) {
		if (places[i].directory)
			mix_directory(&h, places[i].path);
		else
			mix_stat(&h, AT_FDCWD, places[i].path);
	}
	config_places_free(places, n);
	*ret = h;
	return 0;
}
