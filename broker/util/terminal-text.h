/* SPDX-License-Identifier: MIT */
/*
 * Text shown to a person on a terminal, made inert first: a command, a
 * description or a plugin's message is someone else's text, and a terminal
 * obeys the control sequences in what it prints.
 * Not for: JSON or logs (they escape in their own ways).
 */
#ifndef SLUICE_TERMINAL_TEXT_H
#define SLUICE_TERMINAL_TEXT_H

#include <stdio.h>

/*
 * Write text to f with the C0 controls (newline, tab and carriage return as
 * \n, \t and \r, the others as \xNN), DEL, the C1 controls (U+0080 to
 * U+009F), every byte that is not part of well-formed UTF-8, and the marks
 * that reorder bidirectional text (U+061C, U+200E, U+200F, U+202A to
 * U+202E, U+2066 to U+2069) written out as \xNN or \uNNNN: printed, it
 * cannot move the cursor, erase what was shown, or make one command read as
 * another. Nothing is allocated; f's error flag says whether it was written.
 */
void terminal_safe_write(FILE *f, const char *text);

/* The same for len bytes of lines (a command's output shown on the user's
 * terminal), whose newlines and tabs are written as they are. */
void terminal_safe_write_lines(FILE *f, const char *text, size_t len);

#endif
