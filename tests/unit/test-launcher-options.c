/* SPDX-License-Identifier: MIT */
/*
 * launcher/options.c and rlimits.c: the sluice-launch command line, parsed
 * through the option table, and the --rlimit values.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch-spec.h"
#include "options.h"
#include "rlimits.h"

/* Parse a NULL-terminated argument list (argv[0] added). */
static int parse(struct launch_spec *spec, struct sluice_error *err, const char *const *args)
{
	static char *argv[2 * LAUNCH_MAX_RW + 8];
	int argc = 0;
	argv[argc++] = (char *)"sluice-launch";
	for (; *args; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	return options_parse(argc, argv, spec, err);
}

Test(launcher_options, defaults_to_restricted_with_the_network_denied)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	const char *args[] = { "--", "true", NULL };
	cr_assert_eq(parse(&spec, &err, args), 0, "%s", err.detail);
	cr_assert_str_eq(spec.profile->name, LAUNCH_PROFILE_RESTRICTED);
	cr_assert(!spec.network_allow);
	cr_assert(!spec.unix_connect_allow);
	cr_assert_eq(spec.report_fd, -1);
	cr_assert_eq(spec.die_with_parent, 0);
	cr_assert_eq(spec.tmpdir_size, 1 << 30, "the TMPDIR cap is 1GiB");
	cr_assert(!spec.namespace_off, "a namespace where one can be had");
	cr_assert_eq(spec.n_hide, 0);
	cr_assert_str_eq(spec.argv[0], "true");
}

Test(launcher_options, refuses_bad_namespace_and_sizes)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	const char *ns[] = { "--namespace", "maybe", "prog", NULL };
	cr_assert_eq(parse(&spec, &err, ns), -EINVAL);
	cr_assert(strstr(err.detail, "--namespace"), "%s", err.detail);
	const char *size[] = { "--tmpdir-size", "0", "prog", NULL };
	cr_assert_lt(parse(&spec, &err, size), 0);
	const char *empty[] = { "--hide", "", "prog", NULL };
	cr_assert_eq(parse(&spec, &err, empty), -EINVAL);
}

Test(launcher_options, reads_every_option_in_both_spellings)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	const char *args[] = { "--profile=workspace-write",
		               "--workspace",
		               "/w",
		               "--rw",
		               "/a",
		               "--rw=/b",
		               "--tmpdir",
		               "/t",
		               "--network",
		               "allow",
		               "--unix-connect=allow",
		               "--git-writable",
		               "--rlimit",
		               "as=1MiB",
		               "--rlimit=cpu=1500ms",
		               "--rlimit",
		               "nproc=10",
		               "--keep-stdin",
		               "--user",
		               "nobody",
		               "--chdir",
		               "/c",
		               "--best-effort",
		               "--report-fd=7",
		               "--die-with-parent",
		               "4242",
		               "--hide",
		               "/h1",
		               "--hide=/h2",
		               "--read-only",
		               "/ro",
		               "--tmpdir-size=64MiB",
		               "--namespace",
		               "off",
		               "prog",
		               "--not-an-option",
		               NULL };
	cr_assert_eq(parse(&spec, &err, args), 0, "%s", err.detail);
	cr_assert_str_eq(spec.profile->name, LAUNCH_PROFILE_WORKSPACE_WRITE);
	cr_assert_str_eq(spec.workspace, "/w");
	cr_assert_eq(spec.n_rw, 2);
	cr_assert_str_eq(spec.rw[1], "/b");
	cr_assert_str_eq(spec.tmpdir, "/t");
	cr_assert(spec.network_allow && spec.unix_connect_allow && spec.git_writable);
	cr_assert(spec.rlimit_set[RLIMIT_INDEX_AS]);
	cr_assert_eq(spec.rlimit_value[RLIMIT_INDEX_AS], 1 << 20);
	cr_assert_eq(spec.rlimit_value[RLIMIT_INDEX_CPU], 2, "CPU time rounds up to seconds");
	cr_assert_eq(spec.rlimit_value[RLIMIT_INDEX_NPROC], 10);
	cr_assert(!spec.rlimit_set[RLIMIT_INDEX_FSIZE]);
	cr_assert(spec.keep_stdin && spec.best_effort);
	cr_assert_str_eq(spec.user, "nobody");
	cr_assert_str_eq(spec.chdir, "/c");
	cr_assert_eq(spec.report_fd, 7);
	cr_assert_eq(spec.die_with_parent, 4242);
	cr_assert_eq(spec.n_hide, 2);
	cr_assert_str_eq(spec.hide[1], "/h2");
	cr_assert_eq(spec.n_read_only, 1);
	cr_assert_str_eq(spec.read_only[0], "/ro");
	cr_assert_eq(spec.tmpdir_size, 64 << 20);
	cr_assert(spec.namespace_off);
	cr_assert_str_eq(spec.argv[0], "prog");
	cr_assert_str_eq(spec.argv[1], "--not-an-option", "options end at the program");
}

Test(launcher_options, user_ids_are_read_whole)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	const char *args[] = { "--user", "builder", "--user-ids", "1001:1002:1002,27,4294967294",
		               "prog",   NULL };
	cr_assert_eq(parse(&spec, &err, args), 0, "%s", err.detail);
	cr_assert(spec.user_ids_set);
	cr_assert_eq(spec.user_ids.uid, 1001);
	cr_assert_eq(spec.user_ids.gid, 1002);
	cr_assert_eq(spec.user_ids.n_groups, 3);
	cr_assert_eq(spec.user_ids.groups[1], 27);
	cr_assert_eq(spec.user_ids.groups[2], 4294967294u);

	const char *no_groups[] = { "--user", "b", "--user-ids=5:6", "prog", NULL };
	cr_assert_eq(parse(&spec, &err, no_groups), 0, "%s", err.detail);
	cr_assert_eq(spec.user_ids.n_groups, 0, "no supplementary groups at all");
}

Test(launcher_options, user_ids_take_at_most_the_cap_of_groups)
{
	static char ids[32 + USER_IDS_GROUPS_MAX * 3];
	int len = snprintf(ids, sizeof(ids), "1:1:");
	for (int i = 0; i <= USER_IDS_GROUPS_MAX; i++)
		len += snprintf(ids + len, sizeof(ids) - (size_t)len, "%s7", i ? "," : "");
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	const char *args[] = { "--user", "b", "--user-ids", ids, "prog", NULL };
	cr_assert_lt(parse(&spec, &err, args), 0);
	cr_assert(strstr(err.detail, "more than 256 groups"), "%s", err.detail);
}

struct bad_case {
	const char *args[6];
	const char *detail;
};

static const struct bad_case bad_cases[] = {
	{ { "--frob", "--", "x", NULL }, "unknown option '--frob'" },
	{ { "--profile", NULL }, "option '--profile' needs PROFILE" },
	{ { "--profile", "lax", "x", NULL }, "--profile: unknown profile 'lax'" },
	{ { "--network", "maybe", "x", NULL }, "'maybe' is neither 'allow' nor 'deny'" },
	{ { "--rlimit", "as", "x", NULL }, "'as' is not NAME=VALUE" },
	{ { "--rlimit", "stack=1", "x", NULL }, "unknown limit 'stack'" },
	{ { "--rlimit", "nofile=1k", "x", NULL }, "bad value '1k' for nofile" },
	{ { "--report-fd", "1", "x", NULL }, "stdin, stdout or stderr" },
	{ { "--report-fd", "-3", "x", NULL }, "bad descriptor '-3'" },
	{ { "--user", "", "x", NULL }, "empty user name" },
	{ { "--user-ids", "1:2", "x", NULL }, "--user-ids needs --user NAME" },
	{ { "--user-ids", "1", "x", NULL }, "--user-ids: must be UID:GID[:GID,...], not '1'" },
	{ { "--user-ids", "1:", "x", NULL }, "must be UID:GID[:GID,...], not '1:'" },
	{ { "--user-ids", "1:2:", "x", NULL }, "not '1:2:'" },
	{ { "--user-ids", "1:2:3,", "x", NULL }, "not '1:2:3,'" },
	{ { "--user-ids", "-1:2", "x", NULL }, "not '-1:2'" },
	{ { "--user-ids", "4294967295:2", "x", NULL }, "not '4294967295:2'" },
	{ { "--user-ids", "1:2x", "x", NULL }, "not '1:2x'" },
	{ { "--die-with-parent", "0", "x", NULL }, "bad process id '0'" },
	{ { "--die-with-parent", "me", "x", NULL }, "bad process id 'me'" },
	{ { "--keep-stdin=yes", "x", NULL }, "unknown option '--keep-stdin=yes'" },
	{ { "--egress-ask-internal", "x", NULL }, "--egress-ask-internal needs --egress-ask-fd N" },
	{ { "--egress-allow-internal", "mirror.example.org", "x", NULL },
	  "--egress-allow-internal: the pattern 'mirror.example.org' is not covered by "
	  "--egress-allow" },
	{ { "--egress-allow", "mirror.example.org", "--egress-allow-internal", "other.example.org",
	    "x", NULL },
	  "the pattern 'other.example.org' is not covered by --egress-allow" },
	{ { "--egress-allow", "mirror.example.org", "--egress-allow-internal",
	    "mirror.example.org:8443", "x", NULL },
	  "the pattern 'mirror.example.org:8443' is not covered" },
	{ { "--egress-allow", "10.1.2.3", "--egress-allow-internal", "10.1.2.3", "x", NULL },
	  "--egress-allow-internal: the pattern '10.1.2.3' is an IP address" },
	{ { "--egress-allow", "mirror.example.org", "--egress-allow-internal", "*.", "x", NULL },
	  "--egress-allow-internal: the pattern '*.'" },
	{ { "--", NULL }, "no program given" },
};

/* A loop, not a ParameterizedTest: Criterion's workers may be new
 * processes, where pointers inside copied parameters would dangle. */
Test(launcher_options, refuses_bad_command_lines)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct launch_spec spec;
		struct sluice_error err = { 0 };
		cr_assert_lt(parse(&spec, &err, c->args), 0, "case %zu accepted", i);
		cr_assert(strstr(err.detail, c->detail), "case %zu: detail '%s' lacks '%s'", i,
		          err.detail, c->detail);
	}
}

Test(launcher_options, caps_repeated_writable_paths)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	static const char *args[2 * LAUNCH_MAX_RW + 4];
	int n = 0;
	for (int i = 0; i <= LAUNCH_MAX_RW; i++) {
		args[n++] = "--rw";
		args[n++] = "/x";
	}
	args[n++] = "true";
	args[n] = NULL;
	cr_assert_eq(parse(&spec, &err, args), -E2BIG);
}

Test(launcher_options, help_and_version_need_no_program)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	const char *help[] = { "--help", NULL };
	cr_assert_eq(parse(&spec, &err, help), 0);
	cr_assert_eq(spec.action, LAUNCH_HELP);
	const char *features[] = { "--print-features", NULL };
	cr_assert_eq(parse(&spec, &err, features), 0);
	cr_assert_eq(spec.action, LAUNCH_PRINT_FEATURES);
}

Test(launcher_options, help_comes_from_the_option_table)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	cr_assert_not_null(f);
	options_help(f);
	cr_assert_eq(fclose(f), 0);
	const char *names[] = { LAUNCH_OPT_PROFILE,        LAUNCH_OPT_RW,
		                LAUNCH_OPT_RLIMIT,         LAUNCH_OPT_REPORT_FD,
		                LAUNCH_OPT_PRINT_FEATURES, LAUNCH_PROFILE_WORKSPACE_WRITE };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		cr_assert(strstr(text, names[i]), "--help lacks '%s'", names[i]);
	free(text);
}

Test(launcher_rlimits, parse_gives_the_index_and_the_unit)
{
	enum rlimit_index i;
	uint64_t v;
	cr_assert_eq(rlimits_parse("fsize=2KiB", &i, &v, NULL), 0);
	cr_assert_eq(i, RLIMIT_INDEX_FSIZE);
	cr_assert_eq(v, 2048);
	cr_assert_eq(rlimits_parse("cpu=2m", &i, &v, NULL), 0);
	cr_assert_eq(v, 120);
}

Test(launcher_options, protect_takes_paths_relative_to_the_workspace)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	const char *good[] = { "--protect", ".claude/",  "--protect",
		               "lefthook*", "--protect", ".config/lefthook*",
		               "--protect", ".mcp.json", "prog",
		               NULL };
	cr_assert_eq(parse(&spec, &err, good), 0, "%s", err.detail);
	cr_assert_eq(spec.n_protect, 4);
	cr_assert_str_eq(spec.protect[1], "lefthook*");
	const char *bad[] = { "/etc/passwd", "../x", "a/../b", "./a", "a//b", "*/x", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = { "--protect", bad[i], "prog", NULL };
		err = (struct sluice_error){ 0 };
		cr_assert_lt(parse(&spec, &err, args), 0, "'%s' is refused", bad[i]);
	}
}

Test(launcher_rlimits, pids_is_a_count_of_at_least_one)
{
	enum rlimit_index i;
	uint64_t v;
	struct sluice_error err = { 0 };
	cr_assert_eq(rlimits_parse("pids=4096", &i, &v, NULL), 0);
	cr_assert_eq(i, RLIMIT_INDEX_PIDS);
	cr_assert_eq(v, 4096);
	cr_assert_eq(rlimits_parse("pids=0", &i, &v, &err), -EINVAL);
	cr_assert(strstr(err.detail, "at least 1"), "%s", err.detail);
	cr_assert_lt(rlimits_parse("pids=1k", &i, &v, NULL), 0, "a count has no unit");
}

Test(launcher_options, wait_all_is_a_flag)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	const char *args[] = { "--wait-all", "prog", NULL };
	cr_assert_eq(parse(&spec, &err, args), 0, "%s", err.detail);
	cr_assert(spec.wait_all);
	const char *none[] = { "prog", NULL };
	cr_assert_eq(parse(&spec, &err, none), 0, "%s", err.detail);
	cr_assert(!spec.wait_all);
}

Test(launcher_options, egress_ask_internal_is_a_flag_off_by_default)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	const char *args[] = { "--egress-ask-fd", "7", "--egress-ask-internal", "prog", NULL };
	cr_assert_eq(parse(&spec, &err, args), 0, "%s", err.detail);
	cr_assert(spec.egress_ask_internal);
	const char *none[] = { "--egress-ask-fd", "7", "prog", NULL };
	cr_assert_eq(parse(&spec, &err, none), 0, "%s", err.detail);
	cr_assert(!spec.egress_ask_internal);
}

/* A name the administrator said may lead inside: kept as a rule, whatever
 * the order of the options, and only within the allowlist (the bad cases
 * above). */
Test(launcher_options, egress_allow_internal_within_the_allowlist)
{
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	const char *args[] = { "--egress-allow-internal",
		               "*.corp.example.org:8443",
		               "--egress-allow",
		               "*.example.org:8443",
		               "--egress-allow-internal",
		               "mirror.example.org",
		               "--egress-allow",
		               "mirror.example.org",
		               "prog",
		               NULL };
	cr_assert_eq(parse(&spec, &err, args), 0, "%s", err.detail);
	cr_assert_eq(spec.n_egress_allow, 2);
	cr_assert_eq(spec.n_egress_allow_internal, 2);
	cr_assert(spec.egress_allow_internal[0].suffix);
	cr_assert_str_eq(spec.egress_allow_internal[0].host.name, "corp.example.org");
	cr_assert_eq(spec.egress_allow_internal[0].port, 8443);
	cr_assert_str_eq(spec.egress_allow_internal[1].host.name, "mirror.example.org");
	const char *none[] = { "--egress-allow", "mirror.example.org", "prog", NULL };
	cr_assert_eq(parse(&spec, &err, none), 0, "%s", err.detail);
	cr_assert_eq(spec.n_egress_allow_internal, 0, "none by default");
}
