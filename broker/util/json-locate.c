/* SPDX-License-Identifier: MIT */
/*
 * A forgiving scan of JSON text: strings (with their escapes), objects and
 * arrays, and which key each object is at. Anything else is skipped, so a
 * text the parser refused is read as far as its structure goes.
 * Not for: validating or decoding JSON.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "util/json-locate.h"

#define LOCATE_MAX_DEPTH 16
#define LOCATE_MAX_KEY 64

struct level {
	bool object;              /* an object (else an array) */
	bool expect_key;          /* in an object: the next string is a key */
	char key[LOCATE_MAX_KEY]; /* in an object: the key of the current value */
};

/* The keys of levels[0..depth) that name a value, joined by '.' (levels
 * deeper than LOCATE_MAX_DEPTH were not kept). */
static void join_keys(const struct level *levels, size_t depth, char *path, size_t size)
{
	size_t o = 0;
	path[0] = '\0';
	if (depth > LOCATE_MAX_DEPTH)
		depth = LOCATE_MAX_DEPTH;
	for (size_t i = 0; i < depth; i++) {
		if (!levels[i].object || levels[i].expect_key)
			continue;
		int n = snprintf(path + o, size - o, "%s%s", o ? "." : "", levels[i].key);
		if (n < 0 || (size_t)n >= size - o)
			return; /* cut */
		o += (size_t)n;
	}
}

bool json_locate_field(const char *text, size_t len, size_t pos, char *path, size_t size,
                       bool *in_key)
{
	struct level levels[LOCATE_MAX_DEPTH];
	size_t depth = 0;
	*in_key = false;
	if (size == 0)
		return false;
	path[0] = '\0';
	for (size_t i = 0; i < len && i <= pos; i++) {
		char c = text[i];
		struct level *top =
		        depth > 0 && depth <= LOCATE_MAX_DEPTH ? &levels[depth - 1] : NULL;
		if (c == '"') {
			size_t start = i + 1, end = start;
			while (end < len && text[end] != '"')
				end += text[end] == '\\' ? 2 : 1;
			bool is_key = top && top->object && top->expect_key;
			if (pos >= i && pos <= end) {
				join_keys(levels, depth, path, size);
				*in_key = is_key;
				return !is_key && path[0] != '\0';
			}
			if (is_key) {
				size_t n = (end < len ? end : len) - start;
				snprintf(top->key, sizeof(top->key), "%.*s", (int)n, text + start);
				top->expect_key = false;
			}
			i = end;
		} else if (c == '{' || c == '[') {
			if (depth < LOCATE_MAX_DEPTH)
				levels[depth] = (struct level){ .object = c == '{',
					                        .expect_key = c == '{' };
			depth++;
		} else if (c == '}' || c == ']') {
			if (depth > 0)
				depth--;
		} else if (c == ',' && top && top->object) {
			top->expect_key = true;
		}
	}
	join_keys(levels, depth, path, size);
	return path[0] != '\0';
}

bool json_utf8_error_text(const char *text, size_t len, const json_error_t *jerr, char *what,
                          size_t size)
{
	if (strncmp(jerr->text, "unable to decode byte", 21) != 0 || jerr->position < 0)
		return false;
	/* jansson's position is the offset of the byte it could not decode */
	char field[128];
	bool in_key = false;
	if (json_locate_field(text, len, (size_t)jerr->position, field, sizeof(field), &in_key))
		snprintf(what, size, "field '%s' is not valid UTF-8", field);
	else if (in_key)
		snprintf(what, size, "a field name is not valid UTF-8");
	else
		return false;
	return true;
}
