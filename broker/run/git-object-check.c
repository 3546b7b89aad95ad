/* SPDX-License-Identifier: MIT */
/*
 * A loose object file checked against its name (git-object-check.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "cleanup.h"
#include "errors.h"
#include "run/git-object-check.h"

#define CHUNK 65536
/* "commit 18446744073709551615" and its NUL, with room to spare */
#define HEADER_MAX 32

struct object_reader {
	bool sha256;
	struct sha1_ctx sha1;
	struct sha256_ctx sha256_ctx;
	char header[HEADER_MAX];
	size_t header_len;
	bool header_done;
	uint64_t body; /* bytes after the header's NUL */
};

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* hex (2 * n digits, lower case as git names its files) into out. */
static bool parse_id(const char *hex, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

static void take(struct object_reader *r, const uint8_t *data, size_t len)
{
	if (r->sha256)
		sha256_update(&r->sha256_ctx, len, data);
	else
		sha1_update(&r->sha1, len, data);
	size_t i = 0;
	while (!r->header_done && i < len) {
		char c = (char)data[i++];
		if (c == '\0')
			r->header_done = true;
		else if (r->header_len < HEADER_MAX - 1)
			r->header[r->header_len++] = c;
		else
			r->header_len = HEADER_MAX; /* too long: no header of git's */
	}
	r->body += len - i;
}

/* The header as git writes it, and the size it says matching the body. */
static bool header_matches(const struct object_reader *r)
{
	if (!r->header_done || r->header_len >= HEADER_MAX - 1)
		return false;
	static const char *const types[] = { "blob ", "tree ", "commit ", "tag " };
	const char *h = r->header, *end = r->header + r->header_len, *size = NULL;
	for (size_t i = 0; i < ELEMENTSOF(types) && !size; i++) {
		size_t n = strlen(types[i]);
		if ((size_t)(end - h) > n && memcmp(h, types[i], n) == 0)
			size = h + n;
	}
	if (!size || (*size == '0' && size + 1 != end))
		return false;
	uint64_t v = 0;
	for (const char *p = size; p < end; p++) {
		if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	return v == r->body;
}

/* After the stream's end: 1 when the file ends there too, 0 when more
 * follows (git refuses "garbage at end of loose object"), -errno. */
static int ends_here(int fd, const z_stream *z)
{
	if (z->avail_in > 0)
		return 0;
	char more;
	ssize_t n;
	while ((n = read(fd, &more, 1)) < 0 && errno == EINTR)
		;
	return n < 0 ? neg_errno() : n == 0 ? 1 : 0;
}

/* Inflate fd's stream into r: 1 when it is one whole zlib stream that
 * ends with the file, 0 when not, -errno. */
static int inflate_file(int fd, struct object_reader *r)
{
	static uint8_t in[CHUNK], out[CHUNK]; /* one check at a time: the broker's thread */
	z_stream z = { .zalloc = Z_NULL };
	if (inflateInit(&z) != Z_OK)
		return -ENOMEM;
	int result = 0;
	for (bool end = false; !end;) {
		ssize_t got = read(fd, in, sizeof(in));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) { /* a failure, or the file ended before the stream */
			result = got < 0 ? neg_errno() : 0;
			break;
		}
		z.next_in = in;
		z.avail_in = (uInt)got;
		do { /* until this read is used up and no output is pending */
			z.next_out = out;
			z.avail_out = sizeof(out);
			int zr = inflate(&z, Z_NO_FLUSH);
			size_t made = sizeof(out) - z.avail_out;
			if (zr == Z_STREAM_END) {
				take(r, out, made);
				result = ends_here(fd, &z);
				end = true;
			} else if (zr != Z_OK && !(zr == Z_BUF_ERROR && made == 0)) {
				end = true; /* not a zlib stream */
			} else {
				take(r, out, made);
				if (made == 0)
					break; /* needs more input */
			}
		} while (!end && (z.avail_in > 0 || z.avail_out == 0));
	}
	inflateEnd(&z);
	return result;
}

int git_loose_object_check(int dir, const char *name, const char *hex)
{
	size_t hex_len = strlen(hex);
	uint8_t want[SHA256_DIGEST_SIZE], got[SHA256_DIGEST_SIZE];
	if ((hex_len != 2 * SHA1_DIGEST_SIZE && hex_len != 2 * SHA256_DIGEST_SIZE) ||
	    !parse_id(hex, want, hex_len / 2))
		return -EINVAL;
	_cleanup_close_ int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	struct stat st;
	if (fstat(fd, &st) < 0)
		return neg_errno();
	if (!S_ISREG(st.st_mode))
		return 0;
	struct object_reader r = { .sha256 = hex_len == 2 * SHA256_DIGEST_SIZE };
	if (r.sha256)
		sha256_init(&r.sha256_ctx);
	else
		sha1_init(&r.sha1);
	int ended = inflate_file(fd, &r);
	if (ended <= 0)
		return ended;
	if (!header_matches(&r))
		return 0;
	if (r.sha256)
		sha256_digest(&r.sha256_ctx, SHA256_DIGEST_SIZE, got);
	else
		sha1_digest(&r.sha1, SHA1_DIGEST_SIZE, got);
	return memcmp(want, got, hex_len / 2) == 0 ? 1 : 0;
}
