/* SPDX-License-Identifier: MIT */
/*
 * A core key's value, by the key's type (config-keys.h lists the types):
 * parsed from its INI text into its field of struct broker_config, and
 * formatted back as the INI spells it.
 * Not for: locks and layers (config-parse.c), cross-key checks
 * (config-checks.c).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "config/config-key-table.h"
#include "config/config-value.h"
#include "parse-number.h"
#include "strv.h"

void *config_value_field(struct broker_config *cfg, const struct config_key *k)
{
	return (char *)cfg + k->offset;
}

int config_value_parse_bool(const char *v, bool *ret)
{
	static const struct {
		const char *word;
		bool value;
	} words[] = { { "yes", true }, { "true", true },   { "on", true },   { "1", true },
		      { "no", false }, { "false", false }, { "off", false }, { "0", false } };
	for (size_t i = 0; i < ELEMENTSOF(words); i++)
		if (strcasecmp(v, words[i].word) == 0) {
			*ret = words[i].value;
			return 0;
		}
	return -EINVAL;
}

/* The word at index i of "a|b|c" (*ret_len bytes, not NUL-terminated), or
 * NULL past the last. */
static const char *choice_at(const char *choices, int i, size_t *ret_len)
{
	const char *c = choices;
	for (; c && i > 0; i--) {
		c = strchr(c, '|');
		if (c)
			c++;
	}
	if (!c)
		return NULL;
	const char *bar = strchr(c, '|');
	*ret_len = bar ? (size_t)(bar - c) : strlen(c);
	return c;
}

static int choice_index(const char *choices, const char *v)
{
	size_t vlen = strlen(v), n;
	const char *c;
	for (int i = 0; (c = choice_at(choices, i, &n)); i++)
		if (n == vlen && strncmp(c, v, n) == 0)
			return i;
	return -EINVAL;
}

/* config_choice_name() for a key already found. */
static const char *key_choice_name(const struct config_key *k, int value)
{
	static char buf[64];
	size_t n;
	const char *c = k->choices && value >= 0 ? choice_at(k->choices, value, &n) : NULL;
	if (!c || n >= sizeof(buf))
		return NULL;
	memcpy(buf, c, n);
	buf[n] = '\0';
	return buf;
}

const char *config_choice_name(const char *section, const char *key, int value)
{
	const struct config_key *k = config_key_find(section, key);
	return k ? key_choice_name(k, value) : NULL;
}

static bool valid_env_name(const char *s, size_t n)
{
	if (n == 0 || isdigit((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

int config_value_append_words(char ***l, const char *v)
{
	_cleanup_free_ char *copy = strdup(v);
	if (!copy)
		return -ENOMEM;
	char *save = NULL;
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (strv_length(*l) >= CONFIG_MAX_WORDS)
			return -E2BIG;
		int r = strv_extend(l, w);
		if (r < 0)
			return r;
	}
	return 0;
}

/* STRING and PATH: a copy of v. */
static int set_text(const struct config_key *k, char **f, const char *v, const char **why)
{
	if (k->type == CONFIG_PATH && *v && *v != '/') {
		*why = "an absolute path";
		return -EINVAL;
	}
	char *s = strdup(v);
	if (!s)
		return -ENOMEM;
	free(*f);
	*f = s;
	return 0;
}

/* DURATION, SIZE and the OPT_ kinds (empty: CONFIG_UNSET). */
static int set_number(const struct config_key *k, uint64_t *f, const char *v, const char **why)
{
	bool optional = k->type == CONFIG_OPT_DURATION || k->type == CONFIG_OPT_SIZE ||
	                k->type == CONFIG_OPT_COUNT;
	if (optional && !*v) {
		*f = CONFIG_UNSET;
		return 0;
	}
	uint64_t n = 0;
	int r;
	if (k->type == CONFIG_DURATION || k->type == CONFIG_OPT_DURATION) {
		r = parse_duration_ms(v, UINT64_MAX / 2, &n);
		*why = "a duration such as 500ms, 30s, 15m or 24h";
	} else if (k->type == CONFIG_SIZE || k->type == CONFIG_OPT_SIZE) {
		const struct config_key_bound *b = config_key_bound(k);
		r = parse_size(v, b ? b->max : UINT64_MAX / 2, &n);
		*why = b && r == -ERANGE ? b->why : "a size such as 4096, 128KiB or 64MiB";
	} else {
		r = parse_uint64(v, UINT64_MAX / 2, &n);
		*why = "a whole number";
	}
	if (r < 0)
		return r == -ENOMEM ? r : -EINVAL;
	*f = n;
	return 0;
}

/* WORDS and ASSIGN: appended; an empty value clears the list. */
static int set_list(const struct config_key *k, char ***f, const char *v, const char **why)
{
	if (!*v) {
		*f = strv_free(*f);
		return 0;
	}
	if (k->type == CONFIG_WORDS) {
		int r = config_value_append_words(f, v);
		*why = "at most 1024 words";
		return r == -E2BIG ? -EINVAL : r;
	}
	const char *eq = strchr(v, '=');
	if (!eq || !valid_env_name(v, (size_t)(eq - v))) {
		*why = "NAME=VALUE with a valid variable name";
		return -EINVAL;
	}
	return strv_extend(f, v);
}

int config_value_set(struct broker_config *cfg, const struct config_key *k, const char *v,
                     const char **why)
{
	void *f = config_value_field(cfg, k);
	switch (k->type) {
	case CONFIG_PATH:
	case CONFIG_STRING:
		return set_text(k, f, v, why);
	case CONFIG_DURATION:
	case CONFIG_OPT_DURATION:
	case CONFIG_SIZE:
	case CONFIG_OPT_SIZE:
	case CONFIG_OPT_COUNT:
		return set_number(k, f, v, why);
	case CONFIG_BOOL:
		*why = "yes or no";
		return config_value_parse_bool(v, f);
	case CONFIG_ENUM: {
		int r = choice_index(k->choices, v);
		if (r < 0) {
			*why = k->choices;
			return r;
		}
		*(int *)f = r;
		return 0;
	}
	case CONFIG_WORDS:
	case CONFIG_ASSIGN:
		return set_list(k, f, v, why);
	}
	return -EINVAL;
}

void config_value_format_size(uint64_t v, char *buf, size_t size)
{
	static const char *const units[] = { "", "KiB", "MiB", "GiB", "TiB" };
	size_t u = 0;
	while (u + 1 < ELEMENTSOF(units) && v && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%llu%s", (unsigned long long)v, units[u]);
}

char *config_format_value(const struct broker_config *cfg, const struct config_key *k, char *buf,
                          size_t size)
{
	const void *f = (const char *)cfg + k->offset;
	uint64_t v;
	buf[0] = '\0';
	switch (k->type) {
	case CONFIG_STRING:
	case CONFIG_PATH:
		snprintf(buf, size, "%s", *(char *const *)f ? *(char *const *)f : "");
		break;
	case CONFIG_DURATION:
	case CONFIG_OPT_DURATION:
		v = *(const uint64_t *)f;
		if (v != CONFIG_UNSET)
			format_duration_ms(v, buf, (unsigned)size);
		break;
	case CONFIG_SIZE:
	case CONFIG_OPT_SIZE:
		v = *(const uint64_t *)f;
		if (v != CONFIG_UNSET)
			config_value_format_size(v, buf, size);
		break;
	case CONFIG_OPT_COUNT:
		v = *(const uint64_t *)f;
		if (v != CONFIG_UNSET)
			snprintf(buf, size, "%llu", (unsigned long long)v);
		break;
	case CONFIG_BOOL:
		snprintf(buf, size, "%s", *(const bool *)f ? "yes" : "no");
		break;
	case CONFIG_ENUM: {
		const char *name = key_choice_name(k, *(const int *)f);
		snprintf(buf, size, "%s", name ? name : "?");
		break;
	}
	case CONFIG_WORDS:
	case CONFIG_ASSIGN: {
		size_t used = 0;
		STRV_FOREACH (w, *(char **const *)f) {
			int n = snprintf(buf + used, size - used, "%s%s", used ? " " : "", *w);
			if (n < 0 || (size_t)n >= size - used)
				break;
			used += (size_t)n;
		}
		break;
	}
	}
	return buf;
}
