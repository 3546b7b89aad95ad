/* SPDX-License-Identifier: MIT */
/*
 * struct user_ids: lookup, the switch to the ids, and the --user-ids text
 * both ways.
 * Not for: the launcher's privileges step (capabilities, checks).
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "parse-number.h"
#include "user-ids.h"

int user_ids_lookup(const char *name, struct user_ids *ret, struct sluice_error *reterr)
{
	struct passwd pwbuf, *pw = NULL;
	char buf[4096];
	*ret = (struct user_ids){ 0 };
	int e = getpwnam_r(name, &pwbuf, buf, sizeof(buf), &pw);
	if (!pw)
		return sluice_error_set(reterr, e ? -e : -ENOENT, "unknown user '%s'", name);
	ret->uid = pw->pw_uid;
	ret->gid = pw->pw_gid;
	int n = USER_IDS_GROUPS_MAX;
	if (getgrouplist(name, pw->pw_gid, ret->groups, &n) < 0)
		return sluice_error_set(reterr, -E2BIG, "user '%s' is in more than %d groups", name,
		                        USER_IDS_GROUPS_MAX);
	ret->n_groups = (size_t)n;
	return 0;
}

int user_ids_become(const struct user_ids *u, const char **step)
{
	*step = "setgroups";
	if (setgroups(u->n_groups, u->groups) < 0)
		return neg_errno();
	*step = "setresgid";
	if (setresgid(u->gid, u->gid, u->gid) < 0)
		return neg_errno();
	*step = "setresuid";
	if (setresuid(u->uid, u->uid, u->uid) < 0)
		return neg_errno();
	return 0;
}

int user_ids_format(const struct user_ids *u, char **ret)
{
	/* each id at most 10 digits and a separator */
	size_t cap = 24 + 11 * u->n_groups, len;
	char *s = malloc(cap);
	if (!s)
		return -ENOMEM;
	len = (size_t)snprintf(s, cap, "%u:%u", (unsigned)u->uid, (unsigned)u->gid);
	for (size_t i = 0; i < u->n_groups; i++)
		len += (size_t)snprintf(s + len, cap - len, "%c%u", i ? ',' : ':',
		                        (unsigned)u->groups[i]);
	*ret = s;
	return 0;
}

/* One decimal id below (uid_t)-1, which means "no change" to setresuid(2);
 * returns the end of it, or NULL. */
static const char *parse_id(const char *p, uint32_t *ret)
{
	uint64_t v;
	const char *end;
	if (parse_uint64_prefix(p, UINT32_MAX - 1, &v, &end) < 0)
		return NULL;
	*ret = (uint32_t)v;
	return end;
}

int user_ids_parse(const char *text, struct user_ids *ret)
{
	uint32_t id;
	*ret = (struct user_ids){ 0 };
	const char *p = parse_id(text, &id);
	if (!p || *p != ':')
		return -EINVAL;
	ret->uid = id;
	p = parse_id(p + 1, &id);
	if (!p || (*p != ':' && *p != '\0'))
		return -EINVAL;
	ret->gid = id;
	if (*p == '\0')
		return 0;
	do {
		if (ret->n_groups == USER_IDS_GROUPS_MAX)
			return -E2BIG;
		p = parse_id(p + 1, &id);
		if (!p || (*p != ',' && *p != '\0'))
			return -EINVAL;
		ret->groups[ret->n_groups++] = id;
	} while (*p == ',');
	return 0;
}
