/* SPDX-License-Identifier: MIT */
/*
 * What a chmod mode does to a file's permissions, read as chmod(1) reads
 * it: for the owner, the group and others, the bits (r, w, x) each class
 * has for sure afterwards and the ones it lacks for sure. `go-w` takes w
 * from the group and others and leaves everything else as it was; `644`
 * gives each class exactly its digit (the owner lacks x); `u=rw` takes x
 * from the owner; `+X` gives x only to directories and what some class
 * may already run, so it is not counted as given. A rule then asks what
 * harms: a class that can no longer read, enter or run the file, a
 * secret that others can read. Static inline, as plugin-util.h is.
 * Whether the mode gives the set-user-ID or set-group-ID bit (`u+s`,
 * `+s`, `g+s`, `4755`, `2755`) is kept too: a program with it runs as its
 * owner or group, whoever starts it.
 * Not for: the sticky bit; the umask (a clause with no who,
 * `-x`, `+r`, is read as `a`: the umask can only spare bits of the group
 * and others, so a rule reads a little more into it, never less);
 * --reference (another file's mode: not known here).
 * Also: whether a mode only takes permissions from the group and others
 * (mode_only_tightens()), and the chmod mode a setfacl entry list amounts
 * to (acl_spec_mode()).
 */
#ifndef SLUICE_FILE_MODES_H
#define SLUICE_FILE_MODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MODE_R = 4, MODE_W = 2, MODE_X = 1, MODE_RWX = 7 };
enum mode_class { MODE_OWNER, MODE_GROUP, MODE_OTHERS, N_MODE_CLASSES };

struct mode_effect {
	unsigned has[N_MODE_CLASSES];   /* bits the class has afterwards, for sure */
	unsigned lacks[N_MODE_CLASSES]; /* bits the class lacks afterwards, for sure */
	bool setid;                     /* the set-user-ID or set-group-ID bit given */
};

/* An octal mode ("644", "0700", "4755"): each class gets its digit. */
static inline bool mode_read_octal(const char *mode, struct mode_effect *ret)
{
	size_t n = strspn(mode, "01234567");
	if (n == 0 || n > 5 || mode[n] != '\0')
		return false;
	unsigned long bits = strtoul(mode, NULL, 8);
	for (int c = 0; c < N_MODE_CLASSES; c++) {
		ret->has[c] = (unsigned)(bits >> (3 * (2 - c))) & MODE_RWX;
		ret->lacks[c] = MODE_RWX & ~ret->has[c];
	}
	ret->setid = (bits >> 9) & 06; /* 4000 set-user-ID, 2000 set-group-ID */
	return true;
}

/* Apply one operator (`+`, `-`, `=`) with bits (certain: what it surely
 * gives or takes; maybe: what it may give, X) to the classes in who. */
static inline void mode_apply(struct mode_effect *e, const bool who[N_MODE_CLASSES], char op,
                              unsigned certain, unsigned maybe, bool copied)
{
	for (int c = 0; c < N_MODE_CLASSES; c++) {
		if (!who[c])
			continue;
		if (copied) { /* u=g, o+u: another class's bits, not known here */
			if (op != '-')
				e->lacks[c] = 0;
			if (op != '+')
				e->has[c] = 0;
		} else if (op == '+') {
			e->has[c] |= certain;
			e->lacks[c] &= ~(certain | maybe);
		} else if (op == '-') {
			e->lacks[c] |= certain | maybe;
			e->has[c] &= ~(certain | maybe);
		} else {
			e->has[c] = certain;
			e->lacks[c] = MODE_RWX & ~(certain | maybe);
		}
	}
}

/* A symbolic mode: clauses [ugoa]*([-+=]([rwxXst]*|[ugo]))+ joined by
 * commas, as chmod(1) gives them. */
static inline bool mode_read_symbolic(const char *mode, struct mode_effect *ret)
{
	for (const char *c = mode;;) {
		bool who[N_MODE_CLASSES] = { false, false, false };
		bool any = false;
		for (; *c && strchr("ugoa", *c); c++) {
			any = true;
			who[MODE_OWNER] |= *c == 'u' || *c == 'a';
			who[MODE_GROUP] |= *c == 'g' || *c == 'a';
			who[MODE_OTHERS] |= *c == 'o' || *c == 'a';
		}
		if (!any)
			who[MODE_OWNER] = who[MODE_GROUP] = who[MODE_OTHERS] = true;
		if (!*c || !strchr("+-=", *c))
			return false;
		while (*c && strchr("+-=", *c)) {
			char op = *c++;
			unsigned certain = 0, maybe = 0;
			bool copied = *c && strchr("ugo", *c);
			if (copied)
				c++;
			/* s for the owner or the group, given (+ or =) */
			bool s_given = op != '-' && (who[MODE_OWNER] || who[MODE_GROUP]);
			for (; *c && strchr("rwxXst", *c); c++) {
				ret->setid |= *c == 's' && s_given;
				certain |= *c == 'r'   ? MODE_R
				           : *c == 'w' ? MODE_W
				           : *c == 'x' ? MODE_X
				                       : 0;
				maybe |= *c == 'X' ? MODE_X : 0;
			}
			mode_apply(ret, who, op, certain, maybe, copied);
		}
		if (*c == '\0')
			return true;
		if (*c++ != ',')
			return false;
	}
}

/* Read mode (an octal or a symbolic chmod mode) into *ret. False when it
 * is neither: a rule then has nothing to judge, as chmod refuses it. */
static inline bool mode_effect_read(const char *mode, struct mode_effect *ret)
{
	*ret = (struct mode_effect){ { 0, 0, 0 }, { 0, 0, 0 }, false };
	if (mode[0] >= '0' && mode[0] <= '7')
		return mode_read_octal(mode, ret);
	return mode[0] != '\0' && mode_read_symbolic(mode, ret);
}

/* Does chmod's mode only take permissions away from the group and others,
 * leaving the owner's as they are (go-rwx, g-w,o-rwx, go=, 700)? That is
 * what ssh and gpg ask of their folders; anything else (777, 000, 600: a
 * folder the owner cannot enter, u-r) makes them refuse or lose the keys. */
static inline bool mode_only_tightens(const char *mode)
{
	if (strcmp(mode, "700") == 0 || strcmp(mode, "0700") == 0)
		return true;
	for (const char *c = mode; *c;) {
		size_t who = strspn(c, "go");
		if (who == 0)
			return false;
		c += who;
		if (*c == '-')
			c += 1 + strspn(c + 1, "rwxXst");
		else if (*c == '=')
			c++;
		else
			return false;
		if (*c == ',')
			c++;
		else if (*c)
			return false;
	}
	return mode[0] != '\0';
}

/* setfacl's ACL entries (acl_spec: `u:alice:rw,o::r`, `o:rw`, `g::6`) as
 * the chmod mode that gives the same (into buf): the owner's, the owning
 * group's and others' entries set their class (`o:rw` is `o=rw`); a named
 * user's or group's entry gives someone else what it lists, read as
 * others given it (`u:alice:rw` is `o+rw`, which may be more than the
 * mask lets through: never less); the mask and default entries
 * (`m::`, `d:`) change no file's own access and are skipped. False when
 * an entry is not one of these (then nothing is judged, as for a mode
 * chmod refuses). */
static inline bool acl_spec_mode(const char *spec, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	while (*spec) {
		size_t n = strcspn(spec, ",");
		char entry[128];
		if (n >= sizeof(entry))
			return false;
		memcpy(entry, spec, n);
		entry[n] = '\0';
		spec += n + (spec[n] == ',');
		char *tag = entry, *qualifier = strchr(entry, ':');
		if (!qualifier)
			return false;
		*qualifier++ = '\0';
		if (strcmp(tag, "d") == 0 || strcmp(tag, "default") == 0 || strcmp(tag, "m") == 0 ||
		    strcmp(tag, "mask") == 0)
			continue;
		char *perms = strrchr(qualifier, ':');
		bool named = perms && perms != qualifier;
		perms = perms ? perms + 1 : qualifier; /* o:rw has no qualifier */
		char who;
		if (strcmp(tag, "u") == 0 || strcmp(tag, "user") == 0)
			who = named ? 'o' : 'u';
		else if (strcmp(tag, "g") == 0 || strcmp(tag, "group") == 0)
			who = named ? 'o' : 'g';
		else if (strcmp(tag, "o") == 0 || strcmp(tag, "other") == 0)
			who = 'o';
		else
			return false;
		char bits[8] = "";
		size_t b = 0;
		if (perms[0] >= '0' && perms[0] <= '7' && !perms[1]) {
			int d = perms[0] - '0';
			if (d & 4)
				bits[b++] = 'r';
			if (d & 2)
				bits[b++] = 'w';
			if (d & 1)
				bits[b++] = 'x';
		} else {
			for (const char *c = perms; *c; c++) {
				if (!strchr("rwxX-", *c) || b + 1 >= sizeof(bits))
					return false;
				if (*c != '-')
					bits[b++] = *c;
			}
		}
		bits[b] = '\0';
		int w = snprintf(buf + len, size - len, "%s%c%c%s", len ? "," : "", who,
		                 named ? '+' : '=', bits);
		if (w < 0 || (size_t)w >= size - len)
			return false;
		len += (size_t)w;
	}
	return len > 0;
}

#endif
