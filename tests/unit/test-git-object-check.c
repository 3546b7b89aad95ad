/* SPDX-License-Identifier: MIT */
/*
 * git_loose_object_check() (broker/run/git-object-check.c): a loose object
 * file holds the object its name says, as git writes one, or not. The
 * files are made here with zlib as git makes them; the ids are git's own
 * for "hello\n" (git hash-object, in a SHA-1 and a SHA-256 repository).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "run/git-object-check.h"
#include "scratch.h"

#define HELLO_SHA1 "ce013625030ba8dba906f756967f9e9ca394464a"
#define HELLO_SHA256 "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4"

static char dir[256];
static int dfd = -1;

static void setup(void)
{
	scratch_make(dir, sizeof(dir), "sluice-object-check");
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert(dfd >= 0);
}

static void teardown(void)
{
	close(dfd);
	scratch_remove(dir);
}

TestSuite(git_object_check, .init = setup, .fini = teardown);

/* name written with data (len bytes) deflated, then extra (extra_len
 * bytes) raw after the stream; cut: only the first cut bytes kept. */
static void write_object(const char *name, const void *data, size_t len, const char *extra,
                         size_t extra_len, size_t cut)
{
	unsigned char out[4096];
	uLongf out_len = sizeof(out);
	cr_assert_eq(compress(out, &out_len, data, len), Z_OK);
	if (cut && cut < out_len)
		out_len = cut;
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, out, out_len), (ssize_t)out_len);
	if (extra_len)
		cr_assert_eq(write(fd, extra, extra_len), (ssize_t)extra_len);
	close(fd);
}

static const char hello[] = "blob 6\0hello\n";
#define HELLO_LEN (sizeof(hello) - 1)

Test(git_object_check, the_object_its_name_says)
{
	write_object("f", hello, HELLO_LEN, NULL, 0, 0);
	cr_expect_eq(git_loose_object_check(dfd, "f", HELLO_SHA1), 1);
	cr_expect_eq(git_loose_object_check(dfd, "f", HELLO_SHA256), 1);
}

Test(git_object_check, other_content)
{
	static const char other[] = "blob 6\0evil!\n";
	write_object("f", other, sizeof(other) - 1, NULL, 0, 0);
	cr_expect_eq(git_loose_object_check(dfd, "f", HELLO_SHA1), 0);
	cr_expect_eq(git_loose_object_check(dfd, "f", HELLO_SHA256), 0);
}

Test(git_object_check, not_as_git_writes_one)
{
	/* the size in the header not the body's */
	static const char size[] = "blob 7\0hello\n";
	write_object("size", size, sizeof(size) - 1, NULL, 0, 0);
	cr_expect_eq(git_loose_object_check(dfd, "size", HELLO_SHA1), 0);
	/* no type of git's */
	static const char type[] = "blub 6\0hello\n";
	write_object("type", type, sizeof(type) - 1, NULL, 0, 0);
	cr_expect_eq(git_loose_object_check(dfd, "type", HELLO_SHA1), 0);
	/* bytes after the stream (git: "garbage at end of loose object") */
	write_object("after", hello, HELLO_LEN, "x", 1, 0);
	cr_expect_eq(git_loose_object_check(dfd, "after", HELLO_SHA1), 0);
	/* the stream cut short */
	write_object("cut", hello, HELLO_LEN, NULL, 0, 8);
	cr_expect_eq(git_loose_object_check(dfd, "cut", HELLO_SHA1), 0);
	/* no zlib stream at all */
	int fd = openat(dfd, "plain", O_WRONLY | O_CREAT | O_CLOEXEC, 0444);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, hello, HELLO_LEN), (ssize_t)HELLO_LEN);
	close(fd);
	cr_expect_eq(git_loose_object_check(dfd, "plain", HELLO_SHA1), 0);
	/* not a regular file */
	cr_assert_eq(mkdirat(dfd, "folder", 0700), 0);
	cr_expect_eq(git_loose_object_check(dfd, "folder", HELLO_SHA1), 0);
}

Test(git_object_check, what_cannot_be_checked)
{
	write_object("f", hello, HELLO_LEN, NULL, 0, 0);
	cr_expect_eq(git_loose_object_check(dfd, "f", "ce01"), -EINVAL);
	cr_expect_eq(git_loose_object_check(dfd, "f", "Ce013625030ba8dba906f756967f9e9ca394464a"),
	             -EINVAL);
	cr_expect_eq(git_loose_object_check(dfd, "missing", HELLO_SHA1), -ENOENT);
	cr_assert_eq(symlinkat("f", dfd, "link"), 0);
	cr_expect_eq(git_loose_object_check(dfd, "link", HELLO_SHA1), -ELOOP);
}

Test(git_object_check, a_large_object_in_many_reads)
{
	/* 1 MiB of content: the stream spans many reads and outputs */
	size_t body = 1 << 20;
	char *data = malloc(body + 32);
	cr_assert_not_null(data);
	int h = snprintf(data, 32, "blob %zu", body) + 1;
	for (size_t i = 0; i < body; i++)
		data[h + (int)i] = (char)('a' + i % 26);
	uLongf out_len = compressBound(body + (uLong)h);
	unsigned char *out = malloc(out_len);
	cr_assert_not_null(out);
	cr_assert_eq(compress(out, &out_len, (unsigned char *)data, body + (uLong)h), Z_OK);
	int fd = openat(dfd, "big", O_WRONLY | O_CREAT | O_CLOEXEC, 0444);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, out, out_len), (ssize_t)out_len);
	close(fd);
	/* its id as git computes it (SHA-1 of the header and body, by
	 * Python's hashlib) */
	cr_expect_eq(git_loose_object_check(dfd, "big", "6c63e09dd350b9b87c3aac5685072371e36522fe"),
	             1);
	free(out);
	free(data);
}
