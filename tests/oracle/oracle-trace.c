/* SPDX-License-Identifier: MIT */
/*
 * Reading the oracle's two records of what ran (see oracle-trace.h): bash's
 * xtrace, quoted as bash quotes it (words joined by one space, each raw, in
 * '...' with '\'' for a quote, or in $'...' with C escapes), and the stubs'
 * NUL-separated argv records.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "oracle/oracle-trace.h"
#include "parse-number.h"
#include "strv.h"
#include "util/strbuf.h"

static int records_add(struct oracle_records *out, char **argv, enum oracle_source source)
{
	if (out->n == out->alloc) {
		size_t want = out->alloc ? out->alloc * 2 : 16;
		struct oracle_record *v = reallocarray(out->v, want, sizeof(*v));
		if (!v) {
			strv_free(argv);
			return -ENOMEM;
		}
		out->v = v;
		out->alloc = want;
	}
	out->v[out->n++] = (struct oracle_record){ .argv = argv, .source = source };
	return 0;
}

void oracle_records_done(struct oracle_records *r)
{
	for (size_t i = 0; i < r->n; i++)
		strv_free(r->v[i].argv);
	free(r->v);
	*r = (struct oracle_records){ 0 };
}

static void put_utf8(struct strbuf *sb, unsigned long cp)
{
	char b[4];
	size_t n = 0;
	if (cp < 0x80) {
		b[n++] = (char)cp;
	} else if (cp < 0x800) {
		b[n++] = (char)(0xc0 | (cp >> 6));
		b[n++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		b[n++] = (char)(0xe0 | (cp >> 12));
		b[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[n++] = (char)(0x80 | (cp & 0x3f));
	} else {
		b[n++] = (char)(0xf0 | ((cp >> 18) & 0x07));
		b[n++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[n++] = (char)(0x80 | (cp & 0x3f));
	}
	(void)strbuf_append(sb, b, n);
}

/* The escapes of $'...' (bash's ansic_quote writes \a \b \e \f \n \r \t \v
 * \\ \' and octal; the rest is read for completeness). *i is on the byte
 * after the backslash; it is left on the last byte read. */
static void ansi_escape(struct strbuf *sb, const char *s, size_t n, size_t *i)
{
	static const char from[] = "abeEfnrtv\\'\"?", to[] = "\a\b\033\033\f\n\r\t\v\\'\"?";
	char c = s[*i];
	const char *hit = c ? strchr(from, c) : NULL;
	if (hit) {
		(void)strbuf_append_char(sb, to[hit - from]);
		return;
	}
	unsigned long v = 0;
	size_t k = *i, max;
	int base;
	if (c >= '0' && c <= '7') {
		base = 8;
		max = 3;
	} else if (c == 'x') {
		base = 16;
		max = 2;
		k++;
	} else if (c == 'u' || c == 'U') {
		base = 16;
		max = c == 'u' ? 4 : 8;
		k++;
	} else if (c == 'c' && *i + 1 < n) {
		(void)strbuf_append_char(sb, (char)(s[++*i] & 0x1f));
		return;
	} else {
		(void)strbuf_append_char(sb, '\\');
		(void)strbuf_append_char(sb, c);
		return;
	}
	size_t start = k;
	for (; k < n && k - start < max; k++) {
		int d = hex_digit_value(s[k]);
		if (d < 0 || d >= base)
			break;
		v = v * (unsigned long)base + (unsigned long)d;
	}
	*i = k - 1;
	if (c == 'u' || c == 'U')
		put_utf8(sb, v);
	else
		(void)strbuf_append_char(sb, (char)v);
}

int oracle_trace_words(const char *s, size_t n, char ***ret)
{
	_cleanup_strv_free_ char **words = NULL;
	struct strbuf sb = strbuf_init(1024 * 1024);
	bool in_word = false;
	int r = 0;
	for (size_t i = 0; i < n && r >= 0; i++) {
		char c = s[i];
		if (c == ' ' || c == '\n') {
			if (in_word) {
				char *w = strbuf_take(&sb);
				r = w ? strv_consume(&words, w) : -ENOMEM;
				sb = strbuf_init(1024 * 1024);
			}
			in_word = false;
			continue;
		}
		in_word = true;
		if (c == '\'') {
			const char *close = memchr(s + i + 1, '\'', n - i - 1);
			if (!close) {
				r = -EINVAL;
				break;
			}
			(void)strbuf_append(&sb, s + i + 1, (size_t)(close - (s + i + 1)));
			i = (size_t)(close - s);
		} else if (c == '$' && i + 1 < n && s[i + 1] == '\'') {
			for (i += 2; i < n && s[i] != '\''; i++) {
				if (s[i] == '\\' && i + 1 < n) {
					i++;
					ansi_escape(&sb, s, n, &i);
				} else {
					(void)strbuf_append_char(&sb, s[i]);
				}
			}
			if (i >= n)
				r = -EINVAL;
		} else if (c == '\\' && i + 1 < n) {
			(void)strbuf_append_char(&sb, s[++i]);
		} else {
			(void)strbuf_append_char(&sb, c);
		}
	}
	if (r >= 0 && in_word) {
		char *w = strbuf_take(&sb);
		r = w ? strv_consume(&words, w) : -ENOMEM;
	} else {
		strbuf_done(&sb);
	}
	if (r < 0)
		return r;
	*ret = TAKE_PTR(words);
	return 0;
}

/* Where the record that starts at text[i] (a line's first byte) has its
 * words, after the PS4 marker; 0 when no record starts there. */
static size_t record_body(const char *text, size_t len, size_t i)
{
	size_t k = i;
	while (k < len && text[k] == '+')
		k++;
	if (k == i || k + 1 >= len || text[k] != ORACLE_PS4_MARK || text[k + 1] != ' ')
		return 0;
	return k + 2;
}

int oracle_records_read_trace(const char *text, size_t len, struct oracle_records *out)
{
	size_t body = record_body(text, len, 0);
	while (body) {
		/* the record runs to the next line that starts one */
		size_t end = body, next = 0;
		for (; end < len; end++) {
			if (text[end] == '\n' && end + 1 < len &&
			    (next = record_body(text, len, end + 1)) != 0)
				break;
		}
		size_t stop = end;
		while (stop > body && text[stop - 1] == '\n')
			stop--;
		char **argv = NULL;
		int r = oracle_trace_words(text + body, stop - body, &argv);
		if (r == -ENOMEM)
			return r;
		if (r < 0 || !argv)
			out->unparsed++;
		else if ((r = records_add(out, argv, ORACLE_FROM_TRACE)) < 0)
			return r;
		body = end < len ? next : 0;
	}
	return 0;
}

int oracle_records_read_exec(const char *data, size_t len, struct oracle_records *out)
{
	size_t i = 0;
	while (i < len) {
		const char *count_end = memchr(data + i, '\0', len - i);
		if (!count_end)
			break;
		long count = strtol(data + i, NULL, 10);
		i = (size_t)(count_end - data) + 1;
		if (count <= 0 || count > 100000)
			break;
		_cleanup_strv_free_ char **argv = NULL;
		long k = 0;
		for (; k < count && i < len; k++) {
			const char *end = memchr(data + i, '\0', len - i);
			if (!end)
				break;
			if (strv_extend(&argv, data + i) < 0)
				return -ENOMEM;
			i = (size_t)(end - data) + 1;
		}
		if (k < count)
			break; /* cut short */
		int r = records_add(out, TAKE_PTR(argv), ORACLE_FROM_EXEC);
		if (r < 0)
			return r;
	}
	return 0;
}

int oracle_records_read_git(const char *text, size_t len, struct oracle_records *out)
{
	static const char expansion[] = "trace: alias expansion: ",
	                  builtin[] = "trace: built-in: git";
	bool after_alias = false;
	for (size_t i = 0; i < len;) {
		const char *line = text + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t n = nl ? (size_t)(nl - line) : len - i;
		i += n + 1;
		const char *hit;
		if (memmem(line, n, expansion, sizeof(expansion) - 1)) {
			after_alias = true;
		} else if (after_alias && (hit = memmem(line, n, builtin, sizeof(builtin) - 1))) {
			after_alias = false;
			size_t at = (size_t)(hit - line) + sizeof(builtin) - 1;
			char **words = NULL;
			int r = oracle_trace_words(line + at, n - at, &words);
			if (r == -ENOMEM)
				return r;
			if (r < 0)
				continue;
			char **argv = NULL;
			if (strv_extend(&argv, "git") < 0) {
				strv_free(words);
				return -ENOMEM;
			}
			STRV_FOREACH (w, words)
				if (strv_extend(&argv, *w) < 0) {
					strv_free(words);
					strv_free(argv);
					return -ENOMEM;
				}
			strv_free(words);
			r = records_add(out, argv, ORACLE_FROM_GIT);
			if (r < 0)
				return r;
		}
	}
	return 0;
}
