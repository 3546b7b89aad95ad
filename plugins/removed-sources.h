/* SPDX-License-Identifier: MIT */
/*
 * Tools that remove what they were given once they have copied or
 * archived it, for destroyers.c: `rsync --remove-source-files SRC...
 * DEST`, `zip -m ZIP FILE...` (-m, --move, in any cluster: -rm), `7z a
 * ARCHIVE FILE... -sdel`. Their sources are gone as surely as by `rm -r`
 * (`zip -rm /tmp/home.zip ~` empties the home), so the plugin judges them
 * as a tree removed. Static inline, as plugin-util.h is.
 * Not for: what they write (the archive, rsync's destination).
 */
#ifndef SLUICE_REMOVED_SOURCES_H
#define SLUICE_REMOVED_SOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"

#define MAX_OPERANDS 64

/* The operands of sc: words after the name that are no option (up to
 * "--") and no option's value; with_value lists the options whose value is
 * the next word. Fills idx (at most cap) and returns how many. */
static inline size_t operands(const struct sluice_simple_command *sc, const char *const *with_value,
                              size_t *idx, size_t cap)
{
	size_t n = 0;
	bool dashdash = false;
	for (size_t i = 1; i < sluice_argc(sc) && n < cap; i++) {
		const char *a = sluice_arg(sc, i);
		if (!dashdash && strcmp(a, "--") == 0) {
			dashdash = true;
			continue;
		}
		if (!dashdash && a[0] == '-' && a[1]) {
			if (with_value && str_in(a, with_value))
				i++;
			continue;
		}
		idx[n++] = i;
	}
	return n;
}

/* Does option word a of zip move its files into the archive (-m,
 * --move, a cluster with m: -rm, -mr)? */
static inline bool zip_moves(const char *a)
{
	if (strcmp(a, "--move") == 0)
		return true;
	return a[0] == '-' && a[1] != '-' && strchr(a + 1, 'm') && !strchr(a + 1, '@');
}

/* The operands of sc that it removes once it has copied or archived them
 * (idx, at most cap), and what it is doing, for the message; 0 when sc
 * is none of these tools or removes nothing. */
static inline size_t removed_sources(const struct sluice_simple_command *sc, size_t *idx,
                                     size_t cap, const char **ret_doing)
{
	static const char *const rsync_values[] = { "-e", "-f", "-T", "-B", "-M", NULL };
	static const char *const sevenzips[] = { "7z", "7za", "7zz", "7zr", NULL };
	const char *name = sluice_name(sc);
	bool rsync = strcmp(name, "rsync") == 0, zip = strcmp(name, "zip") == 0;
	bool sevenzip =
	        str_in(name, sevenzips) && sluice_argc(sc) > 1 &&
	        (strcmp(sluice_arg(sc, 1), "a") == 0 || strcmp(sluice_arg(sc, 1), "u") == 0);
	bool removes = false;
	for (size_t i = 1; i < sluice_argc(sc) && (rsync || zip || sevenzip); i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "--") == 0)
			break;
		removes |= (rsync && long_option_spells(a, "remove-source-files", 10)) ||
		           (zip && zip_moves(a)) || (sevenzip && strcmp(a, "-sdel") == 0);
	}
	if (!removes)
		return 0;
	size_t n = operands(sc, rsync ? rsync_values : NULL, idx, cap);
	if (rsync) {
		*ret_doing = "rsync --remove-source-files of";
		size_t kept = 0;
		for (size_t k = 0; k + 1 < n; k++) {
			const char *src = sluice_arg(sc, idx[k]);
			const char *colon = strchr(src, ':');
			if (!colon || (strchr(src, '/') && strchr(src, '/') < colon))
				idx[kept++] = idx[k]; /* not HOST:PATH, another machine's */
		}
		return kept;
	}
	/* zip ZIP FILE..., 7z a ARCHIVE FILE...: the first is written, the
	 * rest removed */
	size_t skip = sevenzip ? 2 : 1;
	*ret_doing = zip ? "zip -m of" : "7z -sdel of";
	if (n <= skip)
		return 0;
	memmove(idx, idx + skip, (n - skip) * sizeof(*idx));
	return n - skip;
}

#endif
