/* SPDX-License-Identifier: MIT */
/*
 * A claim is made once and never rewritten: it is written to a file of
 * its own and linked into place, so that a reader sees all of it or
 * nothing, and of two runs that make it at once one wins and the other
 * reads the winner's. Claims stay when their thing goes (a tidied cache,
 * a holder that left): a root keeps its names, and a later collider never
 * gets a name whose thing another root's run may still be making.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "run/workspace-key.h"

#ifdef SLUICE_TEST_HOOKS
uint64_t (*workspace_key_hash_hook)(uint64_t h, const char *root);
#endif

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* FNV-1a of root's bytes, carried on from h. */
static uint64_t hash_root(uint64_t h, const char *root)
{
#ifdef SLUICE_TEST_HOOKS
	if (workspace_key_hash_hook)
		return workspace_key_hash_hook(h, root);
#endif
	for (const char *s = root; *s; s++)
		h = (h ^ (unsigned char)*s) * FNV_PRIME;
	return h;
}

uint64_t workspace_key(const char *root, unsigned probe)
{
	uint64_t h = hash_root(FNV_OFFSET, root);
	if (probe == 0)
		return h;
	/* a NUL, which no root holds, the probe's number, and the root once
	 * more: roots made to share their first name (FNV-1a is no defence
	 * against that) do not therefore share the later ones too */
	h *= FNV_PRIME;
	for (unsigned p = probe; p; p >>= 8)
		h = (h ^ (p & 0xff)) * FNV_PRIME;
	return hash_root(h, root);
}

int workspace_key_paths(const char *dir, const char *prefix, const char *suffix, const char *root,
                        unsigned probe, char **ret_path, char **ret_claim)
{
	unsigned long long key = workspace_key(root, probe);
	_cleanup_free_ char *path = NULL;
	if (asprintf(&path, "%s/%s%016llx%s", dir, prefix, key, suffix) < 0) {
		path = NULL;
		return -ENOMEM;
	}
	if (asprintf(ret_claim, "%s/%s%016llx" WORKSPACE_CLAIM_SUFFIX, dir, prefix, key) < 0) {
		*ret_claim = NULL;
		return -ENOMEM;
	}
	*ret_path = TAKE_PTR(path);
	return 0;
}

/* The claim's text: the root and a newline. */
static int claim_text(const char *root, char **ret)
{
	return asprintf(ret, "%s\n", root) < 0 ? -ENOMEM : 0;
}

/* Read the claim at path into buf (NUL-terminated; a claim longer than a
 * root can be is cut, and so never matches). -errno. */
static int read_claim(const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	struct stat st;
	if (fstat(fd, &st) < 0)
		return neg_errno();
	if (!S_ISREG(st.st_mode))
		return -EBADF;
	size_t n = 0;
	while (n < size - 1) {
		ssize_t r = read(fd, buf + n, size - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return neg_errno();
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	return 0;
}

/* Write text to a new file beside path and link it to path: -EEXIST when
 * a claim got there first. */
static int make_claim(const char *path, const char *text)
{
	_cleanup_free_ char *tmp = NULL;
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return -ENOMEM;
	_cleanup_close_ int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	size_t len = strlen(text);
	int r = write(fd, text, len) == (ssize_t)len ? 0 : -EIO;
	/* on disk before it has its name: a claim cut short by a crash would
	 * name no root, and its name would be lost to every root for good */
	if (r >= 0 && fsync(fd) < 0)
		r = neg_errno();
	if (r >= 0 && link(tmp, path) < 0)
		r = neg_errno();
	(void)unlink(tmp);
	return r;
}

int workspace_claim(const char *claim_path, const char *root, struct sluice_error *reterr)
{
	_cleanup_free_ char *text = NULL;
	if (claim_text(root, &text) < 0)
		return sluice_error_set(reterr, -ENOMEM, "the workspace's claim");
	char found[PATH_MAX + 2];
	int r = read_claim(claim_path, found, sizeof(found));
	if (r == -ENOENT) {
		r = make_claim(claim_path, text);
		if (r >= 0)
			return 0;
		/* another run's claim got there first: whose is it? */
		if (r == -EEXIST)
			r = read_claim(claim_path, found, sizeof(found));
	}
	if (r < 0)
		return sluice_error_set(reterr, r, "the claim '%s'", claim_path);
	if (strcmp(found, text) == 0)
		return 0;
	found[strcspn(found, "\n")] = '\0';
	return sluice_error_set(reterr, -EEXIST, "'%s' is the workspace '%s''s, not '%s''s",
	                        claim_path, found, root);
}
