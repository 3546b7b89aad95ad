/* SPDX-License-Identifier: MIT */
/*
 * Where in a JSON text a byte is: the path of object keys around it
 * ("params.arguments.command"), read from the raw bytes, so that a document
 * the JSON parser refused (a byte that is not UTF-8) can still be reported
 * by the field it is in.
 * Not for: parsing JSON (jansson does that).
 */
#ifndef SLUICE_JSON_LOCATE_H
#define SLUICE_JSON_LOCATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Write to path (size bytes, NUL-terminated, cut if longer) the keys of the
 * objects that hold byte pos of text[0..len), outermost first, joined by
 * '.'; array elements add nothing. Returns true when pos is inside a value
 * under at least one key; false when it is in no field's value (at the top
 * level, or inside a key: then *in_key is true and path names the object
 * that holds that key, "" at the top level).
 */
bool json_locate_field(const char *text, size_t len, size_t pos, char *path, size_t size,
                       bool *in_key);

/* For jansson's "unable to decode byte" error over text: what is wrong, by
 * the field the byte is in ("field 'command' is not valid UTF-8", "a field
 * name is not valid UTF-8") into what. False for any other error, and for a
 * byte in no field. */
bool json_utf8_error_text(const char *text, size_t len, const json_error_t *jerr, char *what,
                          size_t size);

#endif
