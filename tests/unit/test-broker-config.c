/* SPDX-License-Identifier: MIT */
/*
 * broker/config/broker-config.c and the files it is made of (config-key-table.c,
 * config-value.c, config-parse.c, config-plugins.c, config-layers.c,
 * config-checks.c) and broker/config/ini-source.c: layering, locks, the
 * golden error messages, and what inih r55 would silently mangle.
 * Each test writes its files under a private temporary directory.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/broker-config.h"
#include "core/run-settings.h"
#include "cleanup.h"
#include "scratch.h"
#include "strv.h"

static char tmp[256];

static void setup(void)
{
	scratch_make(tmp, sizeof(tmp), "sluice-config");
	char d[400];
	snprintf(d, sizeof(d), "%s/etc/sluice/policies.d", tmp);
	cr_assert_eq(system(NULL) != 0, true);
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s/user/sluice'", d, tmp);
	cr_assert_eq(system(cmd), 0);
}

static void teardown(void)
{
	scratch_remove(tmp);
}

/* Write text to tmp/rel. */
static void put(const char *rel, const char *text)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static int load(const char *cli_rel, struct broker_config **ret, char ***errors)
{
	char sys[600], user[600], cli[600];
	snprintf(sys, sizeof(sys), "%s/etc", tmp);
	snprintf(user, sizeof(user), "%s/user/sluice/sluice.ini", tmp);
	snprintf(cli, sizeof(cli), "%s/%s", tmp, cli_rel ? cli_rel : "");
	struct config_paths paths = { .sysconfdir = sys,
		                      .user_file = user,
		                      .cli_file = cli_rel ? cli : NULL };
	return config_load(&paths, ret, errors);
}

/* Load and expect success. */
static struct broker_config *load_ok(const char *cli_rel)
{
	struct broker_config *cfg = NULL;
	_cleanup_strv_free_ char **errors = NULL;
	int r = load(cli_rel, &cfg, &errors);
	cr_assert_eq(r, 0, "load failed (%d): %s", r, errors && errors[0] ? errors[0] : "");
	return cfg;
}

/* Load, expect -EINVAL, and return the errors joined by newlines (tmp
 * prefix removed). */
static char *load_errors(const char *cli_rel)
{
	struct broker_config *cfg = NULL;
	_cleanup_strv_free_ char **errors = NULL;
	int r = load(cli_rel, &cfg, &errors);
	cr_assert_eq(r, -EINVAL, "expected errors, got %d", r);
	cr_assert_null(cfg, "nothing may be applied");
	size_t tl = strlen(tmp), cap = 1;
	STRV_FOREACH (e, errors)
		cap += strlen(*e) + 1;
	char *out = calloc(1, cap);
	STRV_FOREACH (e, errors) {
		const char *s = strncmp(*e, tmp, tl) == 0 ? *e + tl + 1 : *e;
		strcat(out, s);
		strcat(out, "\n");
	}
	return out;
}

static const struct config_plugin *plugin(const struct broker_config *cfg, const char *name)
{
	const struct config_plugin *p = config_find_plugin(cfg, name);
	cr_assert_not_null(p, "no plugin %s", name);
	return p;
}

TestSuite(broker_config, .init = setup, .fini = teardown);

Test(broker_config, applies_built_in_defaults_without_any_file)
{
	_cleanup_(config_freep) struct broker_config *cfg = load_ok(NULL);
	cr_assert_str_eq(cfg->broker_shell, "/bin/bash");
	cr_assert_eq(cfg->broker_timeout, 30000);
	cr_assert_eq(cfg->broker_slow_timeout, 15 * 60000);
	cr_assert_eq(cfg->broker_output_cap, 128 * 1024);
	cr_assert_eq(cfg->broker_background_timeout, 0);
	cr_assert_eq(cfg->sandbox_mode, SANDBOX_MODE_WORKSPACE_WRITE);
	cr_assert_not(cfg->sandbox_mode_configured, "the built-in default is no choice");
	cr_assert_eq(cfg->sandbox_rlimit_as, CONFIG_UNSET);
	cr_assert_eq(cfg->approval_method, CONFIG_APPROVAL_DENY);
	struct run_settings built_in;
	run_settings_init_defaults(&built_in);
	cr_assert_eq(strv_length(cfg->env_drop), built_in.n_env_drop,
	             "the [env] drop default is the built-in list");
	for (size_t i = 0; i < built_in.n_env_drop; i++)
		cr_assert_str_eq(cfg->env_drop[i], built_in.env_drop[i]);
	cr_assert_str_eq(cfg->env_drop[0], "*API_KEY*");
	static const struct {
		const char *name;
		bool on;
	} want[] = { { "git_add", true },       { "git_push", true },     { "git_discard", true },
		     { "rm_targets", true },    { "system_trees", true }, { "devices", true },
		     { "destroyers", true },    { "regex", true },        { "commands", false },
		     { "substitution", false }, { "git_trailer", false } };
	for (size_t i = 0; i < ELEMENTSOF(want); i++)
		cr_assert_eq(plugin(cfg, want[i].name)->enabled, want[i].on, "%s", want[i].name);
	cr_assert_eq(strv_length(cfg->files), 0);
}

Test(broker_config, enum_constants_match_the_key_table)
{
	/* [sandbox] mode's index is an enum sandbox_mode: every one, by name */
	for (int m = 0; m < SANDBOX_MODE_COUNT; m++)
		cr_assert_str_eq(config_choice_name("sandbox", "mode", m),
		                 sandbox_mode_name((enum sandbox_mode)m));
	cr_assert_null(config_choice_name("sandbox", "mode", SANDBOX_MODE_COUNT));
	cr_assert_str_eq(config_choice_name("sandbox", "mode", SANDBOX_MODE_RESTRICTED),
	                 "restricted");
	cr_assert_str_eq(config_choice_name("sandbox", "network", CONFIG_NETWORK_DENY), "deny");
	cr_assert_str_eq(
	        config_choice_name("broker", "background_survivors", CONFIG_SURVIVORS_KILL),
	        "kill");
	cr_assert_str_eq(config_choice_name("approval", "method", CONFIG_APPROVAL_TERMINAL),
	                 "terminal");
	cr_assert_null(config_choice_name("approval", "method", 3));
}

Test(broker_config, reports_every_error_with_file_and_line_golden)
{
	char src[600];
	snprintf(src, sizeof(src), "cp '%s/tests/config/errors.ini' '%s/errors.ini'",
	         getenv("SLUICE_SRCDIR"), tmp);
	cr_assert_eq(system(src), 0);
	_cleanup_free_ char *got = load_errors("errors.ini");
	char golden[600];
	snprintf(golden, sizeof(golden), "%s/tests/config/errors.golden", getenv("SLUICE_SRCDIR"));
	const char *update = getenv("SLUICE_UPDATE_GOLDEN");
	if (update && *update) {
		/* a golden file rewritten in a CI run would compare nothing */
		const char *ci = getenv("CI"), *strict = getenv("SLUICE_TESTS_STRICT");
		cr_assert(
		        !(ci && strcmp(ci, "true") == 0) && !(strict && *strict),
		        "SLUICE_UPDATE_GOLDEN is set in a CI run (CI=true or SLUICE_TESTS_STRICT)");
		FILE *f = fopen(update, "w");
		cr_assert_not_null(f);
		fputs(got, f);
		fclose(f);
	}
	FILE *f = fopen(golden, "r");
	cr_assert_not_null(f, "%s", golden);
	char want[8192] = "";
	size_t n = fread(want, 1, sizeof(want) - 1, f);
	fclose(f);
	want[n] = '\0';
	cr_assert_str_eq(got, want, "errors differ from %s; got:\n%s", golden, got);
}

Test(broker_config, rejects_line_longer_than_inih_limit)
{
	char line[400];
	/* 197 bytes is the longest line inih r55 reads whole (ini.h) */
	int n = snprintf(line, sizeof(line), "[plugin regex]\npattern = ");
	memset(line + n, 'a', 197 - 10);
	strcpy(line + n + 187, "\n");
	put("ok.ini", line);
	_cleanup_(config_freep) struct broker_config *cfg = load_ok("ok.ini");
	cr_assert_eq(strlen(plugin(cfg, "regex")->settings[0].value), 187);

	memset(line + n, 'a', 198 - 10);
	strcpy(line + n + 188, "\r\n");
	put("long.ini", line);
	_cleanup_free_ char *got = load_errors("long.ini");
	cr_assert_str_eq(got, "long.ini:2: line is longer than 197 bytes (the INI reader's limit); "
	                      "write a long value as indented continuation lines\n");
}

Test(broker_config, rejects_nul_bytes_and_long_section_names)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/nul.ini", tmp);
	FILE *f = fopen(path, "w");
	fwrite("[broker]\ntimeout = 3\0s\n", 1, 23, f);
	fclose(f);
	_cleanup_free_ char *got = load_errors("nul.ini");
	cr_assert_str_eq(got, "nul.ini:2: NUL byte in line\n");

	put("sec.ini", "[plugin a_plugin_name_that_is_far_too_long_for_inih_buffers]\nx = 1\n");
	_cleanup_free_ char *got2 = load_errors("sec.ini");
	cr_assert_str_eq(got2, "sec.ini:1: section name longer than 49 bytes\n");
}

/* A longer command would pass the policies, maybe a human, then fail at
 * sluice-launch, which takes at most 131071 bytes (LAUNCH_COMMAND_MAX). */
Test(broker_config, max_command_size_is_at_most_what_the_launcher_accepts)
{
	put("ok.ini", "[broker]\nmax_command_size = 131071\n");
	_cleanup_(config_freep) struct broker_config *cfg = load_ok("ok.ini");
	cr_assert_eq(cfg->broker_max_command_size, 131071);

	static const char *const too_big[] = { "131072", "128KiB", "1MiB" };
	for (size_t i = 0; i < ELEMENTSOF(too_big); i++) {
		char text[100], want[300];
		snprintf(text, sizeof(text), "[broker]\n\nmax_command_size = %s\n", too_big[i]);
		put("big.ini", text);
		_cleanup_free_ char *got = load_errors("big.ini");
		snprintf(want, sizeof(want),
		         "big.ini:3: bad value '%s' for 'max_command_size' in [broker]: expected a "
		         "size of at most 131071 bytes (the longest command sluice-launch "
		         "accepts)\n",
		         too_big[i]);
		cr_assert_str_eq(got, want);
	}

	put("bad.ini", "[broker]\nmax_command_size = lots\n");
	_cleanup_free_ char *bad = load_errors("bad.ini");
	cr_assert_str_eq(bad, "bad.ini:2: bad value 'lots' for 'max_command_size' in [broker]: "
	                      "expected a size such as 4096, 128KiB or 64MiB\n");
}

Test(broker_config, joins_continuation_lines_of_plugin_keys)
{
	put("join.ini", "[plugin regex]\npattern = curl\n  [^|]*\n  \\| *sh\naction = deny\n");
	_cleanup_(config_freep) struct broker_config *cfg = load_ok("join.ini");
	const struct config_plugin *p = plugin(cfg, "regex");
	cr_assert_eq(p->n_settings, 2);
	cr_assert_str_eq(p->settings[0].value, "curl[^|]*\\| *sh");
	cr_assert_eq(p->settings[0].continued, 3);
	cr_assert_eq(p->settings[1].continued, 0);
}

Test(broker_config, refuses_continuation_of_one_line_keys_and_appends_words)
{
	put("c.ini", "[broker]\ntimeout = 3s\n  4s\n");
	_cleanup_free_ char *got = load_errors("c.ini");
	cr_assert_str_eq(
	        got,
	        "c.ini:3: 'timeout' takes one line: only indent lines that continue a long value\n");

	put("w.ini", "[env]\ndrop =\ndrop = A_*\n  B_* C_*\n");
	_cleanup_(config_freep) struct broker_config *cfg = load_ok("w.ini");
	cr_assert_eq(strv_length(cfg->env_drop), 3);
	cr_assert_str_eq(cfg->env_drop[2], "C_*");
}

Test(broker_config, later_layers_override_earlier_ones)
{
	put("etc/sluice/sluice.ini", "[broker]\ntimeout = 10s\nkill_grace = 1s\n");
	put("etc/sluice/policies.d/20-b.ini", "[broker]\nkill_grace = 3s\n");
	put("etc/sluice/policies.d/10-a.ini", "[broker]\nkill_grace = 2s\n");
	put("etc/sluice/policies.d/30-c.conf", "this is not read\n");
	put("user/sluice/sluice.ini", "[broker]\ntimeout = 20s\n");
	{
		_cleanup_(config_freep) struct broker_config *cfg = load_ok(NULL);
		cr_assert_eq(cfg->broker_timeout, 20000);
		cr_assert_eq(cfg->broker_kill_grace, 3000, "drop-ins are read in name order");
		cr_assert_eq(strv_length(cfg->files), 4);
	}
	put("cli.ini", "[broker]\ntimeout = 40s\n");
	_cleanup_(config_freep) struct broker_config *cfg = load_ok("cli.ini");
	cr_assert_eq(cfg->broker_timeout, 40000);
}

Test(broker_config, output_caps_that_do_not_fit_are_an_error_at_their_line)
{
	put("cap.ini", "[broker]\ntimeout = 5s\noutput_cap = 0\n");
	_cleanup_free_ char *a = load_errors("cap.ini");
	cr_assert_str_eq(a, "cap.ini:3: [broker] output_head (4KiB) + output_tail (4KiB) must fit "
	                    "in output_cap (0)\n");
	/* across layers: the system file's head, the user's cap */
	put("etc/sluice/sluice.ini", "[broker]\noutput_head = 64KiB\n");
	put("user/sluice/sluice.ini", "[broker]\noutput_cap = 32KiB\n");
	_cleanup_free_ char *b = load_errors(NULL);
	cr_assert(strstr(b, "user/sluice/sluice.ini:2: [broker] output_head (64KiB) + output_tail "
	                    "(4KiB) must fit in output_cap (32KiB)"),
	          "%s", b);
	put("tail.ini", "[broker]\noutput_tail = 0\n");
	_cleanup_free_ char *c = load_errors("tail.ini");
	cr_assert(strstr(c, "tail.ini:2: [broker] output_tail must not be 0"), "%s", c);
}

Test(broker_config, an_approver_that_cannot_run_is_an_error_at_its_line)
{
	/* the approver is the system layer's to name */
	put("etc/sluice/sluice.ini",
	    "[approval]\nmethod = program\nprogram = /nonexistent/approver\n");
	_cleanup_free_ char *a = load_errors(NULL);
	cr_assert_str_eq(a, "etc/sluice/sluice.ini:3: [approval] program '/nonexistent/approver' "
	                    "cannot be run: No such file or directory\n");
	put("etc/sluice/sluice.ini", "[approval]\nmethod = program\n");
	_cleanup_free_ char *b = load_errors(NULL);
	cr_assert_str_eq(b, "etc/sluice/sluice.ini:2: [approval] method = program needs program = "
	                    "PATH, the approver to run\n");
	put("etc/sluice/sluice.ini", "[approval]\nmethod = program\nprogram = /bin/true\n");
	_cleanup_(config_freep) struct broker_config *cfg = load_ok(NULL);
	cr_assert_eq(cfg->approval_method, CONFIG_APPROVAL_PROGRAM);
}

Test(broker_config, a_user_layer_names_an_approver_only_when_the_system_lets_it)
{
	put("c.ini", "[approval]\nmethod = program\nprogram = /bin/true\n");
	_cleanup_free_ char *e = load_errors("c.ini");
	cr_assert_str_eq(e, "c.ini:3: 'program' in [approval] is read only from the system "
	                    "configuration (unless it sets [approval] user_program = yes)\n");
	put("etc/sluice/sluice.ini", "[approval]\nuser_program = yes\n");
	_cleanup_(config_freep) struct broker_config *cfg = load_ok("c.ini");
	cr_assert_str_eq(cfg->approval_program, "/bin/true");
	put("d.ini", "[approval]\nuser_program = yes\n");
	_cleanup_free_ char *d = load_errors("d.ini");
	cr_assert_str_eq(d, "d.ini:2: 'user_program' in [approval] is read only from the system "
	                    "configuration\n");
}

Test(broker_config, more_drop_ins_than_the_cap_are_an_error)
{
	/* CONFIG_MAX_DROPINS in config-layers.c: that many are read, one more
	 * is an error rather than a readdir-order choice of which to skip */
	enum { CAP = 256 };
	char rel[100];
	for (int i = 0; i < CAP; i++) {
		snprintf(rel, sizeof(rel), "etc/sluice/policies.d/%03d.ini", i);
		put(rel, "[broker]\nkill_grace = 2s\n");
	}
	{
		_cleanup_(config_freep) struct broker_config *cfg = load_ok(NULL);
		cr_assert_eq(strv_length(cfg->files), CAP);
	}
	snprintf(rel, sizeof(rel), "etc/sluice/policies.d/%03d.ini", CAP);
	put(rel, "[broker]\nkill_grace = 2s\n");
	_cleanup_free_ char *got = load_errors(NULL);
	cr_assert_str_eq(got, "etc/sluice/policies.d: more than 256 drop-ins\n");
}

Test(broker_config, user_layer_cannot_change_locked_system_keys)
{
	put("etc/sluice/sluice.ini", "[sandbox]\nmode = restricted\n[env]\ndrop = SECRET_*\n");
	put("user/sluice/sluice.ini",
	    "[sandbox]\nmode = unrestricted\n[env]\ndrop =\ndrop = MORE_*\n");
	_cleanup_free_ char *got = load_errors(NULL);
	cr_assert(strstr(
	        got,
	        "user/sluice/sluice.ini:2: 'mode' in [sandbox] is set by the system configuration ("));
	cr_assert(strstr(got, "etc/sluice/sluice.ini:2) and cannot be changed here\n"));
	cr_assert(strstr(
	        got,
	        "user/sluice/sluice.ini:4: 'drop' in [env] is set by the system configuration ("));
	cr_assert(strstr(got, "words can be added, not cleared\n"));
	cr_assert_null(strstr(got, ":5:"), "appending words is allowed");
}

Test(broker_config, user_layer_cannot_disable_system_plugins_unless_allowed)
{
	put("etc/sluice/sluice.ini",
	    "[plugin git_push]\nenabled = yes\n[plugin devices]\nuser_override = yes\n");
	put("user/sluice/sluice.ini",
	    "[plugin git_push]\nenabled = no\n[plugin devices]\nenabled = no\n"
	    "[plugin git_add]\nenabled = no\n");
	_cleanup_free_ char *got = load_errors(NULL);
	cr_assert(strstr(got,
	                 "user/sluice/sluice.ini:2: plugin 'git_push' is enabled by the system "
	                 "configuration ("),
	          "%s", got);
	cr_assert_null(strstr(got, ":4:"), "user_override lets the user disable devices: %s", got);
	cr_assert_null(strstr(got, ":6:"), "git_add was not configured by the system layer: %s",
	               got);

	put("user/sluice/sluice.ini",
	    "[plugin devices]\nenabled = no\n[plugin git_add]\nenabled = no\n"
	    "[plugin git_push]\nuser_override = yes\n");
	_cleanup_free_ char *got2 = load_errors(NULL);
	cr_assert_str_eq(
	        got2,
	        "user/sluice/sluice.ini:6: 'user_override' is read only from the system configuration\n");
}

Test(broker_config, a_missing_config_option_file_is_an_error)
{
	_cleanup_free_ char *got = load_errors("nonexistent.ini");
	cr_assert_str_eq(got, "nonexistent.ini: cannot open: No such file or directory\n");
}

Test(broker_config, configuring_an_unknown_plugin_adds_it_enabled)
{
	put("p.ini", "[plugin example]\npath = /opt/example.so\nlevel = 3\n");
	_cleanup_(config_freep) struct broker_config *cfg = load_ok("p.ini");
	const struct config_plugin *p = plugin(cfg, "example");
	cr_assert(p->enabled);
	cr_assert_not(p->builtin);
	cr_assert_str_eq(p->path, "/opt/example.so");
	cr_assert_eq(p->n_settings, 1);
	cr_assert_str_eq(p->settings[0].key, "level");
	cr_assert_eq(p->line, 1);
}

Test(broker_config, documentation_mentions_every_key)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/docs/configuration.md", getenv("SLUICE_SRCDIR"));
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	static char doc[131072];
	size_t n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = '\0';
	size_t nk;
	const struct config_key *keys = config_keys(&nk);
	for (size_t i = 0; i < nk; i++) {
		char want[128];
		snprintf(want, sizeof(want), "`%s`", keys[i].key);
		char sect[64];
		snprintf(sect, sizeof(sect), "[%s]", keys[i].section);
		const char *s = strstr(doc, sect);
		cr_assert_not_null(s, "docs/configuration.md lacks section %s", sect);
		cr_assert_not_null(strstr(s, want), "docs/configuration.md lacks %s in %s", want,
		                   sect);
	}
}

/* The lists of [sandbox] hide and protect, and root's covers, are
 * documented entry by entry, each with its reason. */
Test(broker_config, documentation_lists_every_hidden_and_protected_path)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/docs/configuration.md", getenv("SLUICE_SRCDIR"));
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	static char doc[131072];
	size_t n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = '\0';
#define ROW(p, why) { p, why },
	static const struct {
		const char *path, *why;
	} rows[] = { RUN_SETTINGS_SANDBOX_HIDE(ROW) RUN_SETTINGS_SANDBOX_PROTECT(ROW)
		             RUN_SETTINGS_ROOT_COVER(ROW) };
#undef ROW
	for (size_t i = 0; i < ELEMENTSOF(rows); i++) {
		char want[512];
		snprintf(want, sizeof(want), "| `%s` | %s |", rows[i].path, rows[i].why);
		cr_assert_not_null(strstr(doc, want), "docs/configuration.md lacks the row %s",
		                   want);
	}
}

/* The text of file under the source tree (static). */
static const char *source_text(const char *file)
{
	static char text[131072];
	char path[600];
	snprintf(path, sizeof(path), "%s/%s", getenv("SLUICE_SRCDIR"), file);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return text;
}

/* The defaults that the manual page and the shipped sluice.ini state for
 * the keys with named values are the key table's. */
Test(broker_config, manual_page_and_template_state_each_choice_default)
{
	size_t nk;
	const struct config_key *keys = config_keys(&nk);
	for (size_t i = 0; i < nk; i++) {
		if (keys[i].type != CONFIG_ENUM)
			continue;
		const char *page = source_text("man/sluice.ini.5.in");
		char roff[64], want[160];
		size_t o = 0;
		for (const char *c = keys[i].def; *c && o + 2 < sizeof(roff); c++) {
			if (*c == '-')
				roff[o++] = '\\';
			roff[o++] = *c;
		}
		roff[o] = '\0';
		snprintf(want, sizeof(want), "\n\\fB%s\\fR = ", keys[i].key);
		const char *k = strstr(page, want);
		cr_assert_not_null(k, "sluice.ini(5) lacks %s", keys[i].key);
		snprintf(want, sizeof(want), "(default \\fB%s\\fR)\n", roff);
		const char *d = strstr(k, want);
		cr_assert(d && d < strchr(k + 1, '\n') + 1, "sluice.ini(5): %s's default is not %s",
		          keys[i].key, keys[i].def);
		const char *conf = source_text("conf/sluice.ini");
		snprintf(want, sizeof(want), "\n;%s = ", keys[i].key);
		const char *t = strstr(conf, want);
		if (!t)
			continue;
		t += strlen(want);
		cr_assert(strncmp(t, keys[i].def, strlen(keys[i].def)) == 0 &&
		                  t[strlen(keys[i].def)] == '\n',
		          "conf/sluice.ini: %s's default is not %s", keys[i].key, keys[i].def);
	}
}

/* docs/configuration.md's "What a user layer may change": one row per key,
 * in the key table's order, saying what its lock lets a user layer do. */
Test(broker_config, documentation_says_what_a_user_layer_may_change)
{
	static const char *const words[] = {
		[CONFIG_LOCK_FREE] = "yes",
		[CONFIG_LOCK_SYSTEM] = "yes, unless the system layer sets it",
		[CONFIG_LOCK_APPEND] = "adds words; once the system layer sets it, cannot clear it",
		[CONFIG_LOCK_ONLY] = "no: read from the system layer only",
	};
	const char *doc = source_text("docs/configuration.md");
	const char *s = strstr(doc, "### What a user layer may change");
	cr_assert_not_null(s, "docs/configuration.md lacks 'What a user layer may change'");
	s = strstr(s, "|---|---|\n");
	cr_assert_not_null(s);
	s += strlen("|---|---|\n");
	size_t nk;
	const struct config_key *keys = config_keys(&nk);
	for (size_t i = 0; i < nk; i++) {
		char want[256];
		int n = snprintf(want, sizeof(want), "| `[%s] %s` | %s |\n", keys[i].section,
		                 keys[i].key, words[keys[i].lock]);
		cr_assert(strncmp(s, want, (size_t)n) == 0,
		          "row %zu of the table should be \"%.*s\", is \"%.*s\"", i + 1, n - 1,
		          want, (int)strcspn(s, "\n"), s);
		s += n;
	}
	cr_assert(*s != '|', "the table has a row for a key the code does not have: %.*s",
	          (int)strcspn(s, "\n"), s);
}

Test(broker_config, manual_page_describes_every_key_in_its_section)
{
	const char *page = source_text("man/sluice.ini.5.in");
	size_t nk;
	const struct config_key *keys = config_keys(&nk);
	for (size_t i = 0; i < nk; i++) {
		char heading[64], want[128];
		snprintf(heading, sizeof(heading), "\n.SH [%s]", keys[i].section);
		snprintf(want, sizeof(want), "\n\\fB%s\\fR = ", keys[i].key);
		const char *s = strstr(page, heading);
		cr_assert_not_null(s, "sluice.ini(5) lacks the section %s", heading + 1);
		const char *end = strstr(s + 1, "\n.SH ");
		const char *k = strstr(s, want);
		cr_assert(k && (!end || k < end), "sluice.ini(5) lacks %s in [%s]", keys[i].key,
		          keys[i].section);
	}
	/* and the keys sluice reads in every [plugin NAME] section */
#define PLUGIN_KEY_NAME(key, type, rule, doc) #key,
	static const char *const plugin_keys[] = { CONFIG_PLUGIN_KEYS(PLUGIN_KEY_NAME) };
#undef PLUGIN_KEY_NAME
	const char *s = strstr(page, "\n.SH [plugin NAME]");
	cr_assert_not_null(s, "sluice.ini(5) lacks the section [plugin NAME]");
	for (size_t i = 0; i < sizeof(plugin_keys) / sizeof(plugin_keys[0]); i++) {
		char want[128];
		snprintf(want, sizeof(want), "\n\\fB%s\\fR = ", plugin_keys[i]);
		cr_assert_not_null(strstr(s, want), "sluice.ini(5) lacks %s in [plugin NAME]",
		                   plugin_keys[i]);
	}
}

Test(broker_config, warns_about_system_files_others_could_change)
{
	put("etc/sluice/sluice.ini", "[broker]\ntimeout = 10s\n");
	char path[600];
	snprintf(path, sizeof(path), "%s/etc/sluice/sluice.ini", tmp);
	cr_assert_eq(chmod(path, 0644), 0);
	{
		_cleanup_(config_freep) struct broker_config *cfg = load_ok(NULL);
		if (getuid() == 0)
			cr_assert_eq(strv_length(cfg->warnings), 0, "root-owned 0644 is safe");
		else
			cr_assert(cfg->warnings && strstr(cfg->warnings[0], "not owned by root"),
			          "a system file owned by uid %u must be reported", getuid());
	}
	cr_assert_eq(chmod(path, 0664), 0);
	_cleanup_(config_freep) struct broker_config *cfg = load_ok(NULL);
	cr_assert_eq(strv_length(cfg->warnings), 1, "group-writable, whoever owns it");
	cr_assert(
	        strstr(cfg->warnings[0], "/etc/sluice/sluice.ini: not owned by root, or writable"));
}
