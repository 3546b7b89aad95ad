/* SPDX-License-Identifier: MIT */
/*
 * The capabilities sluice holds, as `sluice doctor` reports them, asked of
 * libcap-ng. The library is loaded (dlopen) only when asked: linked in,
 * its constructor would read /proc and ask the kernel at every start of
 * sluice, about 80 us before anything else could happen.
 * Not for: dropping capabilities (the launcher does that, directly).
 */
#ifndef SLUICE_CAPABILITIES_H
#define SLUICE_CAPABILITIES_H

#include <stddef.h>

/*
 * The capabilities this process holds, as one line for a person:
 * "none", "all (...)", or the names of those held (...). Returns 0 with
 * the text in buf, or -errno with why it is unknown in buf (libcap-ng not
 * installed, or the kernel did not say).
 */
int capabilities_describe(char *buf, size_t len);

#endif
