/* SPDX-License-Identifier: MIT */
/*
 * broker/config/ini-source.c: what reaches the handler from inih r55 through our
 * reader -- physical line numbers, CRLF, a byte order mark, inline comments,
 * continuation lines -- and what is refused instead of mangled.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/ini-source.h"

/* Everything the callbacks saw, one event per line of text. */
static char seen[8192];

static void on_section(void *user, const char *name, unsigned line)
{
	(void)user;
	size_t n = strlen(seen);
	snprintf(seen + n, sizeof(seen) - n, "%u [%s]\n", line, name ? name : "(bad)");
}

static void on_entry(void *user, const char *section, const char *key, const char *value,
                     unsigned line, bool continuation)
{
	(void)user;
	size_t n = strlen(seen);
	snprintf(seen + n, sizeof(seen) - n, "%u %s.%s%s'%s'\n", line, section, key,
	         continuation ? "+=" : "=", value);
}

static void on_error(void *user, unsigned line, const char *message)
{
	(void)user;
	size_t n = strlen(seen);
	snprintf(seen + n, sizeof(seen) - n, "%u error: %s\n", line, message);
}

static const struct ini_source_ops ops = { on_section, on_entry, on_error };

static const char *parse(const char *text, size_t len)
{
	seen[0] = '\0';
	cr_assert_eq(ini_source_parse(text, len, &ops, NULL), 0);
	return seen;
}

Test(ini_source, reports_physical_line_numbers_crlf_and_bom)
{
	const char t[] = "\xEF\xBB\xBF; comment\r\n[a]\r\n\r\nk = v\r\n# other\nk2: v2\n";
	cr_assert_str_eq(parse(t, sizeof(t) - 1), "2 [a]\n4 a.k='v'\n6 a.k2='v2'\n");
}

Test(ini_source, strips_inline_comments_after_whitespace_only)
{
	const char t[] = "[a]\nk = x ; comment\nk2 = x;y\n";
	cr_assert_str_eq(parse(t, sizeof(t) - 1), "1 [a]\n2 a.k='x'\n3 a.k2='x;y'\n");
}

Test(ini_source, marks_continuation_lines)
{
	const char t[] = "[a]\nk = one\n  two\n\n\tthree\nj = four\n";
	cr_assert_str_eq(parse(t, sizeof(t) - 1),
	                 "1 [a]\n2 a.k='one'\n3 a.k+='two'\n5 a.k+='three'\n6 a.j='four'\n");
}

Test(ini_source, refuses_long_lines_nul_bytes_and_long_names_keeping_count)
{
	char t[1024];
	int n = snprintf(t, sizeof(t), "[a]\nk = ");
	memset(t + n, 'x', 300);
	n += 300;
	n += snprintf(t + n, sizeof(t) - (size_t)n, "\nafter = 1\n[%0*d]\nz = 2\n", 50, 0);
	const char *got = parse(t, (size_t)n);
	cr_assert(strstr(got, "2 error: line is longer than 197 bytes"), "%s", got);
	cr_assert(strstr(got, "3 a.after='1'\n"), "the count goes on after a long line: %s", got);
	cr_assert(strstr(got, "4 error: section name longer than 49 bytes\n4 [(bad)]\n"), "%s",
	          got);

	const char nul[] = "[a]\nk = a\0b\nj = 2\n";
	got = parse(nul, sizeof(nul) - 1);
	cr_assert_str_eq(got, "1 [a]\n2 error: NUL byte in line\n3 a.j='2'\n");

	char key[200];
	snprintf(key, sizeof(key), "[a]\n%050d = 1\n", 0);
	got = parse(key, strlen(key));
	cr_assert_str_eq(got, "1 [a]\n2 error: key name longer than 49 bytes\n");
}

Test(ini_source, refuses_lines_without_equals_and_unclosed_sections)
{
	const char t[] = "[a\nk = 1\n[b]\njust words\n= empty key\n";
	cr_assert_str_eq(parse(t, sizeof(t) - 1),
	                 "1 error: section header without ']'\n1 [(bad)]\n2 .k='1'\n3 [b]\n"
	                 "4 error: expected 'key = value'\n5 error: empty key name\n");
}

Test(ini_source, refuses_a_file_past_the_cap)
{
	static char big[INI_SOURCE_MAX_FILE + 2];
	memset(big, '\n', sizeof(big));
	cr_assert_eq(ini_source_parse(big, sizeof(big), &ops, NULL), -EFBIG);
}

/* ini_source_read_fd() of an anonymous temporary file of size bytes. */
static int read_fd_of_size(size_t size, size_t *ret_len)
{
	static char block[64 * 1024];
	memset(block, '\n', sizeof(block));
	FILE *f = tmpfile();
	cr_assert_not_null(f);
	int fd = fileno(f);
	for (size_t done = 0; done < size;) {
		size_t n = size - done < sizeof(block) ? size - done : sizeof(block);
		cr_assert_eq(write(fd, block, n), (ssize_t)n);
		done += n;
	}
	cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
	char *text = NULL;
	*ret_len = 0;
	int r = ini_source_read_fd(fd, &text, ret_len);
	fclose(f);
	if (r == 0) {
		cr_assert_eq(text[*ret_len], '\0');
		free(text);
	}
	return r;
}

Test(ini_source, reads_a_file_up_to_the_cap_and_refuses_one_byte_more)
{
	size_t len = 0;
	cr_assert_eq(read_fd_of_size(0, &len), 0);
	cr_assert_eq(len, 0);
	cr_assert_eq(read_fd_of_size(4096, &len), 0);
	cr_assert_eq(len, 4096);
	cr_assert_eq(read_fd_of_size(INI_SOURCE_MAX_FILE, &len), 0);
	cr_assert_eq(len, INI_SOURCE_MAX_FILE);
	cr_assert_eq(read_fd_of_size(INI_SOURCE_MAX_FILE + 1, &len), -EFBIG);
	cr_assert_eq(read_fd_of_size(4 * INI_SOURCE_MAX_FILE, &len), -EFBIG);
}
