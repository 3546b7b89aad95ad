/* SPDX-License-Identifier: MIT */
/*
 * What git restores later, before the run (git-later-refs.h): the state of
 * the repository's index and refs read from the files as git writes them,
 * without running git: a few stat(2)s, HEAD, the branch's loose ref or its
 * line of packed-refs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "run/git-index.h"
#include "run/git-later.h"
#include "run/git-later-refs.h"

/* packed-refs read at most before the run, to find the branch's commit
 * without running git (larger: git rev-parse finds it). */
#define LATER_PACKED_REFS_MAX (4 * 1024 * 1024)

static const char *const later_files[GIT_LATER_FILES] = { "index", "HEAD", "packed-refs", NULL };

/* --- the files' state ------------------------------------------------- */

static void take_stat(int dir, const char *name, struct git_later_stat *st)
{
	struct stat s;
	*st = (struct git_later_stat){ 0 };
	if (!name) {
		st->error = -ENOENT;
		return;
	}
	if (fstatat(dir, name, &s, AT_SYMLINK_NOFOLLOW) < 0) {
		st->error = neg_errno();
		return;
	}
	st->dev = s.st_dev;
	st->ino = s.st_ino;
	st->size = s.st_size;
	st->mtim = s.st_mtim;
	st->ctim = s.st_ctim;
}

bool git_later_same_file(int e1, const struct stat *a, int e2, const struct stat *b)
{
	if (e1 || e2)
		return e1 == e2;
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

int git_later_write_file(int dir, const char *name, const char *text, size_t len)
{
	_cleanup_free_ char *lock = NULL;
	if (asprintf(&lock, "%s.lock", name) < 0)
		return -ENOMEM;
	_cleanup_close_ int fd =
	        openat(dir, lock, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	int r = fd < 0 ? neg_errno() : write_full(fd, text, len);
	if (r == 0 && renameat(dir, lock, dir, name) < 0)
		r = neg_errno();
	if (r < 0 && fd >= 0)
		(void)unlinkat(dir, lock, 0);
	return r;
}

bool git_later_listed(char **l, const char *s)
{
	for (size_t i = 0; l && l[i]; i++)
		if (strcmp(l[i], s) == 0)
			return true;
	return false;
}

bool git_later_same_stat(const struct git_later_stat *a, const struct git_later_stat *b)
{
	return a->error == b->error && a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtim.tv_sec == b->mtim.tv_sec && a->mtim.tv_nsec == b->mtim.tv_nsec &&
	       a->ctim.tv_sec == b->ctim.tv_sec && a->ctim.tv_nsec == b->ctim.tv_nsec;
}

bool git_later_is_hex(const char *s, size_t n)
{
	return strspn(s, "0123456789abcdef") == n && s[n] == '\0';
}

/* A ref name as git writes one in HEAD: under refs/, nothing that climbs
 * or that a report could not show. */
static bool plain_ref(const char *ref)
{
	if (strncmp(ref, "refs/", 5) != 0 || strstr(ref, "..") || strstr(ref, "//"))
		return false;
	for (const char *c = ref; *c; c++)
		if ((unsigned char)*c <= 0x20 || *c == 0x7f || *c == '\\')
			return false;
	return true;
}

int git_later_read_small(int fd, size_t max, struct stat *st, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	if (fstat(fd, st) < 0)
		return neg_errno();
	if (!S_ISREG(st->st_mode))
		return -EINVAL;
	if ((uintmax_t)st->st_size > max)
		return -E2BIG;
	_cleanup_free_ char *t = malloc((size_t)st->st_size + 1);
	if (!t)
		return -ENOMEM;
	size_t got = 0;
	while (got < (size_t)st->st_size) {
		ssize_t n = pread(fd, t + got, (size_t)st->st_size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return neg_errno();
		if (n == 0)
			break;
		got += (size_t)n;
	}
	t[got] = '\0';
	*len = got;
	*text = TAKE_PTR(t);
	return 0;
}

void git_later_nul_to_newline(char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\0')
			text[i] = '\n';
}

/* The branch's commit from packed-refs in the common directory: "" when
 * it is not there, -E2BIG when the file is too large to read here. */
static int packed_ref(int common_fd, const char *ref, size_t hex_len, char id[65])
{
	_cleanup_close_ int fd =
	        openat(common_fd, "packed-refs", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	_cleanup_free_ char *text = NULL;
	size_t len;
	id[0] = '\0';
	if (fd < 0)
		return errno == ENOENT ? 0 : neg_errno();
	int r = git_later_read_small(fd, LATER_PACKED_REFS_MAX, &st, &text, &len);
	if (r < 0)
		return r;
	size_t rl = strlen(ref);
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strlen(line) == hex_len + 1 + rl && line[hex_len] == ' ' &&
		    strcmp(line + hex_len + 1, ref) == 0) {
			memcpy(id, line, hex_len);
			id[hex_len] = '\0';
			return git_later_is_hex(id, hex_len) ? 0 : -EINVAL;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* The object names' length, taken from an id as git wrote it (40 or 64
 * hex digits) the first time one is read, else from the config: most
 * runs then read no config file. Whether text is such an id. */
static bool take_id(struct git_later *g, int cfd, const char *text, char id[65])
{
	if (g->hex_len == 0 && (git_later_is_hex(text, 40) || git_later_is_hex(text, 64)))
		g->hex_len = strlen(text);
	if (g->hex_len == 0)
		g->hex_len = git_index_hash_length(cfd) * 2;
	if (!git_later_is_hex(text, g->hex_len))
		return false;
	memcpy(id, text, g->hex_len + 1);
	return true;
}

/* The commit of the branch h->ref, in the common directory cfd: a loose
 * ref, else packed-refs; h->ok false where it is neither as git writes
 * it, h->id "" for a branch that does not exist (unborn). */
static void read_ref(struct git_later *g, int cfd, struct git_later_head *h)
{
	char id[320];
	h->ok = false;
	h->id[0] = '\0';
	int r = read_first_line_at(cfd, h->ref, false, id, sizeof(id));
	if (r == 0) {
		h->ok = take_id(g, cfd, id, h->id);
		return;
	}
	if (r != -ENOENT)
		return;
	if (g->hex_len == 0)
		g->hex_len = git_index_hash_length(cfd) * 2;
	h->ok = packed_ref(cfd, h->ref, g->hex_len, h->id) == 0;
}

/* What HEAD names now, read as git writes it (a loose ref, or
 * packed-refs) in the gitdir gfd and the common directory cfd; h->ok
 * false when it is anything else (a symbolic ref to a symbolic ref,
 * reftable, packed-refs too large). */
int git_later_read_head(struct git_later *g, int gfd, int cfd, struct git_later_head *h)
{
	*h = (struct git_later_head){ .ok = false };
	char line[320];
	int r = read_first_line_at(gfd, "HEAD", false, line, sizeof(line));
	if (r < 0)
		return r;
	if (strncmp(line, "ref: ", 5) != 0) {
		h->ok = take_id(g, cfd, line, h->id);
		return 0;
	}
	if (!plain_ref(line + 5) || strlen(line + 5) >= sizeof(h->ref))
		return 0;
	strcpy(h->ref, line + 5);
	read_ref(g, cfd, h);
	return 0;
}

/* The gitdir and the common directory, opened to read in (-errno). */
int git_later_open_dirs(const struct git_later *g, int *gfd, int *cfd)
{
	*gfd = open(g->gitdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	*cfd = *gfd < 0 ? -1 : open(g->common, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return *cfd < 0 ? neg_errno() : 0;
}

void git_later_take_stats(int gfd, int cfd, struct git_later_stat st[GIT_LATER_FILES],
                          const char *ref)
{
	for (int i = 0; i < GIT_LATER_FILES; i++) {
		const char *name =
		        i == GIT_LATER_BRANCH ? (ref && ref[0] ? ref : NULL) : later_files[i];
		take_stat(i == GIT_LATER_INDEX || i == GIT_LATER_HEAD ? gfd : cfd, name, &st[i]);
	}
}

/* The pre-run branch's commit now (HEAD's, where HEAD was detached). */
void git_later_read_branch_now(struct git_later *g, const struct git_later_head *head_now,
                               struct git_later_head *h)
{
	if (!g->head.ref[0]) {
		*h = *head_now;
		return;
	}
	*h = (struct git_later_head){ .ok = false };
	snprintf(h->ref, sizeof(h->ref), "%s", g->head.ref);
	_cleanup_close_ int gfd = -1, cfd = -1;
	if (git_later_open_dirs(g, &gfd, &cfd) == 0)
		read_ref(g, cfd, h);
}

/* git_later_read_head() from the paths. */
void git_later_read_head_now(struct git_later *g, struct git_later_head *h)
{
	_cleanup_close_ int gfd = -1, cfd = -1;
	*h = (struct git_later_head){ .ok = false };
	if (git_later_open_dirs(g, &gfd, &cfd) == 0)
		(void)git_later_read_head(g, gfd, cfd, h);
}
