/* SPDX-License-Identifier: MIT */
/*
 * The INI reader: inih's ini_parse_stream() fed by our own line reader, which
 * counts physical lines and refuses what inih r55 would silently mangle (lines
 * past its buffer, NUL bytes, section and key names of 50 bytes or more).
 * Not for: meaning; config-parse.c decides what sections and keys are valid.
 */
#ifndef SLUICE_INI_SOURCE_H
#define SLUICE_INI_SOURCE_H

#include <stdbool.h>

/* The largest INI file read (bytes); a larger one is an error. */
#define INI_SOURCE_MAX_FILE (1024 * 1024)
/* inih r55 truncates section (and multiline key) names at 50 bytes. */
#define INI_SOURCE_MAX_NAME 49

struct ini_source_ops {
	/* A "[name]" line; name is borrowed for the call. name is NULL after a
	 * section header that could not be read (already reported through
	 * on_error): the entries that follow belong to no valid section. */
	void (*on_section)(void *user, const char *name, unsigned line);
	/* "key = value", or (continuation true) an indented line that continues
	 * the previous key. Strings are borrowed for the call only. */
	void (*on_entry)(void *user, const char *section, const char *key, const char *value,
	                 unsigned line, bool continuation);
	/* A line that cannot be read; message has no file or line prefix. */
	void (*on_error)(void *user, unsigned line, const char *message);
};

/*
 * Read an INI document from text (len bytes, need not be NUL-terminated) and
 * report every section, entry and error through ops, in file order. Every
 * line is reported at most once; reading goes on after an error so that all
 * errors of a file are reported together.
 * Returns 0 when the text was read (errors are reported through on_error,
 * not the return value), -EFBIG when it is longer than INI_SOURCE_MAX_FILE,
 * -ENOMEM.
 */
int ini_source_parse(const char *text, size_t len, const struct ini_source_ops *ops, void *user);

/* Read all of fd (at most INI_SOURCE_MAX_FILE bytes) into a new
 * NUL-terminated buffer (*ret, owned by the caller) of *ret_len bytes.
 * Returns 0, -EFBIG, or -errno from read(2). */
int ini_source_read_fd(int fd, char **ret, size_t *ret_len);

#endif
