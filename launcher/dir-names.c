/* SPDX-License-Identifier: MIT */
/*
 * See dir-names.h. A path is walked from "/" one name at a time: each
 * folder on the way is listed once (getdents64 with a large buffer, not
 * readdir()'s small one), and a name it lacks ends the walk: nothing
 * beneath it exists.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "dir-names.h"

/* getdents64(2)'s record. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static void folder_free(struct dir_names_folder *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->names[i]);
	free(f->names);
	free(f->path);
	*f = (struct dir_names_folder){ 0 };
}

void dir_names_done(struct dir_names *d)
{
	for (size_t i = 0; i < DIR_NAMES_FOLDERS; i++)
		folder_free(&d->folder[i]);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add name to f's list; false when it cannot be kept. */
static bool folder_add(struct dir_names_folder *f, size_t *cap, const char *name)
{
	if (f->n >= DIR_NAMES_MAX)
		return false;
	if (f->n == *cap) {
		size_t grown = *cap ? *cap * 2 : 64;
		char **names = realloc(f->names, grown * sizeof(*names));
		if (!names)
			return false;
		f->names = names;
		*cap = grown;
	}
	f->names[f->n] = strdup(name);
	return f->names[f->n++] != NULL;
}

/* f->path's names, sorted; or why there are none (f->missing, f->unlisted). */
static void folder_list(struct dir_names_folder *f)
{
	_cleanup_close_ int fd = open(f->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			f->missing = true;
		else
			f->unlisted = true;
		return;
	}
	/* on the stack: a malloc() this large is an mmap() and munmap() each */
	_Alignas(8) char buf[32768];
	size_t cap = 0;
	bool kept = true;
	for (long n; kept && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) != 0;) {
		if (n < 0) {
			kept = false;
			break;
		}
		for (long off = 0; kept && off < n;) {
			const struct linux_dirent64 *de = (const void *)(buf + off);
			off += de->d_reclen;
			if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
				kept = folder_add(f, &cap, de->d_name);
		}
	}
	if (!kept) {
		char *path = f->path;
		f->path = NULL;
		folder_free(f);
		f->path = path;
		f->unlisted = true;
		return;
	}
	qsort(f->names, f->n, sizeof(*f->names), compare_names);
}

/* The folder at path, listed on first use; NULL when every slot is taken
 * (or no memory for its path). */
static struct dir_names_folder *folder_get(struct dir_names *d, const char *path)
{
	for (size_t i = 0; i < DIR_NAMES_FOLDERS; i++) {
		struct dir_names_folder *f = &d->folder[i];
		if (!f->path) {
			f->path = strdup(path);
			if (!f->path)
				return NULL;
			folder_list(f);
			return f;
		}
		if (strcmp(f->path, path) == 0)
			return f;
	}
	return NULL;
}

static bool folder_has(const struct dir_names_folder *f, const char *name)
{
	const char *key = name;
	return f->n > 0 && bsearch(&key, f->names, f->n, sizeof(*f->names), compare_names);
}

bool dir_names_may_exist(struct dir_names *d, const char *path)
{
	if (path[0] != '/')
		return true;
	char folder[PATH_MAX] = "/", name[NAME_MAX + 1];
	size_t folder_len = 1;
	for (const char *p = path + 1; *p;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		if (len == 0 || len > NAME_MAX || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return true;
		struct dir_names_folder *f = folder_get(d, folder);
		if (!f || f->unlisted)
			return true;
		memcpy(name, p, len);
		name[len] = '\0';
		if (f->missing || !folder_has(f, name))
			return false;
		if (!slash)
			return true;
		if (folder_len + 1 + len >= sizeof(folder))
			return true;
		if (folder_len > 1)
			folder[folder_len++] = '/';
		memcpy(folder + folder_len, name, len + 1);
		folder_len += len;
		p = slash + 1;
	}
	return true;
}
