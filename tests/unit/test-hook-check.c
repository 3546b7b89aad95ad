/* SPDX-License-Identifier: MIT */
/*
 * broker/agent/hook-check*.c: which hook commands are sluice's, which
 * matchers cover the shell tool, and Gemini CLI's trust and settings rules
 * as its code applies them (trustedFolders.json's longest rule, TRUST_PARENT,
 * DO_NOT_TRUST, the environment, security.folderTrust.enabled outside the
 * project, hooksConfig, comments in settings). The end-to-end tests
 * (tests/e2e/codex.sh, gemini.sh) check the same against the real agents.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/hook-check.h"

Test(hook_check, the_command_word_is_sluice)
{
	cr_assert(hook_check_runs_sluice("sluice hook codex", "codex"));
	cr_assert(hook_check_runs_sluice("/usr/local/bin/sluice hook codex --route", "codex"));
	cr_assert(hook_check_runs_sluice("'/opt/my tools/sluice' hook gemini", "gemini"));
	cr_assert(hook_check_runs_sluice("env SLUICE_X=1 sluice hook codex", "codex"));
	cr_assert(hook_check_runs_sluice("  sluice   hook   codex  ", "codex"));
	cr_assert_not(hook_check_runs_sluice("sluice hook gemini", "codex"));
	cr_assert_not(hook_check_runs_sluice("sluice run hook codex", "codex"));
	cr_assert_not(hook_check_runs_sluice("echo sluice hook codex", "codex"));
	cr_assert_not(hook_check_runs_sluice("/usr/bin/notsluice hook codex", "codex"));
	cr_assert_not(hook_check_runs_sluice("sluice hook codexx", "codex"));
	cr_assert_not(hook_check_runs_sluice("sluice", "codex"));
	cr_assert_not(hook_check_runs_sluice("'sluice hook codex", "codex"));
	cr_assert_not(hook_check_runs_sluice(NULL, "codex"));
}

Test(hook_check, a_matcher_covers_the_tool_in_whole)
{
	cr_assert(hook_check_matcher_covers(NULL, "Bash"));
	cr_assert(hook_check_matcher_covers("", "Bash"));
	cr_assert(hook_check_matcher_covers("*", "Bash"));
	cr_assert(hook_check_matcher_covers("Bash", "Bash"));
	cr_assert(hook_check_matcher_covers("^Bash$", "Bash"));
	cr_assert(hook_check_matcher_covers("Edit|Bash", "Bash"));
	cr_assert(hook_check_matcher_covers(".*shell.*", "run_shell_command"));
	cr_assert_not(hook_check_matcher_covers("Edit", "Bash"));
	cr_assert_not(hook_check_matcher_covers("Ba", "Bash"));
	cr_assert_not(hook_check_matcher_covers("(", "Bash"));
}

/* A scratch home and project, and Gemini CLI's system files pointed into it. */
static char root[64], home[128], project[160], report[8192];

static void write_file(const char *path, const char *text)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	cr_assert_eq(system(cmd), 0);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/sluice-hook-check.XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(home, sizeof(home), "%s/home", root);
	snprintf(project, sizeof(project), "%s/work/project", root);
	cr_assert_eq(mkdir(home, 0700), 0);
	char work[140];
	snprintf(work, sizeof(work), "%s/work", root);
	cr_assert_eq(mkdir(work, 0700), 0);
	cr_assert_eq(mkdir(project, 0700), 0);
	char system_path[128];
	snprintf(system_path, sizeof(system_path), "%s/etc/settings.json", root);
	setenv("HOME", home, 1);
	setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", system_path, 1);
	unsetenv("GEMINI_CLI_HOME");
	unsetenv("GEMINI_CLI_TRUST_WORKSPACE");
	unsetenv("GEMINI_RESTRICTED_MODE");
	unsetenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH");
	unsetenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH");
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
}

static const char hook_json[] =
        "{\"hooks\": {\"BeforeTool\": [{\"matcher\": \"run_shell_command\", \"hooks\": "
        "[{\"type\": \"command\", \"command\": \"sluice hook gemini\"}]}]}}";

/* path below root: NAME of home/, project/ or etc/ */
static void put(const char *where, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s",
	         !strcmp(where, "home")      ? home
	         : !strcmp(where, "project") ? project
	                                     : root,
	         name);
	write_file(path, text);
}

__attribute__((format(printf, 1, 2))) static void trust(const char *fmt, ...)
{
	char rules[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rules, sizeof(rules), fmt, ap);
	va_end(ap);
	put("home", ".gemini/trustedFolders.json", rules);
}

static int check(void)
{
	struct hook_check_request req = { .agent = "gemini", .directory = project };
	struct sluice_error err = { 0 };
	FILE *out = fmemopen(report, sizeof(report), "w");
	cr_assert_not_null(out);
	int r = hook_check(&req, out, &err);
	fclose(out);
	if (r < 0)
		snprintf(report, sizeof(report), "error: %s", err.detail);
	return r;
}

TestSuite(gemini_check, .init = setup, .fini = teardown);

Test(gemini_check, a_project_hook_needs_a_trusted_folder)
{
	put("project", ".gemini/settings.json", hook_json);
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
	cr_assert(strstr(report, "NOT READ: the folder is not trusted"), "%s", report);
	trust("{\"%s\": \"TRUST_FOLDER\"}", project);
	cr_assert_eq(check(), HOOK_CHECK_TAKES_EFFECT, "%s", report);
}

Test(gemini_check, the_longest_rule_wins_and_trust_parent_trusts_the_parent)
{
	put("project", ".gemini/settings.json", hook_json);
	/* a sibling's TRUST_PARENT trusts work/; the project's own rule, longer,
	 * distrusts (the longest rule, as written, wins) */
	trust("{\"%s/work/sib\": \"TRUST_PARENT\", \"%s\": \"DO_NOT_TRUST\"}", root, project);
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
	cr_assert(strstr(report, "DO_NOT_TRUST"), "%s", report);
	trust("{\"%s/work/sib\": \"TRUST_PARENT\"}", root);
	cr_assert_eq(check(), HOOK_CHECK_TAKES_EFFECT, "%s", report);
	/* a rule for a folder below the project says nothing of it */
	trust("{\"%s/sub\": \"TRUST_FOLDER\"}", project);
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
}

Test(gemini_check, the_environment_decides_first)
{
	put("project", ".gemini/settings.json", hook_json);
	setenv("GEMINI_CLI_TRUST_WORKSPACE", "true", 1);
	cr_assert_eq(check(), HOOK_CHECK_TAKES_EFFECT, "%s", report);
	trust("{\"%s\": \"TRUST_FOLDER\"}", project);
	setenv("GEMINI_CLI_TRUST_WORKSPACE", "false", 1);
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
	unsetenv("GEMINI_CLI_TRUST_WORKSPACE");
	setenv("GEMINI_RESTRICTED_MODE", "true", 1);
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
}

Test(gemini_check, folder_trust_off_counts_outside_the_project_only)
{
	put("project", ".gemini/settings.json",
	    "{\"security\": {\"folderTrust\": {\"enabled\": false}}, \"hooks\": {\"BeforeTool\": "
	    "[{\"hooks\": [{\"type\": \"command\", \"command\": \"sluice hook gemini\"}]}]}}");
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
	put("home", ".gemini/settings.json",
	    "// the user's settings, with comments as Gemini CLI allows\n"
	    "{\"security\": {\"folderTrust\": {/* off */ \"enabled\": false}}}");
	cr_assert_eq(check(), HOOK_CHECK_TAKES_EFFECT, "%s", report);
	/* the administrator's word wins */
	put("etc", "etc/settings.json", "{\"security\": {\"folderTrust\": {\"enabled\": true}}}");
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
}

Test(gemini_check, a_user_hook_in_an_untrusted_folder_needs_skip_trust)
{
	put("home", ".gemini/settings.json", hook_json);
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
	cr_assert(strstr(report, "only when Gemini CLI is started with --skip-trust"), "%s",
	          report);
	trust("{\"%s\": \"TRUST_FOLDER\"}", project);
	cr_assert_eq(check(), HOOK_CHECK_TAKES_EFFECT, "%s", report);
}

Test(gemini_check, hooks_turned_off_do_not_take_effect)
{
	trust("{\"%s\": \"TRUST_FOLDER\"}", project);
	put("project", ".gemini/settings.json", hook_json);
	put("home", ".gemini/settings.json", "{\"hooksConfig\": {\"enabled\": false}}");
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
	cr_assert(strstr(report, "hooksConfig.enabled is false"), "%s", report);
	put("home", ".gemini/settings.json",
	    "{\"hooksConfig\": {\"disabled\": [\"sluice hook gemini\"]}}");
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
	cr_assert(strstr(report, "disabled by hooksConfig.disabled"), "%s", report);
	put("home", ".gemini/settings.json", "{}");
	put("project", ".gemini/settings.json",
	    "{\"hooks\": {\"BeforeTool\": [{\"matcher\": \"read_file\", \"hooks\": "
	    "[{\"type\": \"command\", \"command\": \"sluice hook gemini\"}]}]}}");
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
	cr_assert(strstr(report, "does not cover run_shell_command"), "%s", report);
}

Test(gemini_check, no_hook_and_bad_settings_are_said)
{
	trust("{\"%s\": \"TRUST_FOLDER\"}", project);
	cr_assert_eq(check(), HOOK_CHECK_NO_EFFECT, "%s", report);
	cr_assert(strstr(report, "no BeforeTool hook runs"), "%s", report);
	put("home", ".gemini/settings.json", "{\"hooks\": ");
	cr_assert_eq(check(), -EINVAL, "%s", report);
	cr_assert(strstr(report, "settings.json is not a JSON object"), "%s", report);
	put("home", ".gemini/settings.json", "[1, 2]");
	cr_assert_eq(check(), -EINVAL, "%s", report);
}

Test(gemini_check, project_policies_are_said_to_be_ignored)
{
	trust("{\"%s\": \"TRUST_FOLDER\"}", project);
	put("project", ".gemini/settings.json", hook_json);
	put("project", ".gemini/policies/sluice.toml", "[[rule]]\n");
	cr_assert_eq(check(), HOOK_CHECK_TAKES_EFFECT, "%s", report);
	cr_assert(strstr(report, "policies is ignored"), "%s", report);
}
