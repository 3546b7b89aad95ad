/* SPDX-License-Identifier: MIT */
/*
 * UTF-8 checks for text that crosses into JSON: validation of requests, and
 * repair of command output (invalid bytes become U+FFFD; a character cut at
 * a buffer's end is reported, never split).
 * Not for: normalisation or width; bytes are judged, not rendered.
 */
#ifndef SLUICE_UTF8_H
#define SLUICE_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Whether s[0..len) is well-formed UTF-8 (no overlongs, no surrogates,
 * nothing above U+10FFFF). */
bool utf8_valid(const char *s, size_t len);

/* The length of the well-formed sequence at s[0..len), or 0 if the bytes
 * there do not start one (also 0 when len is 0). */
size_t utf8_sequence_length(const unsigned char *s, size_t len);

/* How many bytes at the end of s[0..len) form the start of a multi-byte
 * character that could be completed by more input (0 to 3). */
size_t utf8_incomplete_tail(const char *s, size_t len);

/*
 * A newly allocated, NUL-terminated copy of s[0..len) with every byte that is
 * not part of a well-formed sequence replaced by U+FFFD, and NUL bytes
 * replaced too (JSON strings and C strings both survive). Returns NULL on
 * allocation failure; *ret_len, if given, receives the length.
 */
char *utf8_sanitize(const char *s, size_t len, size_t *ret_len);

#endif
