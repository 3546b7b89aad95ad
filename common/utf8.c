/* SPDX-License-Identifier: MIT */
/*
 * UTF-8 validation and repair, per RFC 3629 (the table of well-formed byte
 * sequences in Unicode 15, section 3.9).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

size_t utf8_sequence_length(const unsigned char *s, size_t len)
{
	if (len == 0)
		return 0;
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	size_t need;
	unsigned char lo = 0x80, hi = 0xBF; /* bounds of the second byte */
	if (c >= 0xC2 && c <= 0xDF) {
		need = 2;
	} else if (c >= 0xE0 && c <= 0xEF) {
		need = 3;
		if (c == 0xE0)
			lo = 0xA0; /* no overlongs */
		else if (c == 0xED)
			hi = 0x9F; /* no surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		need = 4;
		if (c == 0xF0)
			lo = 0x90; /* no overlongs */
		else if (c == 0xF4)
			hi = 0x8F; /* nothing above U+10FFFF */
	} else {
		return 0;
	}
	if (len < need)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < need; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return need;
}

bool utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < len) {
		size_t n = utf8_sequence_length(p + i, len - i);
		if (n == 0)
			return false;
		i += n;
	}
	return true;
}

size_t utf8_incomplete_tail(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	/* Look back at most three bytes for a lead byte whose sequence is cut. */
	for (size_t back = 1; back <= 3 && back <= len; back++) {
		unsigned char c = p[len - back];
		if (c >= 0x80 && c <= 0xBF)
			continue; /* a continuation byte: keep looking for the lead */
		size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 1;
		if (need > back) {
			/* A prefix of a sequence: only if what is there is well-formed so far. */
			unsigned char probe[4] = { 0 };
			memcpy(probe, p + len - back, back);
			for (size_t i = back; i < need; i++)
				probe[i] = 0x80;
			if (c == 0xE0 && back == 1)
				probe[1] = 0xA0;
			if (c == 0xF0 && back == 1)
				probe[1] = 0x90;
			return utf8_sequence_length(probe, need) ? back : 0;
		}
		return 0;
	}
	return 0;
}

char *utf8_sanitize(const char *s, size_t len, size_t *ret_len)
{
	static const char replacement[] = "\xEF\xBF\xBD";
	/* Worst case: every byte becomes three. */
	if (len > (SIZE_MAX - 1) / 3)
		return NULL;
	char *out = malloc(len * 3 + 1);
	if (!out)
		return NULL;
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0;
	while (i < len) {
		size_t n = p[i] == 0 ? 0 : utf8_sequence_length(p + i, len - i);
		if (n == 0) {
			memcpy(out + o, replacement, 3);
			o += 3;
			i++;
		} else {
			memcpy(out + o, p + i, n);
			o += n;
			i += n;
		}
	}
	out[o] = '\0';
	if (ret_len)
		*ret_len = o;
	return out;
}
