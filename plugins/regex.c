/* SPDX-License-Identifier: MIT */
/*
 * regex: the administrator's pattern rules. Each rule has a name, a PCRE2
 * pattern (compiled with JIT), an action (deny or ask), a message, an
 * optional suggestion and a scope: `simple` (each simple command's
 * normalised text, wrappers and quotes removed, nested commands included) or
 * `command` (the whole command line as sent). Rules are read in file order:
 *     rule = NAME            starts a rule
 *     pattern = REGEX        (a second pattern starts another rule)
 *     action, message, suggestion, scope   apply to the rule above
 * PCRE2 is loaded when the first rule is compiled, not with the plugin: the
 * plugin opens in a fresh policy child for every request, and with no rules
 * (the built-in defaults) loading the library would be most of its cost.
 * Not for: anything the structured plugins can judge better.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "plugin-util.h"
#include "sluice/policy.h"

/* The library's file name with its ABI version, as a program linked
 * against it would record it. */
#define PCRE2_LIBRARY "libpcre2-8.so.0"
#define MAX_RULES 256
/* Backtracking budget per match: a rule that needs more fails closed. */
#define MATCH_LIMIT 1000000

struct rule {
	char name[64];
	const char *pattern; /* borrowed from the settings */
	size_t pattern_at;   /* its setting index, for errors */
	int action;
	const char *message;
	const char *suggestion;
	bool whole;
	pcre2_code *code;
	bool code_owned; /* false: the code is rx_cache's, shared between opens */
};

/* The rules grow as they are read: most configurations have none or a
 * few, and the plugin opens in a fresh child for every request. */
struct state {
	struct rule *rules;
	size_t n, allocated;
	pcre2_match_data *md;      /* NULL while there are no rules */
	pcre2_match_context *mctx; /* likewise */
};

/* The PCRE2 functions the rules use: X(name) for each pcre2_name. */
#define PCRE2_FUNCTIONS(X)      \
	X(compile)              \
	X(code_free)            \
	X(get_error_message)    \
	X(jit_compile)          \
	X(match)                \
	X(match_data_create)    \
	X(match_data_free)      \
	X(match_context_create) \
	X(match_context_free)   \
	X(set_match_limit)

/* Found by rx_load_pcre2(), before the first rule is compiled. */
static struct {
	void *dl;
#define PCRE2_POINTER(f) __typeof__(pcre2_##f) *f;
	PCRE2_FUNCTIONS(PCRE2_POINTER)
#undef PCRE2_POINTER
} rx_pcre2;

/* Load the library once; a failure is reported on setting i. */
static int rx_load_pcre2(const struct sluice_settings *s, size_t i)
{
	if (rx_pcre2.dl)
		return 0;
	char msg[512];
	void *dl = dlopen(PCRE2_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		snprintf(msg, sizeof(msg), "the rules need PCRE2, which cannot be loaded: %s",
		         dlerror());
		sluice_settings_error(s, i, msg);
		return -ENOENT;
	}
	/* The 8-bit library's symbols end in _8, as its header's macros say. */
#define PCRE2_FIND(f)                                                                           \
	rx_pcre2.f = (__typeof__(rx_pcre2.f))dlsym(dl, "pcre2_" #f "_8");                       \
	if (!rx_pcre2.f) {                                                                      \
		snprintf(msg, sizeof(msg), "%s has no function pcre2_" #f "_8", PCRE2_LIBRARY); \
		sluice_settings_error(s, i, msg);                                               \
		dlclose(dl);                                                                    \
		return -ENOENT;                                                                 \
	}
	PCRE2_FUNCTIONS(PCRE2_FIND)
#undef PCRE2_FIND
	rx_pcre2.dl = dl;
	return 0;
}

/* The patterns compiled so far, kept for the life of the process (the
 * policy child). A batch opens the plugin once per request, and compiling
 * every pattern again, with JIT, for each request was nearly all of a
 * batch's time with the rule packs on. A compiled pattern holds no state of
 * a match (that is in the match data, made per open), so one code serves
 * every open that has the same pattern text. Past the cap, patterns are
 * compiled per open as before. */
#define MAX_CACHED_PATTERNS (4 * MAX_RULES)
static struct {
	char *pattern;
	pcre2_code *code;
} rx_cache[MAX_CACHED_PATTERNS];
static size_t rx_cached;

static pcre2_code *rx_cache_find(const char *pattern)
{
	for (size_t i = 0; i < rx_cached; i++)
		if (strcmp(rx_cache[i].pattern, pattern) == 0)
			return rx_cache[i].code;
	return NULL;
}

/* Keeps code for later opens; false when it cannot (the caller owns it). */
static bool rx_cache_add(const char *pattern, pcre2_code *code)
{
	if (rx_cached >= MAX_CACHED_PATTERNS)
		return false;
	char *copy = strdup(pattern);
	if (!copy)
		return false;
	rx_cache[rx_cached].pattern = copy;
	rx_cache[rx_cached].code = code;
	rx_cached++;
	return true;
}

static void free_state(struct state *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->n; i++)
		if (st->rules[i].code && st->rules[i].code_owned)
			rx_pcre2.code_free(st->rules[i].code);
	if (st->md)
		rx_pcre2.match_data_free(st->md);
	if (st->mctx)
		rx_pcre2.match_context_free(st->mctx);
	free(st->rules);
	free(st);
}

static struct rule *new_rule(struct state *st, const struct sluice_settings *s, size_t i,
                             const char *name)
{
	if (st->n >= MAX_RULES) {
		sluice_settings_error(s, i, "too many rules (at most 256)");
		return NULL;
	}
	if (st->n == st->allocated) {
		size_t want = st->allocated ? 2 * st->allocated : 8;
		struct rule *grown = realloc(st->rules, want * sizeof(*grown));
		if (!grown) {
			sluice_settings_error(s, i, "out of memory");
			return NULL;
		}
		st->rules = grown;
		st->allocated = want;
	}
	struct rule *r = &st->rules[st->n++];
	*r = (struct rule){ 0 };
	r->action = SLUICE_DENY;
	r->pattern_at = i;
	if (name)
		snprintf(r->name, sizeof(r->name), "%s", name);
	else
		snprintf(r->name, sizeof(r->name), "rule %zu", st->n);
	return r;
}

static int compile(struct rule *r, const struct sluice_settings *s)
{
	r->code = rx_cache_find(r->pattern);
	if (r->code)
		return 0;
	int err;
	PCRE2_SIZE off;
	r->code = rx_pcre2.compile((PCRE2_SPTR)r->pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err,
	                           &off, NULL);
	if (!r->code) {
		PCRE2_UCHAR text[256];
		rx_pcre2.get_error_message(err, text, sizeof(text));
		char msg[512];
		snprintf(msg, sizeof(msg), "bad regular expression in rule '%s' at offset %zu: %s",
		         r->name, (size_t)off, (const char *)text);
		sluice_settings_error(s, r->pattern_at, msg);
		return -EINVAL;
	}
	/* the interpreter is the fallback */
	(void)rx_pcre2.jit_compile(r->code, PCRE2_JIT_COMPLETE);
	r->code_owned = !rx_cache_add(r->pattern, r->code);
	return 0;
}

/* Read the rules from the settings, in order. */
static int read_rules(struct state *st, const struct sluice_settings *s)
{
	struct rule *cur = NULL;
	for (size_t i = 0; i < sluice_settings_count(s); i++) {
		const char *k = sluice_settings_key(s, i), *val = sluice_settings_value(s, i);
		if (strcmp(k, "rule") == 0) {
			cur = new_rule(st, s, i, val);
			if (!cur)
				return st->n >= MAX_RULES ? -E2BIG : -ENOMEM;
			continue;
		}
		if (strcmp(k, "pattern") == 0) {
			if (!cur || cur->pattern)
				cur = new_rule(st, s, i, NULL);
			if (!cur)
				return st->n >= MAX_RULES ? -E2BIG : -ENOMEM;
			cur->pattern = val;
			cur->pattern_at = i;
			continue;
		}
		if (!cur) {
			sluice_settings_error(
			        s, i, "this key belongs to a rule: start one with 'rule = NAME'");
			return -EINVAL;
		}
		if (strcmp(k, "action") == 0) {
			cur->action = verdict_from_word(val);
			if (cur->action != SLUICE_DENY && cur->action != SLUICE_ASK) {
				sluice_settings_error(s, i, "action must be deny or ask");
				return -EINVAL;
			}
		} else if (strcmp(k, "message") == 0) {
			cur->message = val;
		} else if (strcmp(k, "suggestion") == 0) {
			cur->suggestion = val;
		} else if (strcmp(k, "scope") == 0) {
			if (strcmp(val, "command") != 0 && strcmp(val, "simple") != 0) {
				sluice_settings_error(s, i, "scope must be simple or command");
				return -EINVAL;
			}
			cur->whole = strcmp(val, "command") == 0;
		}
	}
	for (size_t i = 0; i < st->n; i++) {
		if (!st->rules[i].pattern) {
			sluice_settings_error(s, st->rules[i].pattern_at, "rule without a pattern");
			return -EINVAL;
		}
		int r = rx_load_pcre2(s, st->rules[i].pattern_at);
		if (r < 0)
			return r;
		r = compile(&st->rules[i], s);
		if (r < 0)
			return r;
	}
	return 0;
}

static int rx_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	sluice_init(host);
	struct state *st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	int r = read_rules(st, settings);
	if (r < 0) {
		free_state(st);
		return r;
	}
	if (st->n == 0) { /* nothing to match: no PCRE2 state either */
		*ret_state = st;
		return 0;
	}
	st->md = rx_pcre2.match_data_create(1, NULL);
	st->mctx = rx_pcre2.match_context_create(NULL);
	if (!st->md || !st->mctx) {
		free_state(st);
		return -ENOMEM;
	}
	rx_pcre2.set_match_limit(st->mctx, MATCH_LIMIT);
	*ret_state = st;
	return 0;
}

/* 1 on a match, 0 on none, < 0 when the match could not be decided. */
static int match(struct state *st, const struct rule *r, const char *text)
{
	int k = rx_pcre2.match(r->code, (PCRE2_SPTR)text, strlen(text), 0, 0, st->md, st->mctx);
	if (k >= 0)
		return 1;
	return k == PCRE2_ERROR_NOMATCH ? 0 : -EINVAL;
}

static int apply(struct state *st, const struct rule *r, const char *text, struct sluice_verdict *v)
{
	int m = match(st, r, text);
	char msg[512];
	if (m < 0) {
		snprintf(msg, sizeof(msg), "rule '%s' could not be evaluated (match limit)",
		         r->name);
		return sluice_verdict_add(v, SLUICE_DENY, msg, "simplify the command");
	}
	if (m == 0)
		return SLUICE_ALLOW;
	if (r->message)
		snprintf(msg, sizeof(msg), "%s (rule '%s')", r->message, r->name);
	else
		snprintf(msg, sizeof(msg), "matches the rule '%s'", r->name);
	return sluice_verdict_add(v, r->action, msg, r->suggestion);
}

static int rx_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	struct state *st = state;
	int verdict = SLUICE_ALLOW;
	for (size_t i = 0; i < st->n; i++) {
		const struct rule *r = &st->rules[i];
		int got = SLUICE_ALLOW;
		if (r->whole) {
			got = apply(st, r, sluice_command_source(cmd), v);
		} else {
			for (size_t j = 0; j < sluice_command_count(cmd) && got == SLUICE_ALLOW;
			     j++)
				got = apply(st, r, sluice_normalized(sluice_command_get(cmd, j)),
				            v);
		}
		if (got > verdict)
			verdict = got;
	}
	return verdict;
}

static void rx_close(void *state)
{
	free_state(state);
}

static const struct sluice_key keys[] = {
	{ "rule", SLUICE_KEY_REPEATABLE },
	{ "pattern", SLUICE_KEY_REPEATABLE | SLUICE_KEY_JOINABLE },
	{ "action", SLUICE_KEY_REPEATABLE },
	{ "message", SLUICE_KEY_REPEATABLE },
	{ "suggestion", SLUICE_KEY_REPEATABLE },
	{ "scope", SLUICE_KEY_REPEATABLE },
	{ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "regex",
	.description = "the administrator's deny and ask patterns (PCRE2)",
	.keys = keys,
	.open = rx_open,
	.check = rx_check,
	.close = rx_close,
};
