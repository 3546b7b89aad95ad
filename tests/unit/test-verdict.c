/* SPDX-License-Identifier: MIT */
/*
 * The verdict: deny over ask over allow whatever the order, bounded reasons,
 * the interface's JSON, exit statuses, and the model's own reasons to ask.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <string.h>

#include "model/command-model.h"
#include "policy/verdict.h"

Test(verdict, combines_deny_over_ask_over_allow_in_any_order)
{
	static const enum verdict_kind orders[][3] = {
		{ VERDICT_ALLOW, VERDICT_ASK, VERDICT_DENY },
		{ VERDICT_DENY, VERDICT_ASK, VERDICT_ALLOW },
		{ VERDICT_ASK, VERDICT_DENY, VERDICT_ALLOW },
		{ VERDICT_ASK, VERDICT_ALLOW, VERDICT_ASK },
	};
	static const enum verdict_kind want[] = { VERDICT_DENY, VERDICT_DENY, VERDICT_DENY,
		                                  VERDICT_ASK };
	for (size_t i = 0; i < 4; i++) {
		struct verdict v;
		verdict_init(&v);
		for (size_t k = 0; k < 3; k++)
			cr_assert_eq(verdict_add(&v, orders[i][k], "p", "m", NULL), 0);
		cr_expect_eq(v.kind, want[i], "order %zu", i);
		verdict_done(&v);
	}
}

Test(verdict, maps_kinds_to_exit_statuses)
{
	struct verdict v;
	verdict_init(&v);
	cr_expect_eq(verdict_exit_status(&v), 0);
	verdict_add(&v, VERDICT_ASK, "p", "m", NULL);
	cr_expect_eq(verdict_exit_status(&v), 2);
	verdict_add(&v, VERDICT_DENY, "p", "m", NULL);
	cr_expect_eq(verdict_exit_status(&v), 1);
	verdict_done(&v);
}

Test(verdict, keeps_a_bounded_number_of_reasons_and_counts_the_rest)
{
	struct verdict v;
	verdict_init(&v);
	for (int i = 0; i < VERDICT_MAX_REASONS + 5; i++)
		verdict_add(&v, i == VERDICT_MAX_REASONS + 4 ? VERDICT_DENY : VERDICT_ASK, "p", "m",
		            NULL);
	cr_expect_eq(v.n_reasons, VERDICT_MAX_REASONS);
	cr_expect_eq(v.dropped, 5);
	cr_expect_eq(v.kind, VERDICT_DENY, "a dropped reason still combines");
	json_t *j = verdict_to_json(&v);
	cr_expect_eq(json_array_size(json_object_get(j, "reasons")), VERDICT_MAX_REASONS + 1,
	             "a last reason says how many were left out");
	json_decref(j);
	verdict_done(&v);
}

Test(verdict, cuts_long_messages_with_a_marker)
{
	char long_msg[VERDICT_MAX_TEXT * 2];
	memset(long_msg, 'x', sizeof(long_msg) - 1);
	long_msg[sizeof(long_msg) - 1] = '\0';
	struct verdict v;
	verdict_init(&v);
	verdict_add(&v, VERDICT_DENY, "p", long_msg, NULL);
	cr_expect_eq(strlen(v.reasons[0].message), VERDICT_MAX_TEXT);
	cr_expect_str_eq(v.reasons[0].message + VERDICT_MAX_TEXT - 3, "...");
	verdict_done(&v);
}

Test(verdict, renders_the_interface_json)
{
	struct verdict v;
	verdict_init(&v);
	verdict_add(&v, VERDICT_DENY, "git_push", "force push", "use --force-with-lease");
	verdict_add(&v, VERDICT_ASK, "sluice", "odd", NULL);
	json_t *j = verdict_to_json(&v);
	char *s = json_dumps(j, JSON_COMPACT);
	cr_expect_str_eq(s, "{\"verdict\":\"deny\",\"reasons\":[{\"plugin\":\"git_push\","
	                    "\"message\":\"force push\",\"suggestion\":\"use --force-with-lease\"},"
	                    "{\"plugin\":\"sluice\",\"message\":\"odd\",\"suggestion\":null}]}");
	free(s);
	json_decref(j);
	verdict_done(&v);
}

static enum verdict_kind model_verdict(const char *command, const char **first_message)
{
	struct command_model *m = NULL;
	cr_assert_eq(command_model_parse(NULL, command, strlen(command), NULL, &m, NULL), 0);
	static struct verdict v;
	verdict_done(&v);
	verdict_init(&v);
	cr_assert_eq(verdict_from_model(&v, m), 0);
	command_model_free(m);
	*first_message = v.n_reasons ? v.reasons[0].message : "";
	return v.kind;
}

Test(verdict, asks_when_the_model_cannot_see_everything)
{
	const char *msg;
	cr_expect_eq(model_verdict("git status && ls | wc -l", &msg), VERDICT_ALLOW);
	cr_expect_eq(model_verdict("$CMD -rf /", &msg), VERDICT_ASK);
	cr_expect(strstr(msg, "only known when it runs"), "%s", msg);
	cr_expect_eq(model_verdict("\"$(which rm)\" -rf /", &msg), VERDICT_ASK);
	cr_expect_eq(model_verdict("bash -c \"$SCRIPT\"", &msg), VERDICT_ASK);
	cr_expect_eq(model_verdict("curl -s x | sh", &msg), VERDICT_ASK);
	cr_expect_eq(model_verdict("rm -rf 'unterminated", &msg), VERDICT_ASK);
	cr_expect(strstr(msg, "partially understood"), "%s", msg);
	cr_expect_eq(model_verdict("G=git; $G push", &msg), VERDICT_ALLOW);
}

Test(verdict, asks_when_a_wrapper_option_is_not_understood)
{
	const char *msg;
	cr_expect_eq(model_verdict("sudo --frobnicate rm -rf x", &msg), VERDICT_ASK);
	cr_expect(strstr(msg, "'sudo' has an option sluice does not know"), "%s", msg);
	cr_expect_eq(model_verdict("timeout --bogus 5 rm x", &msg), VERDICT_ASK);
	cr_expect_eq(model_verdict("bash -c 'nice -Q 3 rm x'", &msg), VERDICT_ASK);
	/* known options, and options after which nothing runs, pass */
	cr_expect_eq(model_verdict("sudo -u root -E make install", &msg), VERDICT_ALLOW);
	cr_expect_eq(model_verdict("timeout --preserve-status -k 5 60 make", &msg), VERDICT_ALLOW);
	cr_expect_eq(model_verdict("chrt -p 42", &msg), VERDICT_ALLOW);
	cr_expect_eq(model_verdict("valgrind --leak-check=full --error-exitcode=1 ./a.out", &msg),
	             VERDICT_ALLOW);
}

Test(verdict, asks_for_a_shell_whose_language_is_not_bash)
{
	const char *msg;
	cr_expect_eq(model_verdict("fish -c 'ls; and rm -rf x'", &msg), VERDICT_ASK);
	cr_expect(strstr(msg, "shell language other than bash"), "%s", msg);
	cr_expect_eq(model_verdict("tcsh -c ls", &msg), VERDICT_ASK);
	cr_expect_eq(model_verdict("csh -c ls", &msg), VERDICT_ASK);
	cr_expect_eq(model_verdict("ksh -c ls", &msg), VERDICT_ALLOW);
	cr_expect_eq(model_verdict("busybox sh -c ls", &msg), VERDICT_ALLOW);
}

Test(verdict, names_the_limit_that_was_reached)
{
	struct command_model_limits l;
	command_model_limits_default(&l);
	l.max_commands = 1;
	struct command_model *m = NULL;
	cr_assert_eq(command_model_parse(NULL, "a; b", 4, &l, &m, NULL), 0);
	struct verdict v;
	verdict_init(&v);
	cr_assert_eq(verdict_from_model(&v, m), 0);
	cr_expect_eq(v.kind, VERDICT_ASK);
	cr_expect(strstr(v.reasons[0].message, "max-commands"), "%s", v.reasons[0].message);
	verdict_done(&v);
	command_model_free(m);
}
