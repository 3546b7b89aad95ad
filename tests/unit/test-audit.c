/* SPDX-License-Identifier: MIT */
/*
 * broker/policy/audit.c: one JSON line per request, appended to a file created
 * 0600; a symlink or a directory is refused; nothing configured writes
 * nothing.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/audit.h"
#include "config/broker-config.h"
#include "scratch.h"

static char tmp[256];

static void setup(void)
{
	scratch_make(tmp, sizeof(tmp), "sluice-audit");
}

static void teardown(void)
{
	scratch_remove(tmp);
}

TestSuite(audit, .init = setup, .fini = teardown);

static struct broker_config *config_with_file(const char *path)
{
	struct broker_config *cfg = NULL;
	cr_assert_eq(config_new_defaults(&cfg), 0);
	free(cfg->audit_file);
	cfg->audit_file = path ? strdup(path) : NULL;
	return cfg;
}

Test(audit, appends_one_json_line_per_request_to_a_0600_file)
{
	char path[400];
	snprintf(path, sizeof(path), "%s/audit.jsonl", tmp);
	struct broker_config *cfg = config_with_file(path);
	struct audit *a = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(audit_open(cfg, &a, &err), 0, "%s", err.detail);
	struct verdict v;
	verdict_init(&v);
	verdict_add(&v, VERDICT_DENY, "git_push", "force push", "use --force-with-lease");
	struct audit_record rec = { .command = "git push -f\nsecond line",
		                    .cwd = "/w",
		                    .verdict = &v,
		                    .approval = "not needed",
		                    .error_kind = "permission_denied",
		                    .exit_code = -1,
		                    .duration_ms = 12 };
	cr_assert_eq(audit_write(a, &rec, &err), 0, "%s", err.detail);
	rec.exit_code = 0;
	rec.command = "ls";
	cr_assert_eq(audit_write(a, &rec, &err), 0, "%s", err.detail);
	audit_close(a);
	verdict_done(&v);
	config_free(cfg);

	struct stat st;
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0600);
	FILE *f = fopen(path, "r");
	char line[4096];
	int lines = 0;
	while (fgets(line, sizeof(line), f)) {
		json_error_t e;
		json_t *o = json_loads(line, 0, &e);
		cr_assert_not_null(o, "line %d: %s", lines + 1, e.text);
		cr_assert_str_eq(json_string_value(json_object_get(o, "verdict")), "deny");
		cr_assert_not_null(json_object_get(o, "time"));
		cr_assert_not_null(json_object_get(o, "user"));
		cr_assert_eq(json_integer_value(json_object_get(o, "durationMs")), 12);
		if (lines == 0) {
			cr_assert_str_eq(json_string_value(json_object_get(o, "command")),
			                 "git push -f\nsecond line");
			cr_assert(json_is_null(json_object_get(o, "exitCode")));
			cr_assert_str_eq(json_string_value(json_object_get(o, "error")),
			                 "permission_denied");
		} else {
			cr_assert_eq(json_integer_value(json_object_get(o, "exitCode")), 0);
		}
		json_decref(o);
		lines++;
	}
	fclose(f);
	cr_assert_eq(lines, 2, "a newline in the command must not split the line");
}

Test(audit, refuses_a_symlink_and_a_directory)
{
	char path[400], target[400];
	snprintf(target, sizeof(target), "%s/target", tmp);
	snprintf(path, sizeof(path), "%s/link", tmp);
	cr_assert_eq(symlink(target, path), 0);
	struct broker_config *cfg = config_with_file(path);
	struct audit *a = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(audit_open(cfg, &a, &err), -ELOOP);
	cr_assert(strstr(err.detail, "audit log '"), "%s", err.detail);
	config_free(cfg);

	cfg = config_with_file(tmp);
	cr_assert_eq(audit_open(cfg, &a, &err), -EISDIR);
	config_free(cfg);
}

Test(audit, nothing_configured_writes_nothing)
{
	struct broker_config *cfg = config_with_file(NULL);
	struct audit *a = (struct audit *)1;
	struct sluice_error err = { 0 };
	cr_assert_eq(audit_open(cfg, &a, &err), 0);
	cr_assert_null(a);
	struct audit_record rec = { .command = "ls", .exit_code = 0 };
	cr_assert_eq(audit_write(a, &rec, &err), 0);
	config_free(cfg);
}
