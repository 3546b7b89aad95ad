/* SPDX-License-Identifier: MIT */
/*
 * common/user-ids.c: the --user-ids text both ways, and the lookup that the
 * broker passes on (root and an unknown name; every machine has the one
 * and lacks the other).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user-ids.h"

Test(user_ids, text_goes_both_ways)
{
	struct user_ids u = {
		.uid = 1001, .gid = 1002, .groups = { 1002, 27, 4294967294u }, .n_groups = 3
	};
	char *text = NULL;
	cr_assert_eq(user_ids_format(&u, &text), 0);
	cr_assert_str_eq(text, "1001:1002:1002,27,4294967294");
	struct user_ids back;
	cr_assert_eq(user_ids_parse(text, &back), 0);
	cr_assert_eq(back.uid, 1001);
	cr_assert_eq(back.gid, 1002);
	cr_assert_eq(back.n_groups, 3);
	cr_assert_eq(back.groups[2], 4294967294u);
	free(text);

	struct user_ids none = { .uid = 5, .gid = 6 };
	cr_assert_eq(user_ids_format(&none, &text), 0);
	cr_assert_str_eq(text, "5:6", "no groups, no third field");
	cr_assert_eq(user_ids_parse(text, &back), 0);
	cr_assert_eq(back.n_groups, 0);
	free(text);
}

Test(user_ids, refuses_other_text)
{
	static const char *const bad[] = {
		"",    "1",    "1:",       "1:2:", "1:2:3,", ":1:2",         "-1:2",         "1:-2",
		"a:b", "1:2x", "1:2:3,,4", "1 :2", "1:2:3 ", "4294967295:1", "1:99999999999"
	};
	struct user_ids u;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(user_ids_parse(bad[i], &u), -EINVAL, "'%s' was taken", bad[i]);
}

Test(user_ids, takes_at_most_the_cap_of_groups)
{
	static char text[16 + (USER_IDS_GROUPS_MAX + 1) * 2];
	size_t len = (size_t)snprintf(text, sizeof(text), "1:1");
	for (int i = 0; i < USER_IDS_GROUPS_MAX; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%c7", i ? ',' : ':');
	struct user_ids u;
	cr_assert_eq(user_ids_parse(text, &u), 0, "exactly the cap");
	cr_assert_eq(u.n_groups, USER_IDS_GROUPS_MAX);
	snprintf(text + len, sizeof(text) - len, ",7");
	cr_assert_eq(user_ids_parse(text, &u), -E2BIG, "one more");
}

Test(user_ids, looks_up_root_and_refuses_an_unknown_name)
{
	struct user_ids u;
	struct sluice_error err = { 0 };
	cr_assert_eq(user_ids_lookup("root", &u, &err), 0, "%s", err.detail);
	cr_assert_eq(u.uid, 0);
	cr_assert_eq(u.gid, 0);
	cr_assert_geq(u.n_groups, 1, "the primary group is among the groups");
	cr_assert_eq(u.groups[0], 0);
	cr_assert_eq(user_ids_lookup("no-such-user-here", &u, &err), -ENOENT);
	cr_assert(strstr(err.detail, "unknown user 'no-such-user-here'"), "%s", err.detail);
}
