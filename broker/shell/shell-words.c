/* SPDX-License-Identifier: MIT */
/*
 * Quote removal and expansion flags for one word node (see shell-words.h).
 * The text is built next to a mask that records, byte by byte, whether the
 * byte was quoted: glob, brace and tilde expansion only apply to unquoted
 * bytes, so the flags are computed from the mask at the end.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "parse-number.h"
#include "shell/shell-words.h"
#include "util/strbuf.h"

/* Resolved values longer than this stay unresolved (bounds the growth a
 * chain of $A$A$A... could cause). */
#define RESOLVE_MAX_VALUE 4096

struct expander {
	const char *src;
	shell_var_lookup_fn lookup;
	void *userdata;
	struct strbuf text;
	/* one per byte of text: 'u' unquoted, 'q' quoted, 'v' an unquoted
	 * variable's value (globbed, but not brace-expanded, by bash) */
	struct strbuf mask;
	struct shell_word *w;
	int error;
};

static void put_as(struct expander *e, const char *s, size_t n, char kind)
{
	if (e->error)
		return;
	int r = strbuf_append(&e->text, s, n);
	if (r == -E2BIG) {
		e->w->flags |= WORD_UNKNOWN;
		return;
	}
	if (r < 0) {
		e->error = r;
		return;
	}
	for (size_t i = 0; i < n && !e->error; i++) {
		r = strbuf_append_char(&e->mask, kind);
		if (r < 0)
			e->error = r;
	}
}

static void put(struct expander *e, const char *s, size_t n, bool quoted)
{
	put_as(e, s, n, quoted ? 'q' : 'u');
}

static void put_source(struct expander *e, const struct shell_node *n, bool quoted)
{
	put(e, e->src + n->start, n->end - n->start, quoted);
}

static void add_var(struct expander *e, const char *name, size_t len)
{
	struct shell_word *w = e->w;
	w->flags |= WORD_PARAM;
	if (w->n_vars >= SHELL_WORD_MAX_VARS || e->error)
		return;
	char *v = strndup(name, len);
	if (!v) {
		e->error = -ENOMEM;
		return;
	}
	w->vars[w->n_vars++] = v;
}

/* Unquoted text of a word token: backslash quotes the next byte; a
 * backslash-newline disappears. */
static void put_unquoted(struct expander *e, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			if (s[i + 1] != '\n')
				put(e, &s[i + 1], 1, true);
			e->w->flags |= WORD_QUOTED;
			i++;
		} else {
			put(e, &s[i], 1, false);
		}
	}
}

/* Inside "...": a backslash quotes only $ ` " \ and newline. */
static void put_dquoted(struct expander *e, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && strchr("$`\"\\\n", s[i + 1])) {
			if (s[i + 1] != '\n')
				put(e, &s[i + 1], 1, true);
			i++;
		} else {
			put(e, &s[i], 1, true);
		}
	}
}

static void put_utf8(struct expander *e, unsigned long cp)
{
	char b[4];
	size_t n;
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	put(e, b, n, true);
}

/* Up to max digits of base (8 or 16) from s[*i]; advances *i. */
static unsigned long read_digits(const char *s, size_t n, size_t *i, int base, int max)
{
	unsigned long v = 0;
	for (int k = 0; k < max && *i < n; k++) {
		int d = hex_digit_value(s[*i]);
		if (d < 0 || d >= base)
			break;
		v = v * (unsigned long)base + (unsigned long)d;
		(*i)++;
	}
	return v;
}

/* The escapes of $'...' (bash's ANSI-C quoting). */
static const struct {
	char c;
	char value;
} ansi_escapes[] = {
	{ 'a', '\a' },  { 'b', '\b' }, { 'e', '\033' }, { 'E', '\033' }, { 'f', '\f' },
	{ 'n', '\n' },  { 'r', '\r' }, { 't', '\t' },   { 'v', '\v' },   { '\\', '\\' },
	{ '\'', '\'' }, { '"', '"' },  { '?', '?' },
};

static void put_ansi_c(struct expander *e, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 >= n) {
			put(e, &s[i], 1, true);
			continue;
		}
		char c = s[++i];
		bool done = false;
		for (size_t k = 0; k < ELEMENTSOF(ansi_escapes); k++) {
			if (ansi_escapes[k].c == c) {
				put(e, &ansi_escapes[k].value, 1, true);
				done = true;
				break;
			}
		}
		if (done)
			continue;
		size_t j = i + 1;
		if (c >= '0' && c <= '7') {
			j = i;
			char v = (char)read_digits(s, n, &j, 8, 3);
			put(e, &v, 1, true);
		} else if ((c == 'x' || c == 'u' || c == 'U') &&
		           (j >= n || hex_digit_value(s[j]) < 0)) {
			put(e, &s[i - 1], 2, true); /* no digit: kept as written, as bash does */
		} else if (c == 'x') {
			char v = (char)read_digits(s, n, &j, 16, 2);
			put(e, &v, 1, true);
		} else if (c == 'u' || c == 'U') {
			put_utf8(e, read_digits(s, n, &j, 16, c == 'u' ? 4 : 8));
		} else if (c == 'c' && i + 1 < n) {
			char v = (char)(s[i + 1] & 0x1f);
			put(e, &v, 1, true);
			j = i + 2;
		} else {
			put(e, &s[i - 1], 2, true); /* unknown escape: kept as written */
		}
		i = j - 1;
	}
}

static void expand(struct expander *e, const struct shell_node *n, bool quoted);

/* Flag the substitutions anywhere below n (e.g. inside ${X:-$(cmd)}, and
 * the backquotes the grammar leaves as a word there: ${X:-`cmd`}). */
static void flag_nested(struct expander *e, const struct shell_node *n)
{
	for (uint32_t i = 0; i < n->n_children; i++) {
		const struct shell_node *c = &n->children[i];
		size_t start, end;
		if (c->kind == SN_CMD_SUBST ||
		    (c->kind == SN_WORD &&
		     shell_backquote_find(e->src + c->start, c->end - c->start, &start, &end)))
			e->w->flags |= WORD_CMDSUBST;
		else if (c->kind == SN_PROC_SUBST)
			e->w->flags |= WORD_PROCSUBST;
		else if (c->kind == SN_ARITH_EXPANSION)
			e->w->flags |= WORD_ARITH;
		flag_nested(e, c);
	}
}

/* How an expansion of NAME gives NAME's own value when NAME is set and not
 * empty: ${X} as it is; ${X:?msg} ${X?} ${X:-w} ${X-w} ${X:=w} ${X=w}
 * (the word is only for an unset one); ${X%/} and ${X%%/} without one
 * trailing slash. */
enum param_form {
	PARAM_OTHER = 0, /* anything else: ${X:+w}, ${X#p}, ${X/a/b} ... */
	PARAM_VALUE,
	PARAM_NO_SLASH,
};

/* The form of the expansion whose text after its name is rest[0..len)
 * (its closing brace included). */
static enum param_form param_form(const char *rest, size_t len)
{
	if (len == 1 && rest[0] == '}')
		return PARAM_VALUE;
	if ((len == 3 && memcmp(rest, "%/}", 3) == 0) || (len == 4 && memcmp(rest, "%%/}", 4) == 0))
		return PARAM_NO_SLASH;
	size_t op = rest[0] == ':' ? 1 : 0;
	if (len > op + 1 && strchr("?-=", rest[op]))
		return PARAM_VALUE;
	return PARAM_OTHER;
}

/* ${!NAME} whose NAME holds a variable's name: the expansion of that one. */
static void expand_indirect(struct expander *e, const struct shell_node *n, const char *var,
                            bool quoted)
{
	uint32_t value_flags = 0;
	const char *target = e->lookup ? e->lookup(e->userdata, var, &value_flags) : NULL;
	if (!target || value_flags || !shell_word_is_name(target, strlen(target))) {
		add_var(e, var, strlen(var));
		if (!quoted)
			e->w->flags |= WORD_SPLIT;
		put_source(e, n, true);
		return;
	}
	_cleanup_free_ char *name = strdup(target); /* the lookup's is borrowed */
	if (!name) {
		e->error = -ENOMEM;
		return;
	}
	const char *value = e->lookup(e->userdata, name, &value_flags);
	if (value && value[0] && strlen(value) <= RESOLVE_MAX_VALUE) {
		e->w->flags |= WORD_RESOLVED | value_flags;
		put_as(e, value, strlen(value), quoted ? 'q' : 'v');
		return;
	}
	/* what it stands for, as a policy reads it: ${HOME} */
	add_var(e, name, strlen(name));
	if (!quoted)
		e->w->flags |= WORD_SPLIT;
	put(e, "${", 2, true);
	put(e, name, strlen(name), true);
	put(e, "}", 1, true);
}

/* ${NAME[N]} (N in digits): resolved when the lookup knows the element,
 * which it names "NAME[N]" (the model's arrays, model-command.c). */
static bool expand_element(struct expander *e, const struct shell_node *n, bool quoted)
{
	if (n->kind != SN_EXPANSION || n->n_children != 3 || !e->lookup)
		return false;
	const struct shell_node *sub = &n->children[1];
	const char *s = e->src + sub->start;
	size_t len = sub->end - sub->start;
	size_t name = strcspn(s, "[");
	if (sub->start != n->start + 2 || n->end != sub->end + 1 || name == 0 || name >= len ||
	    !shell_word_is_name(s, name) || len < name + 3 || s[len - 1] != ']' ||
	    strspn(s + name + 1, "0123456789") != len - name - 2 || len > 64)
		return false;
	char element[65];
	memcpy(element, s, len);
	element[len] = '\0';
	uint32_t value_flags = 0;
	const char *value = e->lookup(e->userdata, element, &value_flags);
	if (!value || strlen(value) > RESOLVE_MAX_VALUE)
		return false;
	e->w->flags |= WORD_RESOLVED | value_flags;
	put_as(e, value, strlen(value), quoted ? 'q' : 'v');
	return true;
}

/* $X or ${X}: resolved when the lookup knows X, else kept as written. */
static void expand_param(struct expander *e, const struct shell_node *n, bool quoted)
{
	const struct shell_node *name = shell_node_find(n, SN_VAR_NAME);
	if (!name)
		name = shell_node_find(n, SN_SPECIAL_VAR);
	bool simple = n->kind == SN_SIMPLE_EXPANSION || n->n_children == 3;
	if (!name) {
		/* $1, $@, ${#...}, ${a[0]} and other forms the grammar gives as
		 * tokens or a subscript */
		if (expand_element(e, n, quoted))
			return;
		e->w->flags |= WORD_PARAM;
		if (n->n_children >= 2) {
			const struct shell_node *t = &n->children[1];
			const char *s = e->src + t->start;
			size_t len = t->end - t->start;
			if (len > 0 && len < 64 && s[0] != '#' && s[0] != '!')
				add_var(e, s, len);
		}
		if (!quoted)
			e->w->flags |= WORD_SPLIT;
		flag_nested(e, n);
		put_source(e, n, true);
		return;
	}
	_cleanup_free_ char *var = strndup(e->src + name->start, name->end - name->start);
	if (!var) {
		e->error = -ENOMEM;
		return;
	}
	const char *open = e->src + n->start;
	bool braced = n->kind == SN_EXPANSION && name->start == n->start + 2 && open[0] == '$';
	if (n->kind == SN_EXPANSION && name->start == n->start + 3 && memcmp(open, "${!", 3) == 0 &&
	    n->end == name->end + 1) {
		expand_indirect(e, n, var, quoted); /* ${!NAME} */
		return;
	}
	enum param_form form = simple   ? PARAM_VALUE
	                       : braced ? param_form(e->src + name->end, n->end - name->end)
	                                : PARAM_OTHER;
	uint32_t value_flags = 0;
	const char *value = form && e->lookup ? e->lookup(e->userdata, var, &value_flags) : NULL;
	/* only ${X} of an empty X is known: the others give their word then */
	if (value && (simple || value[0]) && strlen(value) <= RESOLVE_MAX_VALUE) {
		size_t len = strlen(value);
		if (form == PARAM_NO_SLASH && len > 0 && value[len - 1] == '/')
			len--;
		e->w->flags |= WORD_RESOLVED | value_flags;
		put_as(e, value, len, quoted ? 'q' : 'v');
		return;
	}
	add_var(e, var, strlen(var));
	if (!quoted)
		e->w->flags |= WORD_SPLIT;
	flag_nested(e, n);
	put_source(e, n, true); /* its text is not the value: no glob / brace here */
}

static void expand_children(struct expander *e, const struct shell_node *n, bool quoted)
{
	for (uint32_t i = 0; i < n->n_children; i++)
		expand(e, &n->children[i], quoted);
}

/* The content of "..." / $"...": every child but the quote tokens. Text
 * between children that the grammar gives no node (it can happen around
 * expansions) is taken from the source. */
static void expand_dquoted(struct expander *e, const struct shell_node *n)
{
	uint32_t pos = n->start;
	for (uint32_t i = 0; i < n->n_children; i++) {
		const struct shell_node *c = &n->children[i];
		if (c->kind == SN_TOKEN && (i == 0 || i + 1 == n->n_children)) {
			if (i > 0 && c->start > pos) /* text before the closing quote */
				put_dquoted(e, e->src + pos, c->start - pos);
			pos = c->end;
			continue;
		}
		if (c->start > pos)
			put_dquoted(e, e->src + pos, c->start - pos);
		expand(e, c, true);
		pos = c->end;
	}
}

/* A quoted string: '...', $'...', "..." or $"...". */
static void expand_quoted_string(struct expander *e, const struct shell_node *n)
{
	const char *s = e->src + n->start;
	size_t len = n->end - n->start;
	e->w->flags |= WORD_QUOTED;
	if (n->kind == SN_RAW_STRING) {
		if (len >= 2)
			put(e, s + 1, len - 2, true);
	} else if (n->kind == SN_ANSI_C_STRING) {
		e->w->flags |= WORD_ANSI_C;
		if (len >= 3)
			put_ansi_c(e, s + 2, len - 3);
	} else if (n->kind == SN_TRANSLATED_STRING) {
		e->w->flags |= WORD_TRANSLATED;
		if (n->n_children == 2) /* `$` then the string */
			expand_dquoted(e, &n->children[1]);
		else
			expand_dquoted(e, n);
	} else {
		expand_dquoted(e, n);
	}
}

static void expand(struct expander *e, const struct shell_node *n, bool quoted)
{
	const char *s = e->src + n->start;
	size_t len = n->end - n->start;
	size_t bq_start, bq_end;
	if (n->kind == SN_TOKEN && len == 2 && s[0] == '$' && strchr("$!#?@*-0123456789", s[1])) {
		/* a special parameter the grammar left as a token (`a$$` after a
		 * byte it does not read): expanded by bash */
		add_var(e, s + 1, 1);
		if (!quoted)
			e->w->flags |= WORD_SPLIT;
		put_source(e, n, true);
		return;
	}
	switch ((enum shell_node_kind)n->kind) {
	case SN_WORD:
	case SN_NUMBER:
	case SN_TOKEN:
	case SN_VAR_NAME:
	case SN_SPECIAL_VAR:
	case SN_FILE_DESCRIPTOR:
		if (quoted)
			put_dquoted(e, s, len);
		else
			put_unquoted(e, s, len);
		/* backquotes the grammar left in a word (`st``tus`) run */
		if (n->kind == SN_WORD && shell_backquote_find(s, len, &bq_start, &bq_end))
			e->w->flags |= WORD_CMDSUBST | (quoted ? 0 : WORD_SPLIT);
		break;
	case SN_STRING_CONTENT:
		put_dquoted(e, s, len);
		break;
	case SN_RAW_STRING:
	case SN_ANSI_C_STRING:
	case SN_STRING:
	case SN_TRANSLATED_STRING:
		expand_quoted_string(e, n);
		break;
	case SN_CONCATENATION:
	case SN_VAR_ASSIGN: /* NAME=VALUE as one word (export A=b) */
		expand_children(e, n, quoted);
		break;
	case SN_SIMPLE_EXPANSION:
	case SN_EXPANSION:
		expand_param(e, n, quoted);
		break;
	case SN_CMD_SUBST:
		e->w->flags |= WORD_CMDSUBST | (quoted ? 0 : WORD_SPLIT);
		put_source(e, n, true);
		break;
	case SN_PROC_SUBST:
		e->w->flags |= WORD_PROCSUBST;
		put_source(e, n, true);
		break;
	case SN_ARITH_EXPANSION:
		e->w->flags |= WORD_ARITH;
		flag_nested(e, n);
		put_source(e, n, true);
		break;
	case SN_BRACE_EXPRESSION:
		e->w->flags |= WORD_BRACE;
		put_source(e, n, quoted);
		break;
	case SN_EXTGLOB:
		if (!quoted)
			e->w->flags |= WORD_GLOB;
		put_source(e, n, quoted);
		break;
	default:
		/* ERROR and shapes a word should not have: keep the text, say so */
		e->w->flags |= WORD_UNKNOWN;
		flag_nested(e, n);
		put_source(e, n, quoted);
		break;
	}
}

uint32_t shell_word_unquoted_flags(const char *t, const char *mask, size_t len)
{
	uint32_t flags = 0;
	size_t brace_open = SIZE_MAX;
	bool brace_sep = false;
	if (len > 0 && t[0] == '~' && mask[0] == 'u')
		flags |= WORD_TILDE;
	for (size_t i = 0; i < len; i++) {
		char c = t[i];
		if (mask[i] == 'v' && (c == '*' || c == '?' || c == '['))
			flags |= WORD_GLOB;
		if (mask[i] != 'u')
			continue;
		if (c == '*' || c == '?' || c == '[')
			flags |= WORD_GLOB;
		else if (c == '{' && brace_open == SIZE_MAX)
			brace_open = i;
		else if (brace_open != SIZE_MAX &&
		         (c == ',' || (c == '.' && i + 1 < len && t[i + 1] == '.')))
			brace_sep = true;
		else if (c == '}' && brace_open != SIZE_MAX && brace_sep)
			flags |= WORD_BRACE;
	}
	return flags;
}

int shell_word_expand(const char *src, const struct shell_node *n, shell_var_lookup_fn lookup,
                      void *userdata, struct shell_word *ret)
{
	memset(ret, 0, sizeof(*ret));
	struct expander e = {
		.src = src,
		.lookup = lookup,
		.userdata = userdata,
		.text = strbuf_init(SHELL_WORD_MAX_BYTES),
		.mask = strbuf_init(SHELL_WORD_MAX_BYTES),
		.w = ret,
	};
	/* quote removal only shortens a word: one allocation each, unless a
	 * resolved variable makes it longer */
	size_t guess = (size_t)(n->end - n->start) + 1;
	if (guess <= SHELL_WORD_MAX_BYTES) {
		if (strbuf_reserve(&e.text, guess) < 0 || strbuf_reserve(&e.mask, guess) < 0) {
			strbuf_done(&e.text);
			strbuf_done(&e.mask);
			return -ENOMEM;
		}
	}
	expand(&e, n, false);
	ret->lone_unquoted_var =
	        (n->kind == SN_SIMPLE_EXPANSION || n->kind == SN_EXPANSION) && !e.error;
	if (e.error) {
		strbuf_done(&e.text);
		strbuf_done(&e.mask);
		shell_word_done(ret);
		return e.error;
	}
	ret->flags |=
	        shell_word_unquoted_flags(strbuf_str(&e.text), strbuf_str(&e.mask), e.text.len);
	ret->text = strbuf_take(&e.text);
	ret->mask = strbuf_take(&e.mask);
	if (!ret->text || !ret->mask) {
		shell_word_done(ret);
		return -ENOMEM;
	}
	return 0;
}

void shell_word_done(struct shell_word *w)
{
	free(w->text);
	w->text = NULL;
	free(w->mask);
	w->mask = NULL;
	for (size_t i = 0; i < w->n_vars; i++)
		free(w->vars[i]);
	w->n_vars = 0;
}

bool shell_backquote_find(const char *s, size_t n, size_t *start, size_t *end)
{
	size_t i = 0;
	while (i < n && s[i] != '`')
		i += s[i] == '\\' ? 2 : 1;
	if (i >= n)
		return false;
	*start = ++i;
	while (i < n && s[i] != '`')
		i += s[i] == '\\' ? 2 : 1;
	*end = i < n ? i : n;
	return true;
}

char *shell_backquote_script(const char *s, size_t n)
{
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && strchr("\\`$", s[i + 1]))
			i++;
		out[o++] = s[i];
	}
	out[o] = '\0';
	return out;
}

bool shell_heredoc_is_quoted(const char *src, const struct shell_node *redirect)
{
	const struct shell_node *start = shell_node_find(redirect, SN_HEREDOC_START);
	if (!start)
		return false;
	for (uint32_t i = start->start; i < start->end; i++)
		if (src[i] == '\'' || src[i] == '"' || src[i] == '\\')
			return true;
	return false;
}

void shell_heredoc_unescape(char *body)
{
	size_t o = 0;
	for (size_t i = 0; body[i]; i++) {
		if (body[i] == '\\' && body[i + 1] == '\n') {
			i++;
			continue;
		}
		if (body[i] == '\\' && body[i + 1] && strchr("\\$`", body[i + 1]))
			i++;
		body[o++] = body[i];
	}
	body[o] = '\0';
}

bool shell_word_is_name(const char *s, size_t len)
{
	if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return false;
	}
	return true;
}
