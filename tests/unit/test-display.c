/* SPDX-License-Identifier: MIT */
/*
 * The display form: a leading cd into the working directory is left out
 * before && and ;, never before ||, and only the matching cd of
 * `cd X && cmd || fallback`. Each row: command, working directory, display.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "model/command-model.h"
#include "model/display.h"

static const struct {
	const char *command, *cwd, *display;
} rows[] = {
	{ "cd /work && make", "/work", "make" },
	{ "cd /work; make", "/work", "make" },
	{ "cd /work\nmake", "/work", "make" },
	{ "cd /work/ && make", "/work", "make" },
	{ "cd . && make", "/work", "make" },
	{ "cd '/work' && make", "/work", "make" },
	{ "cd /other && make", "/work", "cd /other && make" },
	{ "cd /work || make", "/work", "cd /work || make" },
	{ "cd /work && make || echo failed", "/work", "make || echo failed" },
	{ "cd /work && make && make check", "/work", "make && make check" },
	{ "cd /work; a; b", "/work", "a; b" },
	{ "cd /work && a; b", "/work", "a; b" },
	{ "cd /work", "/work", "cd /work" },
	{ "cd /work &", "/work", "cd /work &" },
	{ "cd $DIR && make", "/work", "cd $DIR && make" },
	{ "cd /work > log && make", "/work", "cd /work > log && make" },
	{ "make && cd /work", "/work", "make && cd /work" },
	{ "ls | cd /work && make", "/work", "ls | cd /work && make" },
	{ "(cd /work && make)", "/work", "(cd /work && make)" },
	{ "echo 'cd /work && make'", "/work", "echo 'cd /work && make'" },
	{ "cd /work && make", NULL, "cd /work && make" },
	{ "git status", "/work", "git status" },
	{ "cd /work && 'unterminated", "/work", "cd /work && 'unterminated" },
};

Test(display, strips_only_a_leading_cd_into_the_working_directory)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct command_model *m = NULL;
		const char *cmd = rows[i].command;
		cr_assert_eq(command_model_parse(NULL, cmd, strlen(cmd), NULL, &m, NULL), 0);
		char *got = NULL;
		cr_assert_eq(display_form(m, rows[i].cwd, &got), 0);
		cr_expect_str_eq(got, rows[i].display, "row %zu: '%s' in '%s'", i, cmd,
		                 rows[i].cwd ? rows[i].cwd : "(none)");
		free(got);
		command_model_free(m);
	}
}

Test(display, reads_a_tilde_as_home)
{
	const char *home = getenv("HOME");
	if (!home || home[0] != '/')
		cr_skip_test("HOME is not an absolute path here");
	struct command_model *m = NULL;
	cr_assert_eq(command_model_parse(NULL, "cd ~ && ls", 10, NULL, &m, NULL), 0);
	char *got = NULL;
	cr_assert_eq(display_form(m, home, &got), 0);
	cr_expect_str_eq(got, "ls");
	free(got);
	command_model_free(m);
}
