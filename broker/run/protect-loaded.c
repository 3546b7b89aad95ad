/* SPDX-License-Identifier: MIT */
/*
 * The files a protected direnv, mise or yarn configuration loads, read
 * from it and added to the run's protect list (protect-loaded.h says why).
 * Three small readers: a shell word splitter that finds direnv's four
 * loading functions and bash's source and . at the start of a command, a
 * TOML token walker that finds mise's [env] _.file and _.source (in each
 * of the places mise reads a project's configuration from), and a line
 * reader for the release yarn runs in place of itself. None runs or
 * expands anything.
 * Not for: the protection itself (launcher/protected-paths.c,
 * protect-watch.c).
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "run/protect-loaded.h"
#include "run/protect-watch.h"
#include "strv.h"

struct loader {
	int ws; /* the workspace, O_PATH */
	const char *workspace;
	size_t ws_len;
	struct run_settings *s;
	char ***owned;
	char **visited;   /* the direnv files read, relative (strv) */
	unsigned depth;   /* the scripts being read, one sourcing the next */
	const char *from; /* the configuration being read, relative (in owned) */
	struct sluice_error *err;
};

/* A copy of str in *l->owned, which outlives the run's use of the
 * entries (s->protect and s->protect_loader point into it), or NULL. */
static const char *own(struct loader *l, const char *str)
{
	if (strv_extend(l->owned, str) < 0)
		return NULL;
	return (*l->owned)[strv_length(*l->owned) - 1];
}

/* Whether the configured or added entry covers rel (relative, no
 * trailing "/"): a file entry matching it, or a folder entry matching the
 * components it has of rel's. */
static bool entry_covers(const char *entry, const char *rel)
{
	size_t n = strlen(entry);
	if (n == 0)
		return false;
	if (entry[n - 1] != '/')
		return fnmatch(entry, rel, FNM_PATHNAME | FNM_PERIOD) == 0;
	char pattern[PATH_MAX], head[PATH_MAX];
	if (n >= sizeof(pattern))
		return false;
	memcpy(pattern, entry, n - 1);
	pattern[n - 1] = '\0';
	size_t components = 1;
	for (const char *c = pattern; *c; c++)
		components += *c == '/';
	size_t len = 0, seen = 0;
	while (rel[len] && !(rel[len] == '/' && ++seen == components))
		len++;
	if (rel[len] != '/') /* rel has no more components than the folder */
		return false;
	memcpy(head, rel, len);
	head[len] = '\0';
	return fnmatch(pattern, head, FNM_PATHNAME | FNM_PERIOD) == 0;
}

/* rel (relative, normalised) taken into the protect list unless an entry
 * covers it. An entry holds wildcards in its last component only: a path
 * with one before it cannot be protected, and refuses the run. */
static int add_entry(struct loader *l, const char *rel)
{
	struct run_settings *s = l->s;
	const char *last = strrchr(rel, '/');
	if (last && strcspn(rel, "*?[") < (size_t)(last - rel))
		return sluice_error_set(l->err, -EINVAL,
		                        "'%s' loads '%s', a path with a wildcard before its "
		                        "last component, which [sandbox] protect cannot hold",
		                        l->from, rel);
	for (size_t i = 0; i < s->n_protect; i++)
		if (entry_covers(s->protect[i], rel))
			return 0;
	if (s->n_protect >= RUN_SETTINGS_PROTECT_MAX)
		return sluice_error_set(l->err, -E2BIG,
		                        "'%s' loads '%s', one file more than the %d entries "
		                        "[sandbox] protect can hold",
		                        l->from, rel, RUN_SETTINGS_PROTECT_MAX);
	const char *copy = own(l, rel);
	if (!copy)
		return sluice_error_set(l->err, -ENOMEM, "the protected paths");
	s->protect_loader[s->n_protect] = l->from;
	s->protect[s->n_protect++] = copy;
	return 0;
}

/* path as a configuration in folder base (relative to the workspace, ""
 * its top) names it, made relative to the workspace and normalised into
 * out. 1: inside the workspace ("" the workspace itself); 0: outside it,
 * or in the home (`~`, the user's own), left out. */
static int resolve(const struct loader *l, const char *base, const char *path, char out[PATH_MAX])
{
	char joined[PATH_MAX];
	if (path[0] == '~')
		return 0;
	if (path[0] == '/') {
		if (strncmp(path, l->workspace, l->ws_len) != 0 ||
		    (path[l->ws_len] != '/' && path[l->ws_len] != '\0'))
			return 0;
		path += l->ws_len;
		base = "";
	}
	if (snprintf(joined, sizeof(joined), "%s/%s", base, path) >= (int)sizeof(joined))
		return 0; /* longer than a path can be: nothing of the workspace */
	size_t n = 0;
	out[0] = '\0';
	for (char *save = NULL, *c = strtok_r(joined, "/", &save); c;
	     c = strtok_r(NULL, "/", &save)) {
		if (strcmp(c, ".") == 0)
			continue;
		if (strcmp(c, "..") == 0) {
			if (n == 0)
				return 0; /* above the workspace */
			while (n > 0 && out[n - 1] != '/')
				n--;
			n = n > 0 ? n - 1 : 0;
			out[n] = '\0';
			continue;
		}
		n += (size_t)snprintf(out + n, PATH_MAX - n, "%s%s", n ? "/" : "", c);
	}
	return 1;
}

/* Whether rel ("" the workspace) is a folder now. */
static bool is_folder(const struct loader *l, const char *rel)
{
	struct stat st;
	return fstatat(l->ws, rel[0] ? rel : ".", &st, 0) == 0 && S_ISDIR(st.st_mode);
}

/* rel's text into *ret (NUL-terminated, freed by the caller), or NULL when
 * it is missing or not a regular file (a FIFO is not waited on). */
static int read_config(struct loader *l, const char *rel, char **ret, size_t *ret_len)
{
	*ret = NULL;
	_cleanup_close_ int fd = openat(l->ws, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP
		               ? 0
		               : sluice_error_set(l->err, neg_errno(), "reading '%s'", rel);
	struct stat st;
	if (fstat(fd, &st) < 0)
		return sluice_error_set(l->err, neg_errno(), "reading '%s'", rel);
	if (!S_ISREG(st.st_mode))
		return 0;
	_cleanup_free_ char *buf = malloc(PROTECT_LOADED_FILE_MAX + 1);
	if (!buf)
		return sluice_error_set(l->err, -ENOMEM, "reading '%s'", rel);
	ssize_t n = read_full(fd, buf, PROTECT_LOADED_FILE_MAX + 1);
	if (n < 0)
		return sluice_error_set(l->err, (int)n, "reading '%s'", rel);
	if (n > PROTECT_LOADED_FILE_MAX)
		return sluice_error_set(l->err, -EFBIG,
		                        "'%s' is larger than %d bytes: the files it loads could "
		                        "not be read from it, to be protected",
		                        rel, PROTECT_LOADED_FILE_MAX);
	buf[n] = '\0';
	*ret_len = (size_t)n;
	*ret = TAKE_PTR(buf);
	return 0;
}

/* --- direnv: the shell words of .envrc and what it sources */

/* bash's own source and . load a file too: direnv runs the .envrc with
 * bash, in its folder (source .venv/bin/activate) */
enum sh_command { SH_OTHER, SH_DOTENV, SH_SOURCE_ENV, SH_SOURCE };

struct sh_state {
	bool at_start;           /* the next word starts a command */
	enum sh_command command; /* the command being read */
	bool args_open;          /* no redirection yet: words are its arguments */
	size_t n_args;
	char base[PATH_MAX]; /* the folder of the file read */
};

static int read_direnv(struct loader *l, const char *rel);

/* One argument of dotenv or source_env ("" dotenv's default): a folder
 * stands for its .env or .envrc, as direnv's stdlib has it. What
 * source_env runs is read in turn. */
static int direnv_argument(struct loader *l, const struct sh_state *st, const char *arg)
{
	char rel[PATH_MAX];
	bool dotenv = st->command == SH_DOTENV;
	if (resolve(l, st->base, arg, rel) == 0)
		return 0;
	if (st->command != SH_SOURCE && (arg[0] == '\0' || is_folder(l, rel))) {
		size_t n = strlen(rel);
		if (snprintf(rel + n, PATH_MAX - n, "%s%s", n ? "/" : "",
		             dotenv ? ".env" : ".envrc") >= (int)(PATH_MAX - n))
			return 0;
	}
	if (rel[0] == '\0')
		return 0;
	int r = add_entry(l, rel);
	return r < 0 || dotenv ? r : read_direnv(l, rel);
}

/* The words that leave the next one at the start of a command. */
static bool sh_keyword(const char *w)
{
	static const char *const words[] = { "if",    "then",  "else", "elif", "fi", "do",  "done",
		                             "while", "until", "{",    "}",    "!",  "time" };
	for (size_t i = 0; i < ELEMENTSOF(words); i++)
		if (strcmp(w, words[i]) == 0)
			return true;
	return false;
}

static int sh_word(struct loader *l, struct sh_state *st, const char *w, bool plain)
{
	if (st->at_start) {
		if (plain && sh_keyword(w))
			return 0;
		st->at_start = false;
		st->args_open = true;
		st->n_args = 0;
		st->command =
		        !plain                                                           ? SH_OTHER
		        : strcmp(w, "dotenv") == 0 || strcmp(w, "dotenv_if_exists") == 0 ? SH_DOTENV
		        : strcmp(w, "source_env") == 0 || strcmp(w, "source_env_if_exists") == 0
		                ? SH_SOURCE_ENV
		        : strcmp(w, "source") == 0 || strcmp(w, ".") == 0 ? SH_SOURCE
		                                                          : SH_OTHER;
		return 0;
	}
	if (st->command == SH_OTHER || !st->args_open)
		return 0;
	/* bash's source loads its first word; the rest are its arguments */
	if (st->command == SH_SOURCE && st->n_args > 0)
		return 0;
	st->n_args++;
	/* a word with an expansion is not read: what it names is not known */
	return plain ? direnv_argument(l, st, w) : 0;
}

static int sh_end_command(struct loader *l, struct sh_state *st)
{
	int r = 0;
	if (!st->at_start && st->command == SH_DOTENV && st->n_args == 0)
		r = direnv_argument(l, st, "");
	st->at_start = true;
	st->command = SH_OTHER;
	return r;
}

/* The word at *p into w (quotes taken off); *plain false when it holds
 * an expansion, an escape or an unterminated quote, or is too long. */
static void sh_read_word(const char **p, const char *end, char w[PATH_MAX], bool *plain)
{
	size_t n = 0;
	*plain = true;
	while (*p < end && !strchr(" \t\n;&|()<>", **p)) {
		char c = *(*p)++;
		if (c == '\'' || c == '"') {
			const char *close = memchr(*p, c, (size_t)(end - *p));
			if (!close) {
				*plain = false;
				*p = end;
				break;
			}
			for (const char *q = *p; q < close; q++) {
				if ((c == '"' && strchr("$`\\", *q)) || (unsigned char)*q < 0x20)
					*plain = false;
				if (n + 1 < PATH_MAX)
					w[n++] = *q;
				else
					*plain = false;
			}
			*p = close + 1;
			continue;
		}
		if (strchr("$`\\", c) || (unsigned char)c < 0x20)
			*plain = false;
		if (n + 1 < PATH_MAX)
			w[n++] = c;
		else
			*plain = false;
	}
	w[n] = '\0';
}

/* The direnv file rel (relative): each dotenv, dotenv_if_exists,
 * source_env, source_env_if_exists, source and . at the start of a command (after a
 * newline, ;, &&, ||, |, a parenthesis, then, do, {...), and its plain
 * arguments, up to a redirection or the command's end. */
static int read_direnv(struct loader *l, const char *rel)
{
	for (size_t i = 0; l->visited && l->visited[i]; i++)
		if (strcmp(l->visited[i], rel) == 0)
			return 0;
	/* each level holds a file's text: a chain of scripts (each one the
	 * user's, in a protected folder) is read so deep, then refused */
	if (l->depth >= PROTECT_LOADED_DEPTH)
		return sluice_error_set(l->err, -ELOOP,
		                        "'%s' is sourced %d scripts deep: the files it loads "
		                        "were not read, to be protected",
		                        rel, PROTECT_LOADED_DEPTH);
	const char *from = strv_extend(&l->visited, rel) < 0 ? NULL : own(l, rel);
	if (!from)
		return sluice_error_set(l->err, -ENOMEM, "the protected paths");
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_config(l, rel, &text, &len);
	if (r < 0 || !text)
		return r;
	const char *saved_from = l->from;
	l->from = from;
	l->depth++;
	struct sh_state st = { .at_start = true, .command = SH_OTHER };
	const char *slash = strrchr(rel, '/');
	snprintf(st.base, sizeof(st.base), "%.*s", slash ? (int)(slash - rel) : 0, rel);
	const char *p = text, *end = text + len;
	char word[PATH_MAX];
	while (r >= 0 && p < end) {
		char c = *p;
		if (c == ' ' || c == '\t') {
			p++;
		} else if (c == '\\' && p + 1 < end && p[1] == '\n') {
			p += 2; /* a line continued */
		} else if (strchr("\n;&|()", c)) {
			r = sh_end_command(l, &st);
			p++;
		} else if (c == '<' || c == '>') {
			st.args_open = false; /* the next word is where it goes */
			p++;
		} else if (c == '#') {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			p = nl ? nl : end;
		} else {
			bool plain;
			sh_read_word(&p, end, word, &plain);
			r = sh_word(l, &st, word, plain);
		}
	}
	if (r >= 0)
		r = sh_end_command(l, &st);
	l->depth--;
	l->from = saved_from;
	return r;
}

/* --- mise: [env] _.file and _.source of a TOML file */

enum toml_token {
	T_END,
	T_NEWLINE,
	T_STRING,
	T_BARE,
	T_LBRACK,
	T_RBRACK,
	T_LBRACE,
	T_RBRACE,
	T_EQ,
	T_COMMA
};

struct toml {
	const char *p, *end;
	enum toml_token t;
	char text[PATH_MAX]; /* a string's content, a bare word */
	bool plain;          /* a string with no escape, not cut */
};

/* The next token into tm (comments and blanks skipped). */
static void toml_next(struct toml *tm)
{
	while (tm->p < tm->end && (*tm->p == ' ' || *tm->p == '\t' || *tm->p == '\r'))
		tm->p++;
	if (tm->p < tm->end && *tm->p == '#')
		while (tm->p < tm->end && *tm->p != '\n')
			tm->p++;
	tm->text[0] = '\0';
	tm->plain = true;
	if (tm->p >= tm->end) {
		tm->t = T_END;
		return;
	}
	static const char single[] = "\n[]{}=,";
	static const enum toml_token kinds[] = { T_NEWLINE, T_LBRACK, T_RBRACK, T_LBRACE,
		                                 T_RBRACE,  T_EQ,     T_COMMA };
	/* (strchr() finds a NUL byte too: the text may hold one) */
	const char *k = *tm->p ? strchr(single, *tm->p) : NULL;
	if (k) {
		tm->t = kinds[k - single];
		tm->p++;
		return;
	}
	size_t n = 0;
	if (*tm->p == '"' || *tm->p == '\'') {
		char q = *tm->p;
		bool triple = tm->end - tm->p >= 3 && tm->p[1] == q && tm->p[2] == q;
		tm->p += triple ? 3 : 1;
		tm->t = T_STRING;
		/* a multi-line string is never a plain path */
		tm->plain = !triple;
		while (tm->p < tm->end) {
			if (triple && tm->end - tm->p >= 3 && tm->p[0] == q && tm->p[1] == q &&
			    tm->p[2] == q) {
				tm->p += 3;
				break;
			}
			if (!triple && *tm->p == q) {
				tm->p++;
				break;
			}
			if (!triple && *tm->p == '\n') { /* unterminated: left for the next line */
				tm->plain = false;
				break;
			}
			if (q == '"' && *tm->p == '\\') {
				tm->plain = false;
				if (tm->p + 1 < tm->end)
					tm->p++;
			}
			/* a control character: no name of a file mise is given */
			if (n + 1 < sizeof(tm->text) && (unsigned char)*tm->p >= 0x20)
				tm->text[n++] = *tm->p;
			else
				tm->plain = false;
			tm->p++;
		}
		tm->text[n] = '\0';
		return;
	}
	/* anything else up to a delimiter, at least one byte (a NUL) */
	tm->t = T_BARE;
	for (bool first = true;
	     tm->p < tm->end && (first || (*tm->p && !strchr(" \t\r\n[]{}=,\"'#", *tm->p)));
	     first = false) {
		if (n + 1 < sizeof(tm->text))
			tm->text[n++] = *tm->p;
		tm->p++;
	}
	tm->text[n] = '\0';
}

/* Whether the value of key (the table's name, a dot, the key) names a
 * file mise loads: [env] _.file or _.source, the older top-level env_file
 * and dotenv, and the path of an inline table given for either. */
static bool mise_key_loads(const char *key)
{
	static const char *const keys[] = { "env._.file", "env._.source", "env_file", "dotenv" };
	for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
		size_t n = strlen(keys[i]);
		if (strncmp(key, keys[i], n) == 0 &&
		    (key[n] == '\0' || strcmp(key + n, ".path") == 0))
			return true;
	}
	return false;
}

/* A path mise is given, relative to the configuration's folder (the
 * workspace's top, for the files read here): {{config_root}} is that
 * folder; another template is not read. */
static int mise_path(struct loader *l, const char *path)
{
	static const char *const roots[] = { "{{config_root}}", "{{ config_root }}" };
	for (size_t i = 0; i < ELEMENTSOF(roots); i++) {
		size_t n = strlen(roots[i]);
		if (strncmp(path, roots[i], n) == 0 && (path[n] == '/' || path[n] == '\0')) {
			path += n;
			path += *path == '/';
			break;
		}
	}
	char rel[PATH_MAX];
	if (strstr(path, "{{") || path[0] == '\0' || resolve(l, "", path, rel) == 0 || !rel[0])
		return 0;
	return add_entry(l, rel);
}

/* The value at tm's token (a string, an array, an inline table, or a
 * scalar), the paths it gives taken when key loads files; tm is left on
 * the token after it. */
static int toml_value(struct loader *l, struct toml *tm, const char *key)
{
	int r = 0;
	if (tm->t == T_STRING) {
		if (tm->plain && mise_key_loads(key))
			r = mise_path(l, tm->text);
		toml_next(tm);
		return r;
	}
	if (tm->t == T_LBRACK) {
		toml_next(tm);
		while (r >= 0 && tm->t != T_RBRACK && tm->t != T_END) {
			if (tm->t == T_NEWLINE || tm->t == T_COMMA)
				toml_next(tm);
			else
				r = toml_value(l, tm, key);
		}
		toml_next(tm);
		return r;
	}
	if (tm->t == T_LBRACE) {
		toml_next(tm);
		while (r >= 0 && tm->t != T_RBRACE && tm->t != T_END) {
			if (tm->t != T_BARE && tm->t != T_STRING) {
				toml_next(tm);
				continue;
			}
			char inner[PATH_MAX];
			/* a key too long to hold is no key of mise's */
			if (snprintf(inner, sizeof(inner), "%s.%s", key, tm->text) >=
			    (int)sizeof(inner))
				inner[0] = '\0';
			toml_next(tm);
			if (tm->t != T_EQ)
				continue;
			toml_next(tm);
			r = toml_value(l, tm, inner);
		}
		if (tm->t == T_RBRACE)
			toml_next(tm);
		return r;
	}
	if (tm->t != T_END && tm->t != T_NEWLINE)
		toml_next(tm);
	return 0;
}

/* The mise file rel, at the workspace's top: each table header, and each
 * key = value line under it. */
static int read_mise(struct loader *l, const char *rel)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_config(l, rel, &text, &len);
	if (r < 0 || !text)
		return r;
	struct toml tm = { .p = text, .end = text + len };
	char table[PATH_MAX] = "";
	toml_next(&tm);
	while (r >= 0 && tm.t != T_END) {
		if (tm.t == T_LBRACK) { /* [table] or [[table]] */
			size_t n = 0;
			table[0] = '\0';
			while (tm.t != T_END && tm.t != T_NEWLINE) {
				if ((tm.t == T_BARE || tm.t == T_STRING) &&
				    n + strlen(tm.text) + 1 < PATH_MAX)
					n += (size_t)snprintf(table + n, PATH_MAX - n, "%s",
					                      tm.text);
				toml_next(&tm);
			}
		} else if (tm.t == T_BARE || tm.t == T_STRING) {
			char key[PATH_MAX];
			if (snprintf(key, sizeof(key), "%s%s%s", table, table[0] ? "." : "",
			             tm.text) >= (int)sizeof(key))
				key[0] = '\0'; /* too long for a key of mise's */
			toml_next(&tm);
			if (tm.t == T_EQ) {
				toml_next(&tm);
				r = toml_value(l, &tm, key);
			}
		}
		/* the rest of the line */
		while (r >= 0 && tm.t != T_END && tm.t != T_NEWLINE)
			toml_next(&tm);
		toml_next(&tm);
	}
	return r;
}

/* --- yarn: the release it runs in place of itself */

/* The file the yarn configuration rel (at the top) names on its line
 * "KEY<sep>FILE": .yarnrc.yml's yarnPath, .yarnrc's yarn-path; quoted or
 * not, relative to the top, a YAML comment after it left out. */
static int read_yarn(struct loader *l, const char *rel, const char *key)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0, klen = strlen(key);
	int r = read_config(l, rel, &text, &len);
	for (const char *p = text, *end = text + len; r >= 0 && p && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end;
		const char *line = p;
		p = nl ? nl + 1 : end;
		if ((size_t)(eol - line) < klen + 2 || strncmp(line, key, klen) != 0 ||
		    !strchr(": \t", line[klen]))
			continue;
		const char *v = line + klen;
		v += strspn(v, ": \t");
		const char *ve = v;
		while (ve < eol && !(ve > v && *ve == '#' && (ve[-1] == ' ' || ve[-1] == '\t')))
			ve++;
		while (ve > v && strchr(" \t\r", ve[-1]))
			ve--;
		if (ve - v >= 2 && (*v == '"' || *v == '\'') && ve[-1] == *v) {
			v++;
			ve--;
		}
		char path[PATH_MAX], out[PATH_MAX];
		if (ve <= v || (size_t)(ve - v) >= sizeof(path))
			continue;
		memcpy(path, v, (size_t)(ve - v));
		path[ve - v] = '\0';
		/* an expansion or a control character: what it names is not known */
		bool plain = !strpbrk(path, "$`\\{");
		for (const char *c = path; plain && *c; c++)
			plain = (unsigned char)*c >= 0x20;
		if (plain && resolve(l, "", path, out) && out[0])
			r = add_entry(l, out);
	}
	return r;
}

/* --- the configurations at the workspace's top */

/* Whether an entry of the configured list covers the top-level name. */
static bool configured_covers(const struct run_settings *s, size_t n_configured, const char *name)
{
	for (size_t i = 0; i < n_configured; i++)
		if (entry_covers(s->protect[i], name))
			return true;
	return false;
}

/* mise's configurations in folders of the top, which mise reads as the
 * project's own ({{config_root}} is the top): a pattern per folder. */
static const struct {
	const char *folder, *pattern;
} mise_folders[] = {
	{ ".config", "mise*.toml" },         { ".config/mise", "config*.toml" },
	{ ".config/mise/conf.d", "*.toml" }, { "mise", "config*.toml" },
	{ ".mise", "config*.toml" },
};

static int read_mise_folders(struct loader *l, size_t n_configured)
{
	int r = 0;
	for (size_t i = 0; r >= 0 && i < ELEMENTSOF(mise_folders); i++) {
		int fd = openat(l->ws, mise_folders[i].folder,
		                O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		_cleanup_closedir_ DIR *d = fd < 0 ? NULL : fdopendir(fd);
		if (!d) {
			if (fd >= 0)
				(void)close(fd);
			continue; /* none there (or not a folder): nothing mise reads */
		}
		for (const struct dirent *de; r >= 0 && (de = readdir(d));) {
			char rel[PATH_MAX];
			if (strstr(de->d_name, PROTECT_WATCH_SUFFIX) ||
			    fnmatch(mise_folders[i].pattern, de->d_name, FNM_PERIOD) != 0 ||
			    snprintf(rel, sizeof(rel), "%s/%s", mise_folders[i].folder,
			             de->d_name) >= (int)sizeof(rel) ||
			    !configured_covers(l->s, n_configured, rel))
				continue;
			l->from = own(l, rel);
			r = l->from ? read_mise(l, rel)
			            : sluice_error_set(l->err, -ENOMEM, "the protected paths");
		}
	}
	return r;
}

int protect_loaded_add(struct run_settings *s, const char *workspace, char ***owned,
                       struct sluice_error *err)
{
	struct loader l = {
		.workspace = workspace,
		.ws_len = strlen(workspace),
		.s = s,
		.owned = owned,
		.err = err,
	};
	/* "/" as the workspace: its paths start with "/" and not "//" */
	if (l.ws_len == 1)
		l.ws_len = 0;
	size_t n_configured = s->n_protect;
	l.ws = open(workspace, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (l.ws < 0)
		return sluice_error_set(err, neg_errno(), "the workspace '%s'", workspace);
	int fd = openat(l.ws, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			(void)close(fd);
		int r = sluice_error_set(err, neg_errno(), "reading the workspace '%s'", workspace);
		(void)close(l.ws);
		return r;
	}
	int r = 0;
	for (;;) {
		errno = 0;
		const struct dirent *de = readdir(d);
		if (!de) {
			if (errno)
				r = sluice_error_set(err, neg_errno(), "reading '%s'", workspace);
			break;
		}
		const char *name = de->d_name;
		/* a name the watch gave what a run planted is read by no one */
		if (strstr(name, PROTECT_WATCH_SUFFIX) || !configured_covers(s, n_configured, name))
			continue;
		if (fnmatch(".envrc*", name, FNM_PERIOD) == 0) {
			r = read_direnv(&l, name);
		} else if (fnmatch("mise*.toml", name, FNM_PERIOD) == 0 ||
		           fnmatch(".mise*.toml", name, FNM_PERIOD) == 0) {
			l.from = own(&l, name);
			r = l.from ? read_mise(&l, name)
			           : sluice_error_set(err, -ENOMEM, "the protected paths");
		} else if (strcmp(name, ".yarnrc.yml") == 0 || strcmp(name, ".yarnrc") == 0) {
			l.from = own(&l, name);
			bool classic = strcmp(name, ".yarnrc") == 0; /* yarn 1's own */
			r = l.from ? read_yarn(&l, name, classic ? "yarn-path" : "yarnPath")
			           : sluice_error_set(err, -ENOMEM, "the protected paths");
		}
		if (r < 0)
			break;
	}
	(void)closedir(d);
	if (r >= 0)
		r = read_mise_folders(&l, n_configured);
	(void)close(l.ws);
	strv_free(l.visited);
	if (r < 0) {
		while (s->n_protect > n_configured)
			s->protect_loader[--s->n_protect] = NULL;
		return err && err->code ? r : sluice_error_set(err, r, "the protected paths");
	}
	return 0;
}
