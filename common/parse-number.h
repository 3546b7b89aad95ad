/* SPDX-License-Identifier: MIT */
/*
 * Bounded parsing of the numbers users write: plain integers, sizes
 * ("128KiB", "1M", "4096"), durations ("500ms", "30s", "15m", "1h") and
 * hexadecimal digits.
 * Every function rejects empty text, signs, trailing garbage and overflow.
 * Returns 0 on success, -EINVAL for malformed text, -ERANGE past the maximum.
 */
#ifndef SLUICE_PARSE_NUMBER_H
#define SLUICE_PARSE_NUMBER_H

#include <stdint.h>

/* Decimal digits only; the value must be <= max. */
int parse_uint64(const char *text, uint64_t max, uint64_t *ret);

/* The decimal digits text starts with (at least one), at most max; *end
 * points past them: for numbers inside a longer text. -EINVAL, -ERANGE. */
int parse_uint64_prefix(const char *text, uint64_t max, uint64_t *ret, const char **end);

/* Bytes: a number with an optional unit K, KB, KiB, M, MB, MiB, G, GB, GiB,
 * T, TB, TiB (all powers of 1024) or B; the result must be <= max. */
int parse_size(const char *text, uint64_t max, uint64_t *ret);

/* Milliseconds: a number with a unit ms, s, m or h (a bare number means
 * seconds, as timeout(1) reads it); the result must be <= max_ms. */
int parse_duration_ms(const char *text, uint64_t max_ms, uint64_t *ret);

/* The value of one hexadecimal digit (0-9, a-f, A-F), or -1. */
int hex_digit_value(char c);

/* Write a duration in the largest unit that divides it exactly ("15m",
 * "30s", "1500ms") into buf; returns buf. */
char *format_duration_ms(uint64_t ms, char *buf, unsigned size);

/* Write a size in the largest unit that divides it exactly ("128KiB",
 * "64MiB"), or in bytes ("1500 bytes") when none does, into buf; returns
 * buf. */
char *format_size(uint64_t bytes, char *buf, unsigned size);

#endif
