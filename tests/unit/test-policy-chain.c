/* SPDX-License-Identifier: MIT */
/*
 * broker/policy/policy-chain.c: plugins run in one forked child per request; a
 * crash, a hang, an error, an invalid verdict or garbage on the pipe makes
 * the broker refuse, naming the plugin (fail closed). Verdicts combine deny
 * over ask over allow with every reason kept; rewrites are decided again.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>

#include "policy/broker-context.h"
#include "agent/mcp-tools.h"
#include "policy/policy-chain-state.h"
#include "policy/policy-msg.h"
#include "policy-test-util.h"
#include "process-util.h"
#include "run/runner.h"

TestSuite(policy_chain, .init = ptu_setup, .fini = ptu_teardown, .timeout = 30);

/* The verdict of `echo hi` with one fixture configured as [plugin NAME];
 * returns what policy_chain_decide() did. */
static int decide_with(const char *variant, const char *extra, struct verdict *v,
                       struct broker_config **ret_cfg)
{
	char ini[2048];
	/* 300ms for the hang; a crash under a sanitizer takes a while to report */
	snprintf(ini, sizeof(ini), "[broker]\nplugin_timeout = %s\n[plugin broken]\npath = %s\n%s",
	         strcmp(variant, "hang") == 0 ? "300ms" : "20s", ptu_fixture(variant),
	         extra ? extra : "");
	struct broker_config *cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new(cfg, &chain, &err), 0, "%s", err.detail);
	cr_assert_eq(policy_chain_count(chain), 1);
	int r = ptu_decide(chain, "echo hi", v, NULL);
	cr_assert_geq(r, 0);
	policy_chain_free(chain);
	*ret_cfg = cfg;
	return r;
}

static void expect_refusal(const char *variant, const char *extra, const char *message)
{
	struct verdict v;
	struct broker_config *cfg = NULL;
	(void)decide_with(variant, extra, &v, &cfg);
	cr_assert_eq(v.kind, VERDICT_DENY, "%s: %s", variant, verdict_kind_name(v.kind));
	const struct verdict_reason *r = ptu_reason(&v, "broken");
	cr_assert_not_null(r, "%s: no reason names the plugin", variant);
	cr_assert(strstr(r->message, message), "%s: '%s' lacks '%s'", variant, r->message, message);
	verdict_done(&v);
	config_free(cfg);
}

Test(policy_chain, a_plugin_that_crashes_is_a_deny_naming_it)
{
#if defined(__SANITIZE_ADDRESS__)
	/* the sanitizer catches the SEGV (and keeps its handler), reports, exits */
	expect_refusal("segv", NULL, "plugin 'broken' exited (status ");
#else
	expect_refusal("segv", NULL, "plugin 'broken' crashed (Segmentation fault) while checking");
#endif
}

Test(policy_chain, a_plugin_that_hangs_is_killed_and_denied)
{
	expect_refusal("hang", NULL, "plugin 'broken' did not answer within 300ms while checking");
}

Test(policy_chain, an_invalid_verdict_is_a_deny)
{
	expect_refusal("bad_verdict", NULL,
	               "plugin 'broken' sent an invalid reply while checking: invalid verdict 7");
}

Test(policy_chain, garbage_on_the_pipe_is_a_deny)
{
	expect_refusal("garbage", NULL, "plugin 'broken' sent an invalid reply while checking");
}

Test(policy_chain, a_message_after_the_last_done_is_a_deny_counted_as_a_failure)
{
	/* check() forges its RESULT and the DONE, then one byte more: the
	 * byte after the end is the plugin's invalid reply */
	struct verdict v;
	struct broker_config *cfg = NULL;
	int r = decide_with("ok", "forge_done = yes\n", &v, &cfg);
	cr_assert_gt(r, 0, "the plugin that failed is not counted");
	cr_assert_eq(v.kind, VERDICT_DENY, "%s", verdict_kind_name(v.kind));
	const struct verdict_reason *reason = ptu_reason(&v, "broken");
	cr_assert_not_null(reason, "no reason names the plugin");
	cr_assert(strstr(reason->message, "plugin 'broken' sent an invalid reply"), "%s",
	          reason->message);
	verdict_done(&v);
	config_free(cfg);
}

Test(policy_chain, a_check_error_is_a_deny)
{
	expect_refusal("error", NULL, "plugin 'broken' failed while checking: Input/output error");
}

Test(policy_chain, a_plugin_that_cannot_open_is_a_configuration_error)
{
	/* [broker] 2 lines; [plugin broken] at 3, path 4, the setting at 5 */
	char ini[2048];
	snprintf(ini, sizeof(ini),
	         "[broker]\nplugin_timeout = 20s\n[plugin broken]\npath = %s\n"
	         "verdict = allow\n",
	         ptu_fixture("open_fails"));
	struct broker_config *cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new(cfg, &chain, &err), -EINVAL);
	cr_assert(strstr(err.detail, "plugin 'broken' could not start: "), "%s", err.detail);
	cr_assert(strstr(err.detail, "/test.ini:5: broken value"), "%s", err.detail);
	config_free(cfg);
}

Test(policy_chain, a_plugin_that_stops_opening_later_is_a_deny_naming_the_setting)
{
	struct verdict v;
	struct broker_config *cfg = NULL;
	unsetenv("SLUICE_FX_FAIL_OPEN");
	char ini[2048];
	snprintf(ini, sizeof(ini), "[plugin broken]\npath = %s\nverdict = allow\n",
	         ptu_fixture("open_fails_late"));
	cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new(cfg, &chain, &err), 0, "%s", err.detail);
	setenv("SLUICE_FX_FAIL_OPEN", "1", 1);
	cr_assert_eq(ptu_decide(chain, "echo hi", &v, NULL), 1);
	cr_assert_eq(v.kind, VERDICT_DENY);
	const struct verdict_reason *r = ptu_reason(&v, "broken");
	cr_assert_not_null(r);
	cr_assert(strstr(r->message, "plugin 'broken' could not start: "), "%s", r->message);
	cr_assert(strstr(r->message, "/test.ini:3: broken later"), "%s", r->message);
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);
}

Test(policy_chain, verdicts_combine_deny_over_ask_over_allow_keeping_every_reason)
{
	char ini[4096];
	snprintf(ini, sizeof(ini),
	         "[plugin a]\npath = %s\nverdict = allow\n"
	         "[plugin b]\npath = %s\nverdict = ask\nmessage = b asks\nsuggestion = try b\n"
	         "[plugin c]\npath = %s\nverdict = deny\nmessage = c denies\n",
	         ptu_fixture("ok"), ptu_fixture("ok"), ptu_fixture("ok"));
	struct broker_config *cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new(cfg, &chain, &err), 0, "%s", err.detail);
	struct verdict v;
	cr_assert_eq(ptu_decide(chain, "echo hi", &v, NULL), 0);
	cr_assert_eq(v.kind, VERDICT_DENY);
	cr_assert_eq(v.n_reasons, 2);
	cr_assert_str_eq(ptu_reason(&v, "b")->message, "b asks");
	cr_assert_str_eq(ptu_reason(&v, "b")->suggestion, "try b");
	cr_assert_eq(ptu_reason(&v, "b")->kind, VERDICT_ASK);
	cr_assert_str_eq(ptu_reason(&v, "c")->message, "c denies");
	cr_assert_null(ptu_reason(&v, "c")->suggestion);
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);

	snprintf(ini, sizeof(ini),
	         "[plugin a]\npath = %s\nverdict = allow\n[plugin b]\npath = %s\nverdict = ask\n",
	         ptu_fixture("ok"), ptu_fixture("ok"));
	cfg = ptu_config(ini, true);
	cr_assert_eq(policy_chain_new(cfg, &chain, &err), 0, "%s", err.detail);
	cr_assert_eq(ptu_decide(chain, "echo hi", &v, NULL), 0);
	cr_assert_eq(v.kind, VERDICT_ASK);
	cr_assert_str_eq(ptu_reason(&v, "b")->message, "approval required by plugin 'b'",
	                 "a verdict without a reason still gets one");
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);
}

Test(policy_chain, a_crash_after_good_plugins_still_denies)
{
	char ini[2048];
	snprintf(
	        ini, sizeof(ini),
	        "[broker]\nplugin_timeout = 20s\n[plugin good]\npath = %s\n[plugin crashy]\npath = %s\n",
	        ptu_fixture("ok"), ptu_fixture("segv"));
	struct broker_config *cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new(cfg, &chain, &err), 0, "%s", err.detail);
	struct verdict v;
	int r = ptu_decide(chain, "echo hi", &v, NULL);
	cr_assert_eq(r, 1, "one plugin failed, got %d (%zu reasons: %s)", r, v.n_reasons,
	             v.n_reasons ? v.reasons[0].message : "");
	cr_assert_eq(v.kind, VERDICT_DENY);
	cr_assert_not_null(ptu_reason(&v, "crashy"));
	cr_assert_null(ptu_reason(&v, "good"));
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);
}

Test(policy_chain, a_rewrite_is_decided_again_and_returned)
{
	char ini[2048];
	snprintf(ini, sizeof(ini), "[plugin rw]\npath = %s\nrewrite = echo rewritten\n",
	         ptu_fixture("ok"));
	struct broker_config *cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new(cfg, &chain, &err), 0, "%s", err.detail);
	struct verdict v;
	char *rewrite = NULL;
	cr_assert_eq(ptu_decide(chain, "echo hi", &v, &rewrite), 0);
	cr_assert_eq(v.kind, VERDICT_ALLOW);
	cr_assert_str_eq(rewrite, "echo rewritten");
	free(rewrite);
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);
}

Test(policy_chain, no_plugins_means_the_model_alone_decides)
{
	struct broker_config *cfg = ptu_config("", true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new(cfg, &chain, &err), 0, "%s", err.detail);
	cr_assert_eq(policy_chain_count(chain), 0);
	struct verdict v;
	cr_assert_eq(ptu_decide(chain, "git add -A", &v, NULL), 0);
	cr_assert_eq(v.kind, VERDICT_ALLOW);
	verdict_done(&v);
	cr_assert_eq(ptu_decide(chain, "$CMD x", &v, NULL), 0);
	cr_assert_eq(v.kind, VERDICT_ASK, "the model's own concerns stay");
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);
}

Test(policy_chain, a_missing_plugin_refuses_to_build_the_chain)
{
	struct broker_config *cfg =
	        ptu_config("[plugin ghost]\npath = /nonexistent/ghost.so\n", true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new(cfg, &chain, &err), -ENOENT);
	cr_assert(strstr(err.detail, "plugin 'ghost' ("), "%s", err.detail);
	cr_assert(strstr(err.detail, "/test.ini:1): cannot find /nonexistent/ghost.so"), "%s",
	          err.detail);
	config_free(cfg);
}

/* ------------------------------------------------------------ batches */

/* Check commands[0..n) (at most 8) in one policy_chain_check_many() call of
 * a lazy chain configured by ini; v[0..n) get the verdicts. None proposes a
 * rewrite. */
static void check_batch_ini(const char *ini, const char **commands, size_t n, struct verdict *v)
{
	struct broker_config *cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new_lazy(cfg, &chain, &err), 0, "%s", err.detail);
	struct command_model_parser *parser = NULL;
	cr_assert_eq(command_model_parser_new(&parser), 0);
	struct command_model *m[8] = { 0 };
	struct policy_check items[8];
	cr_assert_leq(n, 8);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(command_model_parse(parser, commands[i], strlen(commands[i]), NULL,
		                                 &m[i], &err),
		             0, "%s", err.detail);
		verdict_init(&v[i]);
		items[i] = (struct policy_check){ .model = m[i], .v = &v[i] };
	}
	cr_assert_eq(policy_chain_check_many(chain, items, n), 0);
	for (size_t i = 0; i < n; i++) {
		cr_assert_null(items[i].rewrite);
		command_model_free(m[i]);
	}
	command_model_parser_free(parser);
	policy_chain_free(chain);
	config_free(cfg);
}

/* check_batch_ini() with a fixture [plugin good] (fx_ok: ask) and [plugin
 * broken] (variant, misbehaving only on commands that contain "bad"). */
static void check_batch_with(const char *variant, const char *timeout, const char **commands,
                             size_t n, struct verdict *v)
{
	char ini[2048];
	snprintf(ini, sizeof(ini),
	         "[broker]\nplugin_timeout = %s\n"
	         "[plugin good]\npath = %s\nverdict = ask\nmessage = good asks\n"
	         "[plugin broken]\npath = %s\nwhen = bad\n",
	         timeout, ptu_fixture("ok"), ptu_fixture(variant));
	check_batch_ini(ini, commands, n, v);
}

/* Models other than the bad one: good's ask, and nothing from broken. */
static void expect_untouched(const struct verdict *v, const char *which)
{
	cr_assert_eq(v->kind, VERDICT_ASK, "%s: %s", which, verdict_kind_name(v->kind));
	cr_assert_eq(v->n_reasons, 1, "%s", which);
	cr_assert_str_eq(ptu_reason(v, "good")->message, "good asks");
	cr_assert_null(ptu_reason(v, "broken"), "%s", which);
}

static void expect_batch_refusal(const char *variant, const char *timeout, const char *message)
{
	const char *commands[] = { "echo one", "echo two", "echo bad", "echo four", "echo five" };
	struct verdict v[5];
	check_batch_with(variant, timeout, commands, 5, v);
	expect_untouched(&v[0], "before");
	expect_untouched(&v[1], "just before");
	cr_assert_eq(v[2].kind, VERDICT_DENY);
	const struct verdict_reason *r = ptu_reason(&v[2], "broken");
	cr_assert_not_null(r, "no reason names the plugin");
	cr_assert(strstr(r->message, message), "'%s' lacks '%s'", r->message, message);
	cr_assert_str_eq(ptu_reason(&v[2], "good")->message, "good asks");
	expect_untouched(&v[3], "just after");
	expect_untouched(&v[4], "after");
	for (size_t i = 0; i < 5; i++)
		verdict_done(&v[i]);
}

Test(policy_chain, a_crash_in_a_batch_denies_that_model_only)
{
#if defined(__SANITIZE_ADDRESS__)
	expect_batch_refusal("segv", "20s", "plugin 'broken' exited (status ");
#else
	expect_batch_refusal("segv", "20s",
	                     "plugin 'broken' crashed (Segmentation fault) while checking");
#endif
}

Test(policy_chain, a_hang_in_a_batch_denies_that_model_only)
{
	expect_batch_refusal("hang", "300ms",
	                     "plugin 'broken' did not answer within 300ms while checking");
}

Test(policy_chain, garbage_in_a_batch_denies_that_model_only)
{
	expect_batch_refusal("garbage", "20s",
	                     "plugin 'broken' sent an invalid reply while checking");
}

Test(policy_chain, a_crash_on_the_last_model_of_a_batch_keeps_the_others)
{
	const char *commands[] = { "echo one", "echo bad" };
	struct verdict v[2];
	check_batch_with("error", "20s", commands, 2, v);
	expect_untouched(&v[0], "first");
	cr_assert_eq(v[1].kind, VERDICT_DENY);
	cr_assert(strstr(ptu_reason(&v[1], "broken")->message,
	                 "plugin 'broken' failed while checking: Input/output error"));
	verdict_done(&v[0]);
	verdict_done(&v[1]);
}

Test(policy_chain, a_lazy_chain_reports_a_plugin_that_cannot_start_as_a_configuration_error)
{
	char ini[2048];
	snprintf(ini, sizeof(ini), "[plugin broken]\npath = %s\nverdict = allow\n",
	         ptu_fixture("open_fails"));
	struct broker_config *cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new_lazy(cfg, &chain, &err), 0, "%s", err.detail);
	struct verdict v;
	cr_assert_eq(ptu_decide(chain, "echo hi", &v, NULL), -ENOEXEC);
	const char *why = policy_chain_start_error(chain);
	cr_assert(strstr(why, "plugin 'broken' could not start: "), "%s", why);
	cr_assert(strstr(why, "/test.ini:3: broken value"), "%s", why);
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);
}

/* ------------------------------------------------------------ lazy chains */

/* A lazy chain (one-shot verbs): the plugin is loaded in the child only. */
static struct policy_chain *lazy_chain(const char *variant, const char *extra,
                                       struct broker_config **ret_cfg)
{
	char ini[2048];
	snprintf(ini, sizeof(ini), "[plugin broken]\npath = %s\n%s", ptu_fixture(variant), extra);
	*ret_cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new_lazy(*ret_cfg, &chain, &err), 0, "%s", err.detail);
	return chain;
}

Test(policy_chain, a_lazy_chain_checks_in_its_child_never_loading_the_plugin_here)
{
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = lazy_chain("ok", "verdict = ask\n", &cfg);
	cr_assert_eq(policy_chain_count(chain), 1);
	struct verdict v;
	cr_assert_eq(ptu_decide(chain, "echo hi", &v, NULL), 0);
	cr_assert_eq(v.kind, VERDICT_ASK, "the plugin ran: %s", verdict_kind_name(v.kind));
	cr_assert_null(policy_chain_get(chain, 0)->dl);
	cr_assert_not(ptu_maps_file("fx_ok.so"), "the plugin's code is mapped in the parent");
	/* the check returned at the child's last message; the reap waits for it */
	policy_chain_reap(chain);
	errno = 0;
	cr_assert_eq(waitpid(-1, NULL, WNOHANG), -1, "a child is left after the reap");
	cr_assert_eq(errno, ECHILD);
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);
}

Test(policy_chain, a_lazy_chain_names_a_crash_as_the_validating_one_does)
{
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = lazy_chain("segv", "", &cfg);
	struct verdict v;
	cr_assert_geq(ptu_decide(chain, "echo hi", &v, NULL), 0);
	cr_assert_eq(v.kind, VERDICT_DENY);
	const struct verdict_reason *r = ptu_reason(&v, "broken");
	cr_assert_not_null(r);
#if defined(__SANITIZE_ADDRESS__)
	cr_assert(strstr(r->message, "plugin 'broken' exited (status "), "%s", r->message);
#else
	cr_assert(strstr(r->message, "plugin 'broken' crashed (Segmentation fault) while checking"),
	          "%s", r->message);
#endif
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);
}

Test(policy_chain, a_lazy_chain_reports_a_plugin_that_cannot_load_as_a_start_error)
{
	struct broker_config *cfg =
	        ptu_config("[plugin ghost]\npath = /nonexistent/ghost.so\n", true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new_lazy(cfg, &chain, &err), 0, "%s", err.detail);
	struct verdict v;
	cr_assert_eq(ptu_decide(chain, "echo hi", &v, NULL), -ENOEXEC);
	const char *why = policy_chain_start_error(chain);
	cr_assert(strstr(why, "plugin 'ghost' ("), "%s", why);
	cr_assert(strstr(why, "): cannot find /nonexistent/ghost.so"), "%s", why);
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);
}

/* ------------------------------------------------------------ prepared children */

static struct command_model_parser *new_parser(void)
{
	struct command_model_parser *parser = NULL;
	cr_assert_eq(command_model_parser_new(&parser), 0);
	return parser;
}

/* What a test of prepared children made, freed (the chain first: it
 * withdraws and reaps a child still waiting). */
static void free_all(struct policy_chain *chain, struct broker_config *cfg,
                     struct command_model_parser *parser)
{
	policy_chain_free(chain);
	config_free(cfg);
	command_model_parser_free(parser);
}

/* A validating chain of the plugins ini configures. */
static struct policy_chain *validated_chain(const char *ini, struct broker_config **ret_cfg)
{
	*ret_cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new(*ret_cfg, &chain, &err), 0, "%s", err.detail);
	return chain;
}

/* A validating chain of one fixture, its child forked ahead. */
static struct policy_chain *prepared_chain(const char *variant, const char *extra,
                                           struct command_model_parser *parser,
                                           struct broker_config **ret_cfg)
{
	char ini[2048];
	snprintf(ini, sizeof(ini), "[plugin broken]\npath = %s\n%s", ptu_fixture(variant), extra);
	struct policy_chain *chain = validated_chain(ini, ret_cfg);
	cr_assert_eq(policy_chain_prepare(chain, parser), 0);
	return chain;
}

/* The verdict of command through chain (parsed with parser). */
static int decide_parsed(struct policy_chain *chain, struct command_model_parser *parser,
                         const char *command, struct verdict *v)
{
	struct command_model *m = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(command_model_parse(parser, command, strlen(command), NULL, &m, &err), 0);
	verdict_init(v);
	char *rewrite = NULL;
	int r = policy_chain_decide(chain, parser, m, v, &rewrite);
	free(rewrite);
	command_model_free(m);
	return r;
}

/* command, decided through chain, comes out as kind. */
static void expect_verdict(struct policy_chain *chain, struct command_model_parser *parser,
                           const char *command, enum verdict_kind kind)
{
	struct verdict v;
	cr_assert_eq(decide_parsed(chain, parser, command, &v), 0, "%s", command);
	cr_assert_eq(v.kind, kind, "%s: %s", command, verdict_kind_name(v.kind));
	verdict_done(&v);
}

/* This process has no child left (none waiting, none exiting). */
static void expect_no_child(const char *when)
{
	errno = 0;
	cr_assert_eq(waitpid(-1, NULL, WNOHANG), -1, "a child is left %s", when);
	cr_assert_eq(errno, ECHILD);
}

Test(policy_chain, a_child_forked_ahead_checks_the_next_command_and_names_a_crash)
{
	struct command_model_parser *parser = new_parser();
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = prepared_chain("segv", "", parser, &cfg);
	struct verdict v;
	cr_assert_geq(decide_parsed(chain, parser, "echo hi", &v), 0);
	cr_assert_eq(v.kind, VERDICT_DENY);
	const struct verdict_reason *r = ptu_reason(&v, "broken");
	cr_assert_not_null(r);
	cr_assert(strstr(r->message, "plugin 'broken' "), "%s", r->message);
	verdict_done(&v);
	free_all(chain, cfg, parser);
}

Test(policy_chain, a_child_forked_ahead_sees_the_command_sent_and_serves_one_request)
{
	struct command_model_parser *parser = new_parser();
	struct broker_config *cfg = NULL;
	/* the fixture asks only on commands with "needle": which verdict comes
	 * back shows which command reached the child */
	struct policy_chain *chain =
	        prepared_chain("ok", "verdict = ask\nwhen = needle\n", parser, &cfg);
	expect_verdict(chain, parser, "ls needle", VERDICT_ASK);
	/* the next request forks afresh, and sees its own command */
	expect_verdict(chain, parser, "ls hay", VERDICT_ALLOW);
	cr_assert_eq(policy_chain_prepare(chain, parser), 0);
	expect_verdict(chain, parser, "ls hay", VERDICT_ALLOW);
	policy_chain_reap(chain);
	expect_no_child("after the reap");
	free_all(chain, cfg, parser);
}

Test(policy_chain, the_child_forked_ahead_is_the_one_that_checks)
{
	struct command_model_parser *parser = new_parser();
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = prepared_chain(
	        "ok", "verdict = ask\nwhen = needle\nopen_crash = SLUICE_FX_CRASH_OPEN\n", parser,
	        &cfg);
	/* forked ahead before this: only a child forked from now on crashes
	 * opening, so the plugin's own verdict can only come from that child */
	cr_assert_eq(setenv("SLUICE_FX_CRASH_OPEN", "1", 1), 0);
	expect_verdict(chain, parser, "ls needle", VERDICT_ASK);
	free_all(chain, cfg, parser);
	expect_no_child("after the free");
}

Test(policy_chain, a_bash_call_refused_before_its_decision_leaves_the_child_forked_ahead_unused)
{
	/* a server's worker: its context armed, the child forked ahead, the
	 * bash call prepared (the child forked ahead serves the decision) */
	char ini[2048], path[600];
	snprintf(ini, sizeof(ini),
	         "[plugin ahead]\npath = %s\nverdict = ask\nopen_crash = SLUICE_FX_CRASH_OPEN\n",
	         ptu_fixture("ok"));
	config_free(ptu_config(ini, true)); /* writes it, as test.ini */
	snprintf(path, sizeof(path), "%s/test.ini", ptu_tmp);
	struct mcp_context mc = { .root = ptu_tmp };
	struct sluice_error err = { 0 };
	cr_assert_eq(broker_context_open(path, &mc.settings, &mc.policies, &err), 0, "%s",
	             err.detail);
	cr_assert_eq(broker_context_arm(mc.policies, &err), 0, "%s", err.detail);
	broker_context_prepare(mc.policies);
	/* from now on a child forked afresh crashes opening */
	cr_assert_eq(setenv("SLUICE_FX_CRASH_OPEN", "1", 1), 0);
	struct run_outcome o;
	run_outcome_init(&o, &mc.settings);
	struct mcp_call_io io = { .cancel_fd = -1, .prepared = &o };
	/* refused before the policies decide: its command goes nowhere */
	json_t *args =
	        json_pack("{s:s, s:s}", "command", "echo needle", "directory", "no-such-directory");
	cr_assert_not_null(args);
	json_t *res = mcp_tools_call(&mc, "bash", args, &io);
	cr_assert_not_null(res);
	cr_assert(json_is_true(json_object_get(res, "isError")), "the call was not refused");
	json_decref(res);
	json_decref(args);
	/* so the next decision is still the child's forked ahead: the plugin's
	 * own ask, not a crash of a child forked afresh */
	struct run_request req = { .command = (char *)"echo hay", .command_len = 8 };
	struct policy_decision d;
	cr_assert_eq(
	        broker_context_decide(mc.policies, &req, ptu_tmp, ASK_TO_CALLER, NULL, &d, &err), 0,
	        "%s", err.detail);
	const struct verdict_reason *why = verdict_main_reason(&d.verdict);
	cr_assert_eq(d.verdict.kind, VERDICT_ASK, "%s: %s", verdict_kind_name(d.verdict.kind),
	             why ? why->message : "");
	policy_decision_done(&d);
	broker_context_free(mc.policies);
	expect_no_child("after the free");
}

Test(policy_chain, a_child_forked_ahead_and_never_used_is_withdrawn)
{
	struct command_model_parser *parser = new_parser();
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = prepared_chain("ok", "", parser, &cfg);
	errno = 0;
	cr_assert_eq(waitpid(-1, NULL, WNOHANG), 0, "the child waits");
	free_all(chain, cfg, parser);
	expect_no_child("after the free");
}

Test(policy_chain, a_strict_check_withdraws_the_child_forked_ahead_it_does_not_use)
{
	struct command_model_parser *parser = new_parser();
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = prepared_chain("ok", "", parser, &cfg);
	cr_assert_eq(policy_proc_state(&chain->ahead), POLICY_PROC_READY);
	/* a check again in a strict child (recheck_strictly()'s, set here as
	 * it sets it) forks its own: the one forked ahead is not used */
	chain->strict = true;
	expect_verdict(chain, parser, "ls hay", VERDICT_ALLOW);
	chain->strict = false;
	cr_assert_eq(policy_proc_state(&chain->ahead), POLICY_PROC_NONE,
	             "the child forked ahead is left waiting");
	policy_chain_reap(chain);
	expect_no_child("after the strict check and the reap");
	free_all(chain, cfg, parser);
}

Test(policy_chain, a_lazy_chain_child_forked_ahead_loads_the_plugin_itself)
{
	struct command_model_parser *parser = new_parser();
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = lazy_chain("ok", "verdict = ask\nwhen = needle\n", &cfg);
	cr_assert_eq(policy_chain_prepare(chain, parser), 0);
	expect_verdict(chain, parser, "ls needle", VERDICT_ASK);
	cr_assert_not(ptu_maps_file("fx_ok.so"), "the plugin's code is mapped in the parent");
	free_all(chain, cfg, parser);
}

Test(policy_chain, a_text_sent_ahead_is_checked_only_when_it_is_the_command_decided)
{
	struct command_model_parser *parser = new_parser();
	struct broker_config *cfg = NULL;
	struct policy_chain *chain =
	        prepared_chain("ok", "verdict = ask\nwhen = needle\n", parser, &cfg);
	/* sent ahead and decided: the child that parsed it answers */
	policy_chain_send_ahead(chain, "ls needle", strlen("ls needle"));
	expect_verdict(chain, parser, "ls needle", VERDICT_ASK);
	/* sent ahead, but another command decided: never the stale verdict */
	cr_assert_eq(policy_chain_prepare(chain, parser), 0);
	policy_chain_send_ahead(chain, "ls needle", strlen("ls needle"));
	expect_verdict(chain, parser, "ls hay", VERDICT_ALLOW);
	free_all(chain, cfg, parser);
	expect_no_child("after the free");
}

/* Wait (at most 5 s) for path to exist. */
static void wait_for_file(const char *path, const char *why)
{
	for (int i = 0; i < 500 && access(path, F_OK) < 0; i++)
		usleep(10 * 1000);
	cr_assert_eq(access(path, F_OK), 0, "%s", why);
}

Test(policy_chain, a_child_forked_ahead_opens_its_plugins_before_the_command_arrives)
{
	struct command_model_parser *parser = new_parser();
	char mark[512], extra[600];
	snprintf(mark, sizeof(mark), "%s/opened", ptu_tmp);
	snprintf(extra, sizeof(extra), "verdict = ask\nwhen = needle\nopen_mark = %s\n", mark);
	char ini[2048];
	snprintf(ini, sizeof(ini), "[plugin ahead]\npath = %s\n%s", ptu_fixture("ok"), extra);
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = validated_chain(ini, &cfg);
	(void)unlink(mark); /* the validation's open made it */
	cr_assert_eq(policy_chain_prepare(chain, parser), 0);
	/* no command was sent: the child opens its plugin anyway */
	wait_for_file(mark, "the plugin was not opened ahead of its command");
	/* and the state it opened checks the command that came */
	expect_verdict(chain, parser, "ls needle", VERDICT_ASK);
	free_all(chain, cfg, parser);
	expect_no_child("after the free");
}

Test(policy_chain, a_plugin_that_crashes_opening_ahead_is_named)
{
	struct command_model_parser *parser = new_parser();
	char ini[2048];
	snprintf(ini, sizeof(ini),
	         "[plugin first]\npath = %s\n[plugin second]\npath = %s\n"
	         "open_crash = SLUICE_FX_CRASH_OPEN\n",
	         ptu_fixture("ok"), ptu_fixture("ok"));
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = validated_chain(ini, &cfg);
	/* validated; from now on the second plugin's open crashes */
	cr_assert_eq(setenv("SLUICE_FX_CRASH_OPEN", "1", 1), 0);
	cr_assert_eq(policy_chain_prepare(chain, parser), 0);
	struct verdict v;
	cr_assert_geq(decide_parsed(chain, parser, "echo hi", &v), 0);
	cr_assert_eq(v.kind, VERDICT_DENY);
	/* the crash happened before the child began a plugin, yet the refusal
	 * names the plugin that crashed, not the first one */
	const struct verdict_reason *r = ptu_reason(&v, "second");
	cr_assert_not_null(r, "no reason names the plugin that crashed");
	cr_assert(strstr(r->message, "plugin 'second' ") && strstr(r->message, "while starting"),
	          "%s", r->message);
	cr_assert_null(ptu_reason(&v, "first"), "the refusal blames the first plugin");
	verdict_done(&v);
	free_all(chain, cfg, parser);
	expect_no_child("after the free");
}

Test(policy_chain, a_descriptor_a_plugin_opened_is_still_open_when_it_checks)
{
	struct command_model_parser *parser = new_parser();
	struct broker_config *cfg = NULL;
	/* check denies when the descriptor its open kept is gone */
	struct policy_chain *chain = prepared_chain("ok", "open_keep_fd = yes\n", parser, &cfg);
	expect_verdict(chain, parser, "ls", VERDICT_ALLOW);
	/* and in a child of its own, not forked ahead */
	expect_verdict(chain, parser, "ls", VERDICT_ALLOW);
	free_all(chain, cfg, parser);
	expect_no_child("after the free");
}

Test(policy_chain, a_child_forked_ahead_stuck_opening_holds_no_request_past_the_timeout)
{
	char ini[2048];
	snprintf(ini, sizeof(ini),
	         "[broker]\nplugin_timeout = 300ms\nmax_command_size = 131071\n"
	         "[plugin stuck]\npath = %s\nopen_hang = SLUICE_FX_HANG_OPEN\n",
	         ptu_fixture("ok"));
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = validated_chain(ini, &cfg);
	/* validated; from now on the plugin's open never returns */
	cr_assert_eq(setenv("SLUICE_FX_HANG_OPEN", "1", 1), 0);
	struct command_model_parser *parser = new_parser();
	/* more than a pipe holds, and a child stuck opening never reads it */
	size_t len = 100 * 1024;
	char *big = malloc(len + 1);
	cr_assert_not_null(big);
	memcpy(big, "true #", 6);
	memset(big + 6, 'x', len - 6);
	big[len] = '\0';
	struct command_model_limits limits;
	command_model_limits_default(&limits);
	limits.max_command_bytes = cfg->broker_max_command_size;
	struct command_model *m = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(command_model_parse(parser, big, len, &limits, &m, &err), 0, "%s", err.detail);
	cr_assert_eq(command_model_source_len(m), len);
	/* the command handed over when decided (round 0), or sent ahead */
	for (int round = 0; round < 2; round++) {
		cr_assert_eq(policy_chain_prepare(chain, parser), 0);
		if (round == 1)
			policy_chain_send_ahead(chain, big, len);
		struct verdict v;
		verdict_init(&v);
		char *rewrite = NULL;
		cr_assert_gt(policy_chain_decide(chain, parser, m, &v, &rewrite), 0, "round %d",
		             round);
		free(rewrite);
		cr_assert_eq(v.kind, VERDICT_DENY, "round %d", round);
		const struct verdict_reason *r = ptu_reason(&v, "stuck");
		cr_assert_not_null(r, "round %d: no reason names the plugin", round);
		cr_assert(strstr(r->message, "plugin 'stuck' did not answer within 300ms while "
		                             "starting"),
		          "round %d: %s", round, r->message);
		verdict_done(&v);
	}
	/* one stuck opening and never sent anything is withdrawn all the same */
	cr_assert_eq(policy_chain_prepare(chain, parser), 0);
	free_all(chain, cfg, parser);
	expect_no_child("after the free");
	command_model_free(m);
	free(big);
}

Test(policy_chain, a_plugin_stuck_opening_ahead_is_named_after_one_timeout)
{
	char mark[512], ini[2048];
	snprintf(mark, sizeof(mark), "%s/opened", ptu_tmp);
	snprintf(ini, sizeof(ini),
	         "[broker]\nplugin_timeout = 300ms\n"
	         "[plugin stuck]\npath = %s\nopen_hang = SLUICE_FX_HANG_OPEN\nopen_mark = %s\n",
	         ptu_fixture("ok"), mark);
	struct broker_config *cfg = NULL;
	struct policy_chain *chain = validated_chain(ini, &cfg);
	/* validated; from now on the plugin's open never returns */
	cr_assert_eq(setenv("SLUICE_FX_HANG_OPEN", "1", 1), 0);
	(void)unlink(mark); /* the validation's open made it */
	struct command_model_parser *parser = new_parser();
	cr_assert_eq(policy_chain_prepare(chain, parser), 0);
	wait_for_file(mark, "the child forked ahead did not reach the plugin's open");
	(void)unlink(mark);
	struct verdict v;
	cr_assert_gt(decide_parsed(chain, parser, "echo hi", &v), 0);
	cr_assert_eq(v.kind, VERDICT_DENY);
	const struct verdict_reason *r = ptu_reason(&v, "stuck");
	cr_assert_not_null(r, "no reason names the plugin");
	cr_assert(strstr(r->message, "plugin 'stuck' did not answer within 300ms while starting"),
	          "%s", r->message);
	/* named from the child that was stuck: no second child opened the
	 * plugin, to hang a second timeout long */
	cr_assert_neq(access(mark, F_OK), 0, "the plugin was opened a second time");
	verdict_done(&v);
	free_all(chain, cfg, parser);
	expect_no_child("after the free");
}

Test(policy_chain, a_child_forked_ahead_does_not_outlive_its_parent)
{
	char ini[2048];
	snprintf(ini, sizeof(ini), "[plugin stuck]\npath = %s\nopen_hang = SLUICE_FX_HANG_OPEN\n",
	         ptu_fixture("ok"));
	int ready[2];
	cr_assert_eq(pipe(ready), 0);
	pid_t parent = fork();
	cr_assert_geq(parent, 0);
	if (parent == 0) {
		/* a server: its child forked ahead is stuck in a plugin's open */
		struct broker_config *cfg = NULL;
		struct policy_chain *chain = validated_chain(ini, &cfg);
		setenv("SLUICE_FX_HANG_OPEN", "1", 1);
		if (policy_chain_prepare(chain, new_parser()) < 0)
			_exit(1);
		(void)!write(ready[1], "r", 1);
		for (;;)
			pause();
	}
	close(ready[1]);
	char c;
	cr_assert_eq(read(ready[0], &c, 1), 1, "the chain was not prepared");
	close(ready[0]);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)parent, (int)parent);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	int child = 0;
	cr_assert_eq(fscanf(f, "%d", &child), 1, "no child forked ahead");
	fclose(f);
	struct process_ref ahead = process_ref(child); /* alive: it waits */
	/* the server dies (say, killed): its waiting child goes with it */
	cr_assert_eq(kill(parent, SIGKILL), 0);
	cr_assert_eq(waitpid(parent, NULL, 0), parent);
	bool gone = process_ref_gone_within(ahead, 2000);
	if (!gone)
		process_ref_kill(ahead);
	cr_assert(gone, "the child forked ahead (%d) outlived its parent", child);
}

/* ------------------------------------------------------------ message batches */

/* The next message on fd: its header checked against the table, its first
 * string (or NULL) into *s0. */
static struct policy_msg_header next_message(int fd, char *payload, size_t cap, const char **s0)
{
	struct policy_msg_header h;
	cr_assert_eq(read(fd, &h, sizeof(h)), (ssize_t)sizeof(h), "a whole header");
	cr_assert_leq(h.len, cap);
	size_t got = 0;
	while (got < h.len) {
		ssize_t n = read(fd, payload + got, h.len - got);
		cr_assert_gt(n, 0, "the payload ends early");
		got += (size_t)n;
	}
	const char *strings[2] = { NULL, NULL };
	cr_assert_eq(policy_msg_check(&h, payload, strings, 2), 0, "type %u is malformed", h.type);
	*s0 = strings[0];
	return h;
}

Test(policy_chain, a_message_batch_writes_nothing_until_flushed_then_all_in_order)
{
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	cr_assert_eq(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
	struct policy_msg_batch b = { .fd = fds[1] };
	const char *short_text[] = { "short" };
	cr_assert_eq(policy_msg_add(&b, POLICY_MSG_BEGIN, 0, POLICY_PHASE_OPEN, NULL, 0), 0);
	cr_assert_eq(policy_msg_add(&b, POLICY_MSG_OPEN_FAILED, 0, -EINVAL, short_text, 1), 0);
	char probe;
	cr_assert_eq(read(fds[0], &probe, 1), -1, "written before the flush");
	cr_assert_eq(errno, EAGAIN);
	/* one larger than the batch: written after what the batch held (all of
	 * it fits in a pipe's default 64 KiB) */
	size_t long_len = sizeof(b.buf) * 3;
	char *long_text = malloc(long_len + 1);
	cr_assert_not_null(long_text);
	memset(long_text, 'x', long_len);
	long_text[long_len] = '\0';
	const char *long_strings[] = { long_text };
	cr_assert_eq(policy_msg_add(&b, POLICY_MSG_LOAD_FAILED, 1, -ENOEXEC, long_strings, 1), 0);
	cr_assert_eq(policy_msg_add(&b, POLICY_MSG_DONE, 0, 0, NULL, 0), 0);
	cr_assert_eq(policy_msg_flush(&b), 0);

	static char payload[POLICY_MSG_MAX_PAYLOAD];
	const char *s0;
	struct policy_msg_header h = next_message(fds[0], payload, sizeof(payload), &s0);
	cr_assert_eq(h.type, POLICY_MSG_BEGIN);
	h = next_message(fds[0], payload, sizeof(payload), &s0);
	cr_assert_eq(h.type, POLICY_MSG_OPEN_FAILED);
	cr_assert_str_eq(s0, "short");
	h = next_message(fds[0], payload, sizeof(payload), &s0);
	cr_assert_eq(h.type, POLICY_MSG_LOAD_FAILED);
	cr_assert_eq(h.plugin, 1);
	cr_assert_eq(strlen(s0), long_len);
	h = next_message(fds[0], payload, sizeof(payload), &s0);
	cr_assert_eq(h.type, POLICY_MSG_DONE);
	cr_assert_eq(read(fds[0], &probe, 1), -1, "more than was added");
	free(long_text);
	close(fds[0]);
	close(fds[1]);
}

/* Garbage on one line, then a hang on the next: the child has left the
 * garbage's model (it is stuck in the next one) when the parent reads the
 * garbage, so the plugin is named by checking that model again alone, and
 * the hang is still the next model's own. */
Test(policy_chain, garbage_then_a_hang_names_each_plugin_in_its_own_model)
{
	char ini[2048];
	snprintf(ini, sizeof(ini),
	         "[broker]\nplugin_timeout = 400ms\n"
	         "[plugin good]\npath = %s\nverdict = ask\nmessage = good asks\n"
	         "[plugin broken]\npath = %s\nwhen = bad\n"
	         "[plugin stuck]\npath = %s\nwhen = slow\n",
	         ptu_fixture("ok"), ptu_fixture("garbage"), ptu_fixture("hang"));
	const char *commands[] = { "echo one", "echo bad", "echo slow", "echo four" };
	struct verdict v[4];
	check_batch_ini(ini, commands, 4, v);
	expect_untouched(&v[0], "before");
	cr_assert_eq(v[1].kind, VERDICT_DENY);
	const struct verdict_reason *r = ptu_reason(&v[1], "broken");
	cr_assert_not_null(r, "no reason names the plugin that sent garbage");
	cr_assert(strstr(r->message, "plugin 'broken' sent an invalid reply while checking"), "%s",
	          r->message);
	cr_assert_null(ptu_reason(&v[1], "stuck"));
	cr_assert_eq(v[2].kind, VERDICT_DENY);
	r = ptu_reason(&v[2], "stuck");
	cr_assert_not_null(r, "no reason names the plugin that hung");
	cr_assert(strstr(r->message, "did not answer within 400ms while checking"), "%s",
	          r->message);
	cr_assert_null(ptu_reason(&v[2], "broken"));
	expect_untouched(&v[3], "after");
	for (size_t i = 0; i < 4; i++)
		verdict_done(&v[i]);
}

/* A plugin that closes the pipe is named, not the plugin after it: the
 * child only finds out when it writes the command's messages, after every
 * plugin ran, so the command is checked again alone, writing before each
 * plugin. The commands before and after keep their verdicts. */
Test(policy_chain, a_plugin_that_closes_the_pipe_is_named_not_the_one_after_it)
{
	char ini[2048];
	snprintf(ini, sizeof(ini),
	         "[broker]\nplugin_timeout = 20s\n"
	         "[plugin closer]\npath = %s\nwhen = bad\n"
	         "[plugin good]\npath = %s\nverdict = ask\nmessage = good asks\n",
	         ptu_fixture("close_pipe"), ptu_fixture("ok"));
	const char *commands[] = { "echo one", "echo bad", "echo three" };
	struct verdict v[3];
	check_batch_ini(ini, commands, 3, v);
	for (size_t i = 0; i < 3; i += 2) {
		cr_assert_eq(v[i].kind, VERDICT_ASK, "%s: %s", commands[i],
		             verdict_kind_name(v[i].kind));
		cr_assert_null(ptu_reason(&v[i], "closer"), "%s", commands[i]);
	}
	cr_assert_eq(v[1].kind, VERDICT_DENY);
	const struct verdict_reason *r = ptu_reason(&v[1], "closer");
	cr_assert_not_null(r, "the plugin that closed the pipe is not named");
	cr_assert(strstr(r->message, "plugin 'closer'"), "%s", r->message);
	const struct verdict_reason *g = ptu_reason(&v[1], "good");
	cr_assert(!g || strcmp(g->message, "good asks") == 0, "good is blamed: %s", g->message);
	for (size_t i = 0; i < 3; i++)
		verdict_done(&v[i]);
}
