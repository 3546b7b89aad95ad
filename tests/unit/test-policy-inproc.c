/* SPDX-License-Identifier: MIT */
/*
 * The built-in plugins checked in the broker's own process
 * (policy/policy-inproc.c): a chain of built-ins alone forks no child, and
 * a crash or a hang of one is named as a child's is -- each compared with
 * the same code configured as a path, which a child runs. The built-ins'
 * module is fx_builtins.so (tests/plugins/fixture.c) copied as builtins.so
 * into a plugin directory of the test's own.
 * Not for: the child's own checks (test-policy-chain.c).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "policy/policy-chain.h"
#include "policy-test-util.h"

/* Under AddressSanitizer the built-ins are checked in a child too
 * (policy-inproc.c says why). */
#if defined(__SANITIZE_ADDRESS__)
#define CHECKED_HERE false
#else
#define CHECKED_HERE true
#endif

TestSuite(policy_inproc, .init = ptu_setup, .fini = ptu_teardown, .timeout = 30);

/* The plugin directory with the stand-in builtins.so, made once a test. */
static const char *builtins_dir(void)
{
	static char dir[600];
	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/plugins", ptu_tmp);
	cr_assert_eq(mkdir(dir, 0755), 0);
	char so[700];
	snprintf(so, sizeof(so), "%s/builtins.so", dir);
	FILE *in = fopen(ptu_fixture("builtins"), "rb");
	FILE *out = fopen(so, "wb");
	cr_assert(in && out, "copying the fixture to %s", so);
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		cr_assert_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	cr_assert_eq(fclose(out), 0);
	cr_assert_eq(setenv("SLUICE_PLUGIN_DIR", dir, 1), 0);
	return dir;
}

/* The verdict of command with git_add alone, set up by settings: a
 * built-in (as_path false) or the same file as a third-party plugin's
 * path. *ret_here: whether it was checked in this process (the module
 * mapped here after the check, which a child's check never maps) and left
 * no child to reap (one that answered is reaped at the next check). */
static void decide_git_add_as(const char *settings, bool as_path, bool allowed, const char *command,
                              struct verdict *v, bool *ret_here)
{
	char ini[2048];
	/* 300ms for the hangs; a crash, a child's above all, may take longer */
	snprintf(ini, sizeof(ini), "[broker]\nplugin_timeout = %s\n[plugin git_add]\n%s%s%s%s",
	         strstr(settings, "hang") ? "300ms" : "20s", as_path ? "path = " : "",
	         as_path ? builtins_dir() : "", as_path ? "/builtins.so\n" : "", settings);
	(void)builtins_dir();
	struct broker_config *cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new_lazy(cfg, &chain, &err), 0, "%s", err.detail);
	if (allowed)
		policy_chain_allow_in_process(chain);
	cr_assert_eq(policy_chain_count(chain), 1);
	cr_assert_geq(ptu_decide(chain, command, v, NULL), 0);
	char so[700];
	snprintf(so, sizeof(so), "%s/builtins.so", builtins_dir());
	errno = 0;
	bool no_child = waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD;
	*ret_here = ptu_maps_file(so) && no_child;
	policy_chain_free(chain);
	config_free(cfg);
}

/* As `sluice run` checks: in this process where it may. */
static void decide_git_add(const char *settings, bool as_path, const char *command,
                           struct verdict *v, bool *ret_here)
{
	decide_git_add_as(settings, as_path, true, command, v, ret_here);
}

/* git_add's refusal of command with settings: the same message from the
 * built-in (in this process, no child) as from its path (a child), and it
 * contains expected. */
static void expect_named_both_ways(const char *settings, const char *command, const char *expected)
{
	struct verdict here, child;
	bool here_here, child_here;
	decide_git_add(settings, false, command, &here, &here_here);
	decide_git_add(settings, true, command, &child, &child_here);
	cr_assert_eq(here_here, CHECKED_HERE, "the built-in was checked %s",
	             here_here ? "here" : "in a child");
	cr_assert_not(child_here, "the plugin configured as a path was checked here");
	cr_assert_eq(here.kind, VERDICT_DENY, "%s", verdict_kind_name(here.kind));
	const struct verdict_reason *r = ptu_reason(&here, "git_add");
	const struct verdict_reason *c = ptu_reason(&child, "git_add");
	cr_assert(r && c, "a reason names git_add");
	cr_assert_str_eq(r->message, c->message);
	cr_assert(strstr(r->message, expected), "'%s' lacks '%s'", r->message, expected);
	verdict_done(&here);
	verdict_done(&child);
}

Test(policy_inproc, built_ins_alone_are_checked_here_without_a_child)
{
	struct verdict v;
	bool here;
	decide_git_add("verdict = ask\nmessage = asks\n", false, "echo hi", &v, &here);
	cr_assert_eq(v.kind, VERDICT_ASK, "the plugin ran: %s", verdict_kind_name(v.kind));
	cr_assert_str_eq(ptu_reason(&v, "git_add")->message, "asks");
	cr_assert_eq(here, CHECKED_HERE, "the built-in was checked %s",
	             here ? "here" : "in a child");
	verdict_done(&v);
	/* the control: as a path, the same plugin runs in a child */
	decide_git_add("verdict = ask\nmessage = asks\n", true, "echo hi", &v, &here);
	cr_assert_eq(v.kind, VERDICT_ASK);
	cr_assert_str_eq(ptu_reason(&v, "git_add")->message, "asks");
	cr_assert_not(here);
	verdict_done(&v);
}

Test(policy_inproc, only_where_the_caller_allows_it)
{
	/* a hook: a broker that died or hung in a plugin would read as no
	 * objection to the agent, so a child checks there as before */
	struct verdict v;
	bool here;
	decide_git_add_as("verdict = ask\nmessage = asks\n", false, false, "echo hi", &v, &here);
	cr_assert_eq(v.kind, VERDICT_ASK, "the plugin ran: %s", verdict_kind_name(v.kind));
	cr_assert_not(here, "checked here without the caller's leave");
	verdict_done(&v);
}

#if !defined(__SANITIZE_ADDRESS__) /* there a child checks them (policy-inproc.c) */
Test(policy_inproc, a_crash_is_named_as_in_a_child)
{
	expect_named_both_ways("crash = segv\n", "echo hi",
	                       "plugin 'git_add' crashed (Segmentation fault) while checking");
}

Test(policy_inproc, an_abort_is_named_as_in_a_child)
{
	expect_named_both_ways("crash = abort\n", "echo hi",
	                       "plugin 'git_add' crashed (Aborted) while checking");
}

Test(policy_inproc, a_stack_overflow_is_named_as_in_a_child)
{
	expect_named_both_ways("crash = stack\n", "echo hi",
	                       "plugin 'git_add' crashed (Segmentation fault) while checking");
}

Test(policy_inproc, a_crash_while_starting_is_named_as_in_a_child)
{
	cr_assert_eq(setenv("FX_CRASH_NOW", "1", 1), 0);
	expect_named_both_ways("open_crash = FX_CRASH_NOW\n", "echo hi",
	                       "plugin 'git_add' crashed (Segmentation fault) while starting");
}
#endif

Test(policy_inproc, a_loop_past_the_timeout_is_named_as_in_a_child)
{
	expect_named_both_ways("hang = spin\n", "echo hi",
	                       "plugin 'git_add' did not answer within 300ms while checking");
	expect_named_both_ways("hang = pause\n", "echo hi",
	                       "plugin 'git_add' did not answer within 300ms while checking");
}

/* The timer that ends a pass comes where it comes: most often, in this
 * loop, inside malloc or free, holding the allocator's lock. A jump out of
 * there would leave the lock held, and the broker would hang at its next
 * allocation, answering nothing (the test's timeout). Four passes: one
 * jump from inside the allocator is all but certain without the guard. */
Test(policy_inproc, a_loop_in_the_allocator_past_the_timeout_is_named_as_in_a_child)
{
	for (int i = 0; i < 4; i++)
		expect_named_both_ways(
		        "hang = malloc\n", "echo hi",
		        "plugin 'git_add' did not answer within 300ms while checking");
}

#if !defined(__SANITIZE_ADDRESS__)
Test(policy_inproc, after_a_crash_the_next_check_is_a_childs_and_the_signals_are_as_before)
{
	struct sigaction segv_before, alrm_before, segv_after, alrm_after;
	sigset_t mask_before, mask_after;
	cr_assert_eq(sigaction(SIGSEGV, NULL, &segv_before), 0);
	cr_assert_eq(sigaction(SIGALRM, NULL, &alrm_before), 0);
	cr_assert_eq(sigprocmask(SIG_SETMASK, NULL, &mask_before), 0);

	char ini[1024];
	(void)builtins_dir();
	snprintf(ini, sizeof(ini),
	         "[broker]\nplugin_timeout = 20s\n[plugin git_add]\ncrash = segv\nwhen = bad\n");
	struct broker_config *cfg = ptu_config(ini, true);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new_lazy(cfg, &chain, &err), 0, "%s", err.detail);
	struct verdict v;
	cr_assert_geq(ptu_decide(chain, "echo bad", &v, NULL), 0);
	cr_assert_eq(v.kind, VERDICT_DENY);
	errno = 0;
	cr_assert_eq(waitpid(-1, NULL, WNOHANG), -1, "the first check forked a child");
	verdict_done(&v);
	/* what follows a crash here runs in a fresh child, and still decides */
	cr_assert_geq(ptu_decide(chain, "echo bad again", &v, NULL), 0);
	cr_assert_eq(v.kind, VERDICT_DENY);
	cr_assert(strstr(ptu_reason(&v, "git_add")->message, "crashed (Segmentation fault)"));
	verdict_done(&v);
	cr_assert_geq(ptu_decide(chain, "echo fine", &v, NULL), 0);
	cr_assert_eq(v.kind, VERDICT_ALLOW, "%s", verdict_kind_name(v.kind));
	verdict_done(&v);
	policy_chain_reap(chain);
	policy_chain_free(chain);
	config_free(cfg);

	cr_assert_eq(sigaction(SIGSEGV, NULL, &segv_after), 0);
	cr_assert_eq(sigaction(SIGALRM, NULL, &alrm_after), 0);
	cr_assert_eq(sigprocmask(SIG_SETMASK, NULL, &mask_after), 0);
	cr_assert_eq(segv_after.sa_handler, segv_before.sa_handler);
	cr_assert_eq(alrm_after.sa_handler, alrm_before.sa_handler);
	for (int sig = 1; sig < NSIG; sig++)
		cr_assert_eq(sigismember(&mask_after, sig), sigismember(&mask_before, sig),
		             "signal %d's mask changed", sig);
}
#endif
