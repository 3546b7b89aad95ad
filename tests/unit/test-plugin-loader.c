/* SPDX-License-Identifier: MIT */
/*
 * broker/policy/plugin-loader.c: the built-in plugins found by name in the
 * plugin directory, every way a plugin can fail to load, each through the
 * real dlopen of a fixture .so (tests/plugins/fixture.c), and the [plugin
 * NAME] key checks done before open(). Every error must name the plugin and where it was configured.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/broker-config.h"
#include "policy/plugin-loader.h"

static char path[512];

static const char *fixture(const char *variant)
{
	snprintf(path, sizeof(path), "%s/tests/plugins/fx_%s.so", getenv("SLUICE_BUILDDIR"),
	         variant);
	return path;
}

/* Load a fixture as [plugin fx] configured at test.ini:3. */
static int load(const char *variant, struct config_setting *settings, size_t n,
                struct loaded_plugin *ret, struct sluice_error *err)
{
	struct config_plugin conf = {
		.name = (char *)"fx",
		.path = (char *)fixture(variant),
		.file = (char *)"test.ini",
		.line = 3,
		.enabled = true,
		.settings = settings,
		.n_settings = n,
	};
	static struct config_plugin keep;
	keep = conf;
	return plugin_load(&keep, "/nonexistent", ret, err);
}

static void expect_error(const char *variant, int code, const char *detail)
{
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	int r = load(variant, NULL, 0, &p, &err);
	cr_assert_eq(r, code, "%s: got %d (%s)", variant, r, err.detail);
	cr_assert(strstr(err.detail, "plugin 'fx' (test.ini:3)"), "%s: %s", variant, err.detail);
	cr_assert(strstr(err.detail, detail), "%s: '%s' lacks '%s'", variant, err.detail, detail);
	cr_assert_null(p.dl);
}

Test(plugin_loader, loads_a_good_plugin_and_copies_its_descriptor)
{
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	cr_assert_eq(load("ok", NULL, 0, &p, &err), 0, "%s", err.detail);
	cr_assert_not_null(p.dl);
	cr_assert_str_eq(p.desc.name, "fx");
	cr_assert_not_null(p.desc.check);
	cr_assert_str_eq(p.where, "test.ini:3");
	plugin_unload(&p);
	cr_assert_null(p.dl);
}

Test(plugin_loader, takes_each_builtin_plugin_from_the_plugin_directory_by_its_name)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/plugins", getenv("SLUICE_BUILDDIR"));
	size_t n;
	const struct config_builtin *b = config_builtins(&n);
	cr_assert_gt(n, 0);
	for (size_t i = 0; i < n; i++) {
		struct config_plugin conf = { .name = (char *)b[i].name, .enabled = true };
		struct loaded_plugin p = { 0 };
		struct sluice_error err = { 0 };
		cr_assert_eq(plugin_load(&conf, dir, &p, &err), 0, "%s: %s", b[i].name, err.detail);
		char so[600];
		snprintf(so, sizeof(so), "%s/builtins.so", dir);
		cr_assert(plugin_is_loaded(&p));
		cr_assert_str_eq(p.desc.name, b[i].name);
		cr_assert_not_null(p.dl, "%s was not loaded from a file", b[i].name);
		cr_assert_str_eq(plugin_origin(&p), so);
		plugin_unload(&p);
	}
}

Test(plugin_loader, manual_page_describes_every_key_of_each_builtin_plugin)
{
	char dir[512], man[600];
	snprintf(dir, sizeof(dir), "%s/plugins", getenv("SLUICE_BUILDDIR"));
	snprintf(man, sizeof(man), "%s/man/sluice.ini.5.in", getenv("SLUICE_SRCDIR"));
	FILE *f = fopen(man, "r");
	cr_assert_not_null(f, "%s", man);
	static char page[131072];
	page[fread(page, 1, sizeof(page) - 1, f)] = '\0';
	fclose(f);
	size_t n;
	const struct config_builtin *b = config_builtins(&n);
	for (size_t i = 0; i < n; i++) {
		struct config_plugin conf = { .name = (char *)b[i].name, .enabled = true };
		struct loaded_plugin p = { 0 };
		struct sluice_error err = { 0 };
		cr_assert_eq(plugin_load(&conf, dir, &p, &err), 0, "%s", err.detail);
		char tag[96];
		snprintf(tag, sizeof(tag), "\n.B [plugin %s]\n", b[i].name);
		const char *s = strstr(page, tag);
		cr_assert_not_null(s, "sluice.ini(5) does not describe [plugin %s]", b[i].name);
		const char *end = strstr(s + 1, "\n.TP");
		for (const struct sluice_key *k = p.desc.keys; k && k->name; k++) {
			char want[96];
			snprintf(want, sizeof(want), "\\fB%s\\fR = ", k->name);
			const char *at = strstr(s, want);
			cr_assert(at && (!end || at < end),
			          "sluice.ini(5) lacks '%s' of [plugin %s]", k->name, b[i].name);
		}
		plugin_unload(&p);
	}
}

Test(plugin_loader, a_builtin_plugin_removed_from_the_plugin_directory_is_not_found)
{
	char dir[] = "/tmp/sluice-plugin-dir-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	struct config_plugin conf = { .name = (char *)"git_add", .enabled = true };
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	int r = plugin_load(&conf, dir, &p, &err);
	(void)rmdir(dir);
	cr_assert_eq(r, -ENOENT, "%s", err.detail);
	cr_assert(strstr(err.detail, "plugin 'git_add' (built-in default): cannot find"), "%s",
	          err.detail);
	cr_assert(strstr(err.detail, "/builtins.so"), "%s", err.detail);
}

Test(plugin_loader, a_path_replaces_a_builtin_plugin)
{
	struct config_plugin conf = { .name = (char *)"git_add",
		                      .path = (char *)fixture("ok"),
		                      .enabled = true };
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	cr_assert_eq(plugin_load(&conf, "/nonexistent", &p, &err), 0, "%s", err.detail);
	cr_assert_not_null(p.dl);
	cr_assert_str_eq(p.desc.name, "fx");
	cr_assert_str_eq(plugin_origin(&p), fixture("ok"));
	plugin_unload(&p);
}

Test(plugin_loader, takes_another_plugin_from_the_plugin_directory)
{
	char dir[] = "/tmp/sluice-plugin-dir-XXXXXX", so[64];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(so, sizeof(so), "%s/fx.so", dir);
	cr_assert_eq(symlink(fixture("ok"), so), 0);
	struct config_plugin conf = { .name = (char *)"fx", .enabled = true };
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	int r = plugin_load(&conf, dir, &p, &err);
	bool from_dir = p.dl && p.file && strcmp(p.file, so) == 0;
	plugin_unload(&p);
	(void)unlink(so);
	(void)rmdir(dir);
	cr_assert_eq(r, 0, "%s", err.detail);
	cr_assert(from_dir, "not loaded from %s", so);
}

Test(plugin_loader, refuses_a_missing_file)
{
	struct config_plugin conf = { .name = (char *)"nothere", .enabled = true };
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	cr_assert_eq(plugin_load(&conf, "/nonexistent/dir", &p, &err), -ENOENT);
	/* the directory itself is missing: a build run from elsewhere, so the
	 * error says what to set */
	cr_assert_str_eq(err.detail, "plugin 'nothere' (built-in default): cannot find "
	                             "/nonexistent/dir/nothere.so; the plugin directory does not "
	                             "exist: install sluice, or set SLUICE_PLUGIN_DIR to the "
	                             "plugins directory of its build (an MCP client must pass it "
	                             "in the server's env)");
}

Test(plugin_loader, refuses_a_library_without_the_descriptor)
{
	expect_error("no_symbol", -ENOEXEC, "exports no 'sluice_policy_plugin'");
}

Test(plugin_loader, refuses_another_major_naming_both_versions)
{
	expect_error("wrong_major", -EPROTO,
	             "was built for plugin ABI 2.0; this sluice speaks 1.1");
}

Test(plugin_loader, refuses_a_newer_minor_with_a_nonzero_tail)
{
	expect_error("newer_minor_tail", -EPROTO,
	             "needs plugin ABI 1.2 features this sluice (ABI 1.1) does not have");
}

Test(plugin_loader, accepts_a_newer_minor_whose_tail_is_zero)
{
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	cr_assert_eq(load("newer_minor_zero", NULL, 0, &p, &err), 0, "%s", err.detail);
	plugin_unload(&p);
}

Test(plugin_loader, refuses_a_descriptor_smaller_than_1_0)
{
	expect_error("too_small", -EPROTO, "descriptor of 8 bytes is smaller than ABI 1.0's");
}

Test(plugin_loader, refuses_a_descriptor_without_check)
{
	expect_error("no_check", -EPROTO, "has no check function");
}

Test(plugin_loader, refuses_a_file_that_is_not_a_library)
{
	struct config_plugin conf = { .name = (char *)"fx",
		                      .path = (char *)"/etc/hostname",
		                      .file = (char *)"test.ini",
		                      .line = 3,
		                      .enabled = true };
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	if (access("/etc/hostname", R_OK) < 0)
		conf.path = (char *)"/etc/passwd";
	cr_assert_eq(plugin_load(&conf, "/x", &p, &err), -ENOEXEC);
	cr_assert(strstr(err.detail, "plugin 'fx' (test.ini:3): cannot load: "), "%s", err.detail);
}

static struct config_setting setting(const char *key, const char *file, unsigned line,
                                     enum config_layer layer)
{
	return (struct config_setting){ .key = (char *)key,
		                        .value = (char *)"v",
		                        .file = (char *)file,
		                        .line = line,
		                        .layer = layer };
}

Test(plugin_loader, refuses_keys_the_plugin_does_not_declare)
{
	struct config_setting s[] = { setting("verdict", "a.ini", 4, CONFIG_LAYER_CLI),
		                      setting("verdcit", "a.ini", 5, CONFIG_LAYER_CLI) };
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	cr_assert_eq(load("ok", s, 2, &p, &err), -EINVAL);
	cr_assert_str_eq(err.detail,
	                 "a.ini:5: unknown key 'verdcit' in [plugin fx]; did you mean 'verdict'?");
}

Test(plugin_loader, refuses_duplicates_unless_repeatable)
{
	struct config_setting s[] = { setting("list", "a.ini", 4, CONFIG_LAYER_CLI),
		                      setting("list", "a.ini", 5, CONFIG_LAYER_CLI),
		                      setting("verdict", "a.ini", 6, CONFIG_LAYER_CLI),
		                      setting("verdict", "a.ini", 7, CONFIG_LAYER_CLI) };
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	cr_assert_eq(load("ok", s, 4, &p, &err), -EINVAL);
	cr_assert_str_eq(err.detail,
	                 "a.ini:7: duplicate key 'verdict' in [plugin fx] (first at line 6)");
	/* a later layer replaces a single key */
	s[3].file = (char *)"b.ini";
	cr_assert_eq(load("ok", s, 4, &p, &err), 0, "%s", err.detail);
	plugin_unload(&p);
}

Test(plugin_loader, refuses_continuation_of_keys_that_are_not_joinable)
{
	struct config_setting s[] = { setting("long", "a.ini", 4, CONFIG_LAYER_CLI),
		                      setting("verdict", "a.ini", 6, CONFIG_LAYER_CLI) };
	s[0].continued = 5;
	s[1].continued = 7;
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	cr_assert_eq(load("ok", s, 2, &p, &err), -EINVAL);
	cr_assert_str_eq(err.detail,
	                 "a.ini:7: 'verdict' of [plugin fx] takes one line: only indent "
	                 "lines that continue a long value");
}

Test(plugin_loader, a_locked_plugin_keeps_its_system_keys)
{
	struct config_setting s[] = { setting("verdict", "/etc/sluice/sluice.ini", 4,
		                              CONFIG_LAYER_SYSTEM),
		                      setting("verdict", "user.ini", 2, CONFIG_LAYER_USER) };
	struct config_plugin conf = { .name = (char *)"fx",
		                      .path = (char *)fixture("ok"),
		                      .file = (char *)"/etc/sluice/sluice.ini",
		                      .line = 3,
		                      .enabled = true,
		                      .locked = true,
		                      .settings = s,
		                      .n_settings = 2 };
	struct loaded_plugin p = { 0 };
	struct sluice_error err = { 0 };
	cr_assert_eq(plugin_load(&conf, "/x", &p, &err), -EINVAL);
	cr_assert_str_eq(err.detail,
	                 "user.ini:2: 'verdict' of [plugin fx] is set by the system "
	                 "configuration (/etc/sluice/sluice.ini:4) and cannot be changed here");
	conf.locked = false;
	cr_assert_eq(plugin_load(&conf, "/x", &p, &err), 0, "%s", err.detail);
	plugin_unload(&p);
}

Test(plugin_loader, finds_the_plugin_directory)
{
	setenv("SLUICE_PLUGIN_DIR", "/some/where", 1);
	char *d = plugin_loader_dir();
	cr_assert_str_eq(d, "/some/where");
	free(d);
	unsetenv("SLUICE_PLUGIN_DIR");
	/* a test program is not the build tree's sluice: its directory has
	 * no config.status */
	d = plugin_loader_dir();
	cr_assert_str_eq(d, SLUICE_PLUGINDIR);
	free(d);
}
