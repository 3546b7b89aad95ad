/* SPDX-License-Identifier: MIT */
/*
 * Terminal-safe text (see terminal-text.h): one pass over the bytes; UTF-8
 * sequences are judged by common/utf8.c, then decoded here only to be
 * compared with the code points that must not reach the terminal.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "terminal-text.h"
#include "utf8.h"

/* The code point of the well-formed sequence s[0..n). */
static uint32_t decode(const unsigned char *s, size_t n)
{
	if (n == 2)
		return (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
	if (n == 3)
		return (uint32_t)(s[0] & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
	return (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3f) << 12 |
	       (uint32_t)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
}

static bool reorders_or_controls(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

char *terminal_safe_text(const char *text)
{
	size_t len = strlen(text);
	/* the longest escape per input byte: \xNN, four bytes for one */
	char *out = malloc(4 * len + 1);
	if (!out)
		return NULL;
	const unsigned char *s = (const unsigned char *)text;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		unsigned char b = s[i];
		if (b == '\n' || b == '\t' || b == '\r') {
			out[o++] = '\\';
			out[o++] = b == '\n' ? 'n' : b == '\t' ? 't' : 'r';
			i++;
		} else if (b < 0x20 || b == 0x7f) {
			o += (size_t)sprintf(out + o, "\\x%02x", b);
			i++;
		} else if (b < 0x80) {
			out[o++] = (char)b;
			i++;
		} else {
			size_t n = utf8_sequence_length(s + i, len - i);
			if (n == 0) {
				o += (size_t)sprintf(out + o, "\\x%02x", b);
				i++;
			} else if (reorders_or_controls(decode(s + i, n))) {
				/* n >= 2 bytes become 6: within four per byte */
				o += (size_t)sprintf(out + o, "\\u%04x",
				                     (unsigned)decode(s + i, n));
				i += n;
			} else {
				memcpy(out + o, s + i, n);
				o += n;
				i += n;
			}
		}
	}
	out[o] = '\0';
	return out;
}
