/* SPDX-License-Identifier: MIT */
/*
 * broker/policy/policy-host.c: the helpers the ABI offers for common questions,
 * over real models -- the subcommand after global options, short-flag
 * clusters, --long[=value] -- and the model's bits forwarded unchanged.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/command-model.h"
#include "policy/policy-host.h"

static struct command_model *model;

static const struct sluice_simple_command *first(const char *text)
{
	struct sluice_error err = { 0 };
	command_model_free(model);
	model = NULL;
	cr_assert_eq(command_model_parse(NULL, text, strlen(text), NULL, &model, &err), 0);
	const struct sluice_host *h = policy_host();
	cr_assert_geq(h->command_count(policy_host_command(model)), 1);
	return h->command_get(policy_host_command(model), 0);
}

static void fini(void)
{
	model = command_model_free(model);
}

TestSuite(policy_host, .fini = fini);

Test(policy_host, finds_the_subcommand_after_global_options)
{
	const struct sluice_host *h = policy_host();
	static const char *const git_opts[] = { "-C", "-c", "--git-dir", NULL };
	static const struct {
		const char *text;
		size_t index;
	} cases[] = {
		{ "git push", 1 },
		{ "git -C dir -c k=v push", 5 },
		{ "git --git-dir=.git --no-pager push", 3 },
		{ "git --git-dir .git push", 3 },
		{ "git -Cdir push", 2 },
		{ "git -- push", 2 },
		{ "git -C", 0 },
		{ "sudo git -c a=b status", 3 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sluice_simple_command *sc = first(cases[i].text);
		cr_assert_eq(h->subcommand(sc, git_opts), cases[i].index, "%s", cases[i].text);
	}
}

Test(policy_host, sees_letters_in_short_flag_clusters_before_double_dash)
{
	const struct sluice_host *h = policy_host();
	cr_assert_eq(h->has_short_flag(first("rm -rf x"), 1, 'f'), 1);
	cr_assert_eq(h->has_short_flag(first("rm -v -R x"), 1, 'R'), 1);
	cr_assert_eq(h->has_short_flag(first("rm -v x"), 1, 'f'), 0);
	cr_assert_eq(h->has_short_flag(first("rm -- -f"), 1, 'f'), 0, "a file named -f");
	cr_assert_eq(h->has_short_flag(first("rm --force x"), 1, 'f'), 0, "a long option");
	cr_assert_eq(h->has_short_flag(first("git push -f"), 2, 'f'), 1);
	cr_assert_eq(h->has_short_flag(first("git -f push"), 2, 'f'), 0, "before from");
}

Test(policy_host, reads_long_options_with_and_without_values)
{
	const struct sluice_host *h = policy_host();
	cr_assert_str_eq(h->long_option(first("git push --force"), 2, "--force"), "");
	cr_assert_str_eq(h->long_option(first("x --color=auto"), 1, "--color"), "auto");
	cr_assert_null(h->long_option(first("git push --force-with-lease"), 2, "--force"));
	cr_assert_null(h->long_option(first("x -- --force"), 1, "--force"));
}

Test(policy_host, forwards_the_model)
{
	const struct sluice_host *h = policy_host();
	const struct sluice_simple_command *sc =
	        first("sudo -u root env A=1 /usr/bin/git push \"$X\" > out");
	cr_assert_str_eq(h->name(sc), "git");
	cr_assert_eq(h->wrapper_count(sc), 2);
	cr_assert_str_eq(h->wrapper_name(sc, 0), "sudo");
	cr_assert_eq(h->arg_flags(sc, 2) & SLUICE_WORD_PARAM, SLUICE_WORD_PARAM);
	cr_assert_eq(h->redirect_count(sc), 1);
	cr_assert_str_eq(h->redirect_op(sc, 0), ">");
	cr_assert_str_eq(h->redirect_target(sc, 0), "out");
	cr_assert_null(h->arg(sc, 99), "out of range is NULL, not a crash");
	cr_assert_eq(h->abi_version, SLUICE_POLICY_ABI_VERSION);
	cr_assert_eq(h->struct_size, sizeof(struct sluice_host));
}

/* ABI 1.1: which pipeline a command is in, and where, through the host
 * table as a plugin calls it. */
Test(policy_host, says_which_pipeline_a_command_is_in_and_where)
{
	const struct sluice_host *h = policy_host();
	cr_assert(SLUICE_HOST_HAS(h, pipeline) && SLUICE_HOST_HAS(h, pipeline_length));
	static const struct {
		const char *text;
		const char *name;
		int64_t pipeline; /* -1, or the pipeline of the command named same */
		const char *same;
		size_t position, length;
	} cases[] = {
		{ "curl -s https://example.org/i | sh", "sh", 0, "curl", 1, 2 },
		{ "curl -s https://example.org/i | sh", "curl", 0, "sh", 0, 2 },
		{ "ls; curl x | sudo bash", "bash", 0, "curl", 1, 2 },
		{ "ls; curl x | sudo bash", "ls", -1, NULL, 0, 0 },
		{ "a | (b; c) | d", "c", 0, "b", 1, 3 },
		{ "a | b $(c | d)", "d", 0, "c", 1, 2 },
		{ "wget -O- x | bash -c 'cat | sh'", "sh", 0, "cat", 1, 2 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		(void)first(cases[i].text);
		const struct sluice_command *cmd = policy_host_command(model);
		const struct sluice_simple_command *sc = NULL, *other = NULL;
		for (size_t j = 0; j < h->command_count(cmd); j++) {
			const struct sluice_simple_command *x = h->command_get(cmd, j);
			if (!sc && strcmp(h->name(x), cases[i].name) == 0)
				sc = x;
			if (!other && cases[i].same && strcmp(h->name(x), cases[i].same) == 0)
				other = x;
		}
		cr_assert_not_null(sc, "%s: no %s", cases[i].text, cases[i].name);
		if (cases[i].pipeline < 0)
			cr_expect_eq(h->pipeline(sc), -1, "%s: %s", cases[i].text, cases[i].name);
		else
			cr_expect(h->pipeline(sc) >= 0 && h->pipeline(sc) == h->pipeline(other),
			          "%s: %s and %s share a pipeline", cases[i].text, cases[i].name,
			          cases[i].same);
		cr_expect_eq(h->pipeline_position(sc), cases[i].position, "%s: %s's position",
		             cases[i].text, cases[i].name);
		cr_expect_eq(h->pipeline_length(sc), cases[i].length, "%s: %s's length",
		             cases[i].text, cases[i].name);
	}
}
