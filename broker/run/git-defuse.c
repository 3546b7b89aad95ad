/* SPDX-License-Identifier: MIT */
/*
 * Git texts that run programs, disabled line by line (git-defuse.h). The
 * config reader follows git's syntax as far as a line's meaning goes:
 * "[section]", "[section \"sub\"]" and the old "[section.sub]" headers, a
 * key on the header's own line, quoted values, comments (# and ;) and a
 * backslash at the end of a line continuing the value (before a CRLF too:
 * git reads CRLF as a newline), a byte order mark at the start skipped,
 * and blanks as git's isspace() has them (not \f or \v). A line it cannot
 * read is left alone: git refuses that file too.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "run/git-defuse.h"

enum sub_rule {
	SUB_NONE, /* section.key */
	SUB_SOME, /* section.<sub>.key */
	SUB_ANY,  /* either */
};

/* The keys that make git run a program (or open a file of the command's
 * choosing: a FIFO there makes the user's git hang). key NULL: every key
 * of the section; bang: only a value starting with '!' (a shell command). */
struct rule {
	const char *section;
	enum sub_rule sub;
	const char *key;
	bool bang;
};
static const struct rule rules[] = {
	{ "core", SUB_NONE, "fsmonitor", false },  /* runs on every status */
	{ "core", SUB_NONE, "hookspath", false },  /* hooks from elsewhere */
	{ "core", SUB_NONE, "sshcommand", false }, /* fetch, push */
	{ "core", SUB_NONE, "pager", false },      /* log, diff, ... */
	{ "core", SUB_NONE, "editor", false },     /* commit, rebase -i */
	{ "core", SUB_NONE, "askpass", false },    /* credentials */
	{ "core", SUB_NONE, "gitproxy", false },   /* git:// fetch */
	{ "core", SUB_NONE, "alternaterefscommand", false },
	{ "core", SUB_NONE, "worktree", false },       /* checkout writes there */
	{ "core", SUB_NONE, "excludesfile", false },   /* read on status */
	{ "core", SUB_NONE, "attributesfile", false }, /* read on status */
	{ "sequence", SUB_NONE, "editor", false },     /* rebase -i */
	{ "alias", SUB_ANY, NULL, true },              /* "!cmd" */
	{ "pager", SUB_NONE, NULL, false },            /* pager.<cmd> = program */
	{ "filter", SUB_SOME, "clean", false },        /* add, status */
	{ "filter", SUB_SOME, "smudge", false },       /* checkout */
	{ "filter", SUB_SOME, "process", false },      /* both */
	{ "diff", SUB_NONE, "external", false },       /* diff */
	{ "diff", SUB_SOME, "textconv", false },       /* diff, log -p, blame */
	{ "diff", SUB_SOME, "command", false },        /* diff */
	{ "merge", SUB_SOME, "driver", false },        /* merge, rebase, pull */
	{ "mergetool", SUB_SOME, "cmd", false },
	{ "mergetool", SUB_SOME, "path", false },
	{ "difftool", SUB_SOME, "cmd", false },
	{ "difftool", SUB_SOME, "path", false },
	{ "credential", SUB_ANY, "helper", false }, /* fetch, push */
	{ "gpg", SUB_ANY, "program", false },       /* commit -S, log --show-signature */
	{ "include", SUB_NONE, "path", false },     /* more config from elsewhere */
	{ "includeif", SUB_SOME, "path", false },
	{ "remote", SUB_SOME, "uploadpack", false },  /* fetch over a local path */
	{ "remote", SUB_SOME, "receivepack", false }, /* push */
	{ "remote", SUB_SOME, "vcs", false },         /* git-remote-<vcs> */
	{ "protocol", SUB_ANY, "allow", false },      /* ext:: runs a command */
	{ "submodule", SUB_SOME, "update", false },   /* "!cmd" on submodule update */
	{ "trailer", SUB_SOME, "command", false },
	{ "trailer", SUB_SOME, "cmd", false },
	{ "tar", SUB_SOME, "command", false }, /* archive */
	{ "browser", SUB_SOME, "cmd", false },
	{ "browser", SUB_SOME, "path", false },
	{ "web", SUB_NONE, "browser", false },
	{ "man", SUB_SOME, "cmd", false },
	{ "man", SUB_SOME, "path", false },
	{ "man", SUB_NONE, "viewer", false },
	{ "sendemail", SUB_ANY, "smtpserver", false }, /* may be a program */
	{ "sendemail", SUB_ANY, "tocmd", false },
	{ "sendemail", SUB_ANY, "cccmd", false },
	{ "sendemail", SUB_ANY, "headercmd", false },
	{ "interactive", SUB_NONE, "difffilter", false }, /* add -p */
	{ "uploadpack", SUB_NONE, "packobjectshook", false },
	{ "hook", SUB_ANY, NULL, false },          /* config-defined hooks */
	{ "commit", SUB_NONE, "template", false }, /* read on commit */
	{ "imap", SUB_NONE, "tunnel", false },
	{ "guitool", SUB_SOME, "cmd", false },
	{ "instaweb", SUB_NONE, NULL, false },
};

/* The keys that make the user's later fetch or push send the repository,
 * or the credentials it sends with it, somewhere the command chose, or
 * let someone in the middle read it, whatever the remotes are: disabled
 * when added. The keys that name a remote or where it is are judged
 * against the remotes the file had before (git_defuse_config_since()).
 * Left out, with why, in docs/running.md (The sweep). */
static const struct rule sends[] = {
	{ "url", SUB_SOME, "insteadof", false },     /* every fetch and push of a URL */
	{ "url", SUB_SOME, "pushinsteadof", false }, /* every push */
	{ "http", SUB_ANY, "proxy", false },         /* the traffic through the command's host */
	{ "http", SUB_ANY, "proxyauthmethod", false },
	{ "http", SUB_ANY, "proxysslcert", false },
	{ "http", SUB_ANY, "proxysslkey", false },
	{ "http", SUB_ANY, "proxysslcainfo", false },
	{ "http", SUB_ANY, "sslverify", false }, /* a man in the middle */
	{ "http", SUB_ANY, "sslcainfo", false },
	{ "http", SUB_ANY, "sslcapath", false },
	{ "http", SUB_ANY, "sslversion", false },
	{ "http", SUB_ANY, "sslcipherlist", false },
	{ "http", SUB_ANY, "sslcert", false }, /* a file of the command's choosing */
	{ "http", SUB_ANY, "sslkey", false },
	{ "http", SUB_ANY, "curloptresolve", false }, /* the host's name to its address */
	{ "http", SUB_ANY, "cookiefile", false },     /* read, and written: */
	{ "http", SUB_ANY, "savecookies", false },    /* a file outside */
	{ "http", SUB_ANY, "delegation", false },     /* the user's Kerberos ticket */
	{ "remote", SUB_SOME, "proxy", false },
	{ "remote", SUB_SOME, "proxyauthmethod", false },
};

/* A remote's keys that say where (or what) a push of it sends, and the
 * keys that choose the remote a plain `git push`/`fetch` uses. */
static const struct rule remote_where[] = {
	{ "remote", SUB_SOME, "url", false },
	{ "remote", SUB_SOME, "pushurl", false },
	{ "remote", SUB_SOME, "push", false },   /* refspecs: which refs go */
	{ "remote", SUB_SOME, "mirror", false }, /* every ref, deleted ones too */
};
static const struct rule remote_choice[] = {
	{ "branch", SUB_SOME, "remote", false },
	{ "branch", SUB_SOME, "pushremote", false },
	{ "remote", SUB_NONE, "pushdefault", false },
};

/* Whether value (after '=', may be quoted) starts with '!'. */
static bool starts_with_bang(const char *value)
{
	if (!value)
		return false;
	while (*value == ' ' || *value == '\t' || *value == '"')
		value++;
	return *value == '!';
}

static bool matches(const struct rule *table, size_t n, const char *section, bool has_sub,
                    const char *key, const char *value)
{
	for (size_t i = 0; i < n; i++) {
		if (strcasecmp(table[i].section, section) != 0)
			continue;
		if ((table[i].sub == SUB_NONE && has_sub) || (table[i].sub == SUB_SOME && !has_sub))
			continue;
		if (table[i].key && strcasecmp(table[i].key, key) != 0)
			continue;
		if (table[i].bang && !starts_with_bang(value))
			continue;
		return true;
	}
	return false;
}

bool git_defuse_key_runs(const char *section, bool has_sub, const char *key, const char *value)
{
	return matches(rules, ELEMENTSOF(rules), section, has_sub, key, value);
}

bool git_defuse_key_sends(const char *section, bool has_sub, const char *key)
{
	return matches(sends, ELEMENTSOF(sends), section, has_sub, key, NULL);
}

/* The rewritten text, grown as lines are copied. */
struct out {
	char *buf;
	size_t len, cap;
	bool oom;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->oom)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = (o->len + n + 1) * 2;
		char *b = realloc(o->buf, cap);
		if (!b) {
			o->oom = true;
			return;
		}
		o->buf = b;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

/* Hand back what was built: n disabled (0: nothing changed), or -ENOMEM. */
static int finish(struct out *o, int n, char **ret, size_t *ret_len)
{
	*ret = NULL;
	*ret_len = 0;
	if (o->oom) {
		free(o->buf);
		return -ENOMEM;
	}
	if (n == 0) {
		free(o->buf);
		return 0;
	}
	*ret = o->buf;
	*ret_len = o->len;
	return n;
}

/* A blank as git's config reader takes one (its isspace(): not \f or \v,
 * which it keeps in a value, and which a path may end with). */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && is_space(*p))
		p++;
	return p;
}

/* The section being read. */
struct section {
	char name[64];
	char sub[64]; /* git's name of it (unquoted; the old form in lower case), cut */
	bool has_sub;
	bool sub_cut; /* longer than sub holds: names no remote surely */
	bool valid;   /* a header was read (keys before any header are git's error) */
};

/* Read a header "[...]" at p (p[0] == '['); returns where it ends (after
 * ']'), or NULL when it is not one git accepts (the line is left alone). */
static const char *read_header(const char *p, const char *end, struct section *s)
{
	struct section n = { .valid = true };
	size_t len = 0;
	p++;
	while (p < end && (isalnum((unsigned char)*p) || *p == '-' || *p == '.')) {
		if (*p == '.' && !n.has_sub) {
			/* the old "[section.sub]": the rest, folded, is the subsection */
			n.has_sub = true;
			p++;
			size_t sl = 0;
			while (p < end && *p != ']' && sl + 1 < sizeof(n.sub))
				n.sub[sl++] = (char)tolower((unsigned char)*p++);
			n.sub[sl] = '\0';
			n.sub_cut = p < end && *p != ']';
			break;
		}
		if (len + 1 < sizeof(n.name))
			n.name[len++] = *p;
		p++;
	}
	n.name[len] = '\0';
	if (len == 0)
		return NULL;
	if (!n.has_sub && p < end && is_space(*p)) {
		p = skip_space(p, end);
		if (p >= end || *p != '"')
			return NULL;
		p++;
		size_t sl = 0;
		while (p < end && *p != '"') {
			if (*p == '\\' && p + 1 < end)
				p++;
			if (sl + 1 < sizeof(n.sub))
				n.sub[sl++] = *p;
			else
				n.sub_cut = true;
			p++;
		}
		if (p >= end)
			return NULL;
		p++;
		n.sub[sl] = '\0';
		n.has_sub = true;
	}
	while (p < end && *p != ']')
		p++;
	if (p >= end)
		return NULL;
	*s = n;
	return p + 1;
}

/* Scan a value from p to the line's end, quotes carried in *quoted:
 * whether it goes on to the next line (a backslash ends the line outside a
 * comment; before a CRLF too, which git reads as a newline). */
static bool value_continues(const char *p, const char *end, bool *quoted)
{
	for (const char *v = p; v < end; v++) {
		if (*v == '\\') {
			if (v + 1 >= end || (v[1] == '\r' && v + 2 >= end))
				return true;
			v++;
		} else if (*v == '"') {
			*quoted = !*quoted;
		} else if (!*quoted && (*v == '#' || *v == ';')) {
			return false;
		}
	}
	return false;
}

/* A key at p: its name into key (lower case, cut), its value's start in
 * *value (NULL: none), and whether its value goes on to the next line
 * (*quoted: in quotes there). */
static bool read_key(const char *p, const char *end, char key[64], const char **value, bool *cont,
                     bool *quoted)
{
	size_t len = 0;
	*value = NULL;
	*cont = false;
	*quoted = false;
	if (p >= end || !isalpha((unsigned char)*p))
		return false;
	while (p < end && (isalnum((unsigned char)*p) || *p == '-')) {
		if (len + 1 < 64)
			key[len++] = (char)tolower((unsigned char)*p);
		p++;
	}
	key[len] = '\0';
	p = skip_space(p, end);
	if (p >= end || *p == '#' || *p == ';')
		return true; /* a bare key: true */
	if (*p != '=')
		return false;
	*value = p + 1;
	*cont = value_continues(p + 1, end, quoted);
	return true;
}

static void report(git_defuse_fn fn, void *userdata, const struct section *s, const char *key)
{
	if (!fn)
		return;
	char what[64 * 3 + 3];
	if (s->has_sub)
		snprintf(what, sizeof(what), "%s.%s.%s", s->name, s->sub, key);
	else
		snprintf(what, sizeof(what), "%s.%s", s->name, key);
	fn(what, userdata);
}

/* Reads a config text one entry at a time: a line, or a key with the
 * lines its value goes on to. */
struct cursor {
	const char *p, *end;
	struct section s;
	const char *header; /* the current section's header as written */
	size_t header_len;
};

struct entry {
	const char *start, *end; /* its whole lines */
	const char *key_at;      /* where its key starts; NULL: a line without one */
	char key[64];
	const char *value;
	const char *header; /* the header of its section, as written */
	size_t header_len;
};

/* git skips a UTF-8 byte order mark at a config file's start. */
static const char utf8_bom[] = "\xef\xbb\xbf";

/* A cursor at text[0..len)'s first line, past a byte order mark. */
static struct cursor cursor_at(const char *text, size_t len)
{
	size_t bom = strlen(utf8_bom);
	struct cursor c = { .p = text, .end = text + len };
	if (len >= bom && memcmp(text, utf8_bom, bom) == 0)
		c.p += bom;
	return c;
}

static bool next_entry(struct cursor *c, struct entry *e)
{
	if (c->p >= c->end)
		return false;
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	const char *eol = nl ? nl : c->end;
	*e = (struct entry){ .start = c->p, .end = nl ? nl + 1 : c->end };
	const char *k = skip_space(c->p, eol);
	c->p = e->end;
	if (k < eol && *k == '[') {
		const char *after = read_header(k, eol, &c->s);
		if (!after)
			return true; /* left alone, the section unchanged */
		c->header = k;
		c->header_len = (size_t)(after - k);
		k = skip_space(after, eol);
	}
	bool cont, quoted;
	if (k >= eol || *k == '#' || *k == ';' || !c->s.valid ||
	    !read_key(k, eol, e->key, &e->value, &cont, &quoted))
		return true;
	e->key_at = k;
	e->header = c->header;
	e->header_len = c->header_len;
	/* the value goes on: lines of value text, never a key, whatever they
	 * look like */
	while (cont && c->p < c->end) {
		const char *line = c->p;
		nl = memchr(line, '\n', (size_t)(c->end - line));
		c->p = nl ? nl + 1 : c->end;
		cont = value_continues(line, nl ? nl : c->end, &quoted);
	}
	e->end = c->p;
	return true;
}

/* Entries looked up in the text before, at most: past them each is
 * disabled (a command could otherwise make the lookups quadratic). */
#define KEEP_LOOKUPS_MAX 1024

/* Whether text[0..len) holds e as written: the same key line and value
 * lines, under the same header as written. */
static bool entry_in(const char *text, size_t len, const struct entry *e)
{
	struct cursor c = cursor_at(text, len);
	struct entry k;
	size_t n = (size_t)(e->end - e->key_at);
	while (next_entry(&c, &k))
		if (k.key_at && k.header_len == e->header_len &&
		    memcmp(k.header, e->header, e->header_len) == 0 &&
		    (size_t)(k.end - k.key_at) == n && memcmp(k.key_at, e->key_at, n) == 0)
			return true;
	return false;
}

/* The value of entry e as git reads it (quotes removed, \" and \\
 * unescaped, a comment and trailing blanks cut) into buf; false when it
 * is none, goes on to another line, is longer than buf or holds another
 * escape: no remote is named so (the caller then disables it). */
static bool read_value(const struct entry *e, char *buf, size_t size)
{
	if (!e->value)
		return false;
	const char *nl = memchr(e->value, '\n', (size_t)(e->end - e->value));
	const char *eol = nl ? nl : e->end;
	if (nl && nl + 1 != e->end)
		return false; /* continued */
	size_t len = 0, kept = 0;
	bool quoted = false;
	for (const char *p = skip_space(e->value, eol); p < eol; p++) {
		char ch = *p;
		if (ch == '"') {
			quoted = !quoted;
			continue;
		}
		if (!quoted && (ch == '#' || ch == ';'))
			break;
		if (ch == '\\') {
			if (p + 1 >= eol || (p[1] != '"' && p[1] != '\\'))
				return false;
			ch = *++p;
		} else if (ch == '\r' && p + 1 == eol) {
			break;
		}
		if (len + 1 >= size)
			return false;
		buf[len++] = ch;
		if (quoted || !is_space(ch))
			kept = len; /* blanks at the end, outside quotes, are cut */
	}
	buf[kept] = '\0';
	return !quoted;
}

/* Remote names the text before holds, at most; past them every remote
 * counts as one the user had and no branch may be pointed anywhere new. */
#define REMOTES_MAX 64

/* Names of remotes, at most REMOTES_MAX of 63 bytes. */
struct names {
	char v[REMOTES_MAX][64];
	size_t n;
};

/* What the text before says about remotes: the names of the remotes it
 * configures (a [remote "NAME"] section), and the remotes its plain
 * fetch and push go to (branch.*.remote, branch.*.pushRemote,
 * remote.pushDefault), which are the user's choice. */
struct remotes {
	struct names have, chosen;
	bool overflow;
};

static bool names_hold(const struct names *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], name) == 0)
			return true;
	return false;
}

static void remotes_add(struct remotes *r, struct names *l, const char *name)
{
	if (names_hold(l, name))
		return;
	if (l->n >= REMOTES_MAX) {
		r->overflow = true;
		return;
	}
	snprintf(l->v[l->n++], sizeof(l->v[0]), "%s", name);
}

static void remotes_read(struct remotes *r, const char *before, size_t before_len)
{
	struct cursor c = cursor_at(before, before_len);
	struct entry e;
	*r = (struct remotes){ .overflow = false };
	while (next_entry(&c, &e)) {
		if (!e.key_at)
			continue;
		if (strcasecmp(c.s.name, "remote") == 0 && c.s.has_sub) {
			if (c.s.sub_cut)
				r->overflow = true;
			else
				remotes_add(r, &r->have, c.s.sub);
		}
		char value[64];
		if (matches(remote_choice, ELEMENTSOF(remote_choice), c.s.name, c.s.has_sub, e.key,
		            NULL) &&
		    read_value(&e, value, sizeof(value)))
			remotes_add(r, &r->chosen, value);
	}
}

/* Whether entry e of section s, added since the text before (read into r;
 * NULL: there is none to judge by), sends the repository somewhere the
 * command chose:
 * - a key of the sends table;
 * - where a remote of the user's goes (its url, pushurl, push refspecs,
 *   mirror): one the text before configured or chose, or "origin", the
 *   remote a plain fetch and push use when nothing is chosen. A remote
 *   added since is used only where the user names it, and keeps them;
 * - a branch's remote or push remote, or remote.pushDefault, naming
 *   anything but "." (the repository itself), a remote the text before
 *   chose, or "origin" when the text before configured it: `git push -u
 *   origin` keeps working, while a remote added in one run and chosen in
 *   the next (each step harmless to a sweep judging by the remotes alone)
 *   is not the user's choice. */
static bool sends_elsewhere(const struct section *s, const struct entry *e, const struct remotes *r)
{
	if (git_defuse_key_sends(s->name, s->has_sub, e->key))
		return true;
	if (!r)
		return false;
	if (matches(remote_where, ELEMENTSOF(remote_where), s->name, s->has_sub, e->key, NULL))
		return r->overflow || s->sub_cut || strcmp(s->sub, "origin") == 0 ||
		       names_hold(&r->have, s->sub) || names_hold(&r->chosen, s->sub);
	if (matches(remote_choice, ELEMENTSOF(remote_choice), s->name, s->has_sub, e->key, NULL)) {
		char value[64];
		if (r->overflow || !read_value(e, value, sizeof(value)))
			return true;
		return !(strcmp(value, ".") == 0 || names_hold(&r->chosen, value) ||
		         (strcmp(value, "origin") == 0 && names_hold(&r->have, "origin")));
	}
	return false;
}

/* Whether o already holds the lines p[0..n), after nothing but blanks on
 * their first line (a disabled line has its mark there). */
static bool out_has_lines(const struct out *o, const char *p, size_t n)
{
	for (const char *at = o->buf; at && (size_t)(o->buf + o->len - at) >= n;) {
		const char *hit = memmem(at, (size_t)(o->buf + o->len - at), p, n);
		if (!hit)
			return false;
		const char *b = hit;
		while (b > o->buf && is_space(b[-1]))
			b--;
		if (b == o->buf || b[-1] == '\n')
			return true;
		at = hit + 1;
	}
	return false;
}

/*
 * After disabled entry e: the entries of its key under the same header
 * as written that the text before held and text no longer does, put back.
 * Git's own `git config KEY VALUE` and `git remote set-url` replace the
 * user's line in place; commented out alone, the new line would leave
 * the key unset (origin with no url, main with no remote), where the
 * user's value is what the user's git should keep using.
 */
static void restore_replaced(struct out *o, const char *before, size_t before_len, const char *text,
                             size_t len, const struct entry *e, int *lookups)
{
	/* each call reads the text before once: it counts as a lookup, so
	 * that the sweep's worst case stays what it was without this */
	if ((*lookups)++ >= KEEP_LOOKUPS_MAX)
		return;
	struct cursor c = cursor_at(before, before_len);
	struct entry k;
	while (next_entry(&c, &k)) {
		if (!k.key_at || strcmp(k.key, e->key) != 0 || k.header_len != e->header_len ||
		    memcmp(k.header, e->header, e->header_len) != 0)
			continue;
		if ((*lookups)++ >= KEEP_LOOKUPS_MAX || entry_in(text, len, &k))
			continue;
		size_t n = (size_t)(k.end - k.key_at);
		if (out_has_lines(o, k.key_at, n))
			continue; /* put back after an earlier disabled line already */
		if (o->len > 0 && o->buf && o->buf[o->len - 1] != '\n')
			put(o, "\n", 1);
		put(o, "\t", 1);
		put(o, k.key_at, n);
		if (k.end[-1] != '\n')
			put(o, "\n", 1);
	}
}

/* Whether keep says to keep entry e of section s. */
static bool kept_by(git_defuse_keep_fn keep, const struct section *s, const struct entry *e,
                    void *userdata)
{
	char value[PATH_MAX];
	return keep && read_value(e, value, sizeof(value)) &&
	       keep(s->name, s->has_sub, e->key, value, userdata);
}

int git_defuse_config_keeping(const char *text, size_t len, const char *before, size_t before_len,
                              git_defuse_keep_fn keep, char **ret, size_t *ret_len,
                              git_defuse_fn fn, void *userdata)
{
	struct out o = { 0 };
	struct cursor c = cursor_at(text, len);
	struct entry e;
	int n = 0, lookups = 0;
	_cleanup_free_ struct remotes *known = NULL;
	put(&o, text, (size_t)(c.p - text)); /* the byte order mark, kept */
	if (before) {
		known = malloc(sizeof(*known));
		if (!known)
			return -ENOMEM;
		remotes_read(known, before, before_len);
	}
	while (next_entry(&c, &e)) {
		if (!e.key_at ||
		    !(git_defuse_key_runs(c.s.name, c.s.has_sub, e.key, e.value) ||
		      sends_elsewhere(&c.s, &e, known)) ||
		    (before && lookups++ < KEEP_LOOKUPS_MAX && entry_in(before, before_len, &e)) ||
		    kept_by(keep, &c.s, &e, userdata)) {
			put(&o, e.start, (size_t)(e.end - e.start));
			continue;
		}
		/* the header before the key when on one line, then each line of
		 * the key and its value commented out */
		put(&o, e.start, (size_t)(e.key_at - e.start));
		if (e.key_at != e.start && !is_space(e.key_at[-1]))
			put(&o, " ", 1);
		for (const char *line = e.key_at; line < e.end;) {
			const char *nl = memchr(line, '\n', (size_t)(e.end - line));
			const char *next = nl ? nl + 1 : e.end;
			put(&o, GIT_DEFUSE_MARK, strlen(GIT_DEFUSE_MARK));
			put(&o, line, (size_t)(next - line));
			line = next;
		}
		if (before)
			restore_replaced(&o, before, before_len, text, len, &e, &lookups);
		report(fn, userdata, &c.s, e.key);
		n++;
	}
	return finish(&o, n, ret, ret_len);
}

int git_defuse_config_since(const char *text, size_t len, const char *before, size_t before_len,
                            char **ret, size_t *ret_len, git_defuse_fn fn, void *userdata)
{
	return git_defuse_config_keeping(text, len, before, before_len, NULL, ret, ret_len, fn,
	                                 userdata);
}

int git_defuse_config(const char *text, size_t len, char **ret, size_t *ret_len, git_defuse_fn fn,
                      void *userdata)
{
	return git_defuse_config_since(text, len, NULL, 0, ret, ret_len, fn, userdata);
}

int git_defuse_todo(const char *text, size_t len, char **ret, size_t *ret_len, git_defuse_fn fn,
                    void *userdata)
{
	struct out o = { 0 };
	const char *p = text, *end = text + len;
	int n = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *next = nl ? nl + 1 : end;
		const char *w = skip_space(p, eol);
		const char *we = w;
		while (we < eol && !is_space(*we))
			we++;
		size_t wl = (size_t)(we - w);
		bool exec = (wl == 4 && strncasecmp(w, "exec", 4) == 0) ||
		            (wl == 1 && (*w == 'x' || *w == 'X'));
		if (exec) {
			put(&o, GIT_DEFUSE_MARK, strlen(GIT_DEFUSE_MARK));
			if (fn) {
				char what[128];
				const char *arg = skip_space(we, eol);
				snprintf(what, sizeof(what), "exec %.*s", (int)(eol - arg), arg);
				fn(what, userdata);
			}
			n++;
		}
		put(&o, p, (size_t)(next - p));
		p = next;
	}
	return finish(&o, n, ret, ret_len);
}
