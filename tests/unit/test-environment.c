/* SPDX-License-Identifier: MIT */
/*
 * broker/run/environment.c: secrets are dropped by pattern, the rest is kept,
 * the non-interactive settings and the marker are always there, and the
 * configured [env] set wins.
 */
#define _GNU_SOURCE /* FNM_CASEFOLD */
#include <criterion/criterion.h>
#include <fnmatch.h>
#include <string.h>

#include "cleanup.h"
#include "run/environment.h"
#include "core/run-settings.h"
#include "strv.h"

static const char *get(char **env, const char *name)
{
	size_t n = strlen(name);
	STRV_FOREACH (e, env)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

Test(environment, drops_secrets_by_default_patterns)
{
	struct run_settings s;
	run_settings_init_defaults(&s);
	char *parent[] = { "PATH=/usr/bin",
		           "HOME=/home/u",
		           "OPENAI_API_KEY=sk",
		           "GITHUB_TOKEN=ghp",
		           "AWS_SECRET_ACCESS_KEY=a",
		           "ANTHROPIC_BASE_URL=x",
		           "GEMINI_API_KEY=g",
		           "MY_SECRET_THING=s",
		           "TOKENIZER=keep",
		           "LANG=C.UTF-8",
		           NULL };
	_cleanup_strv_free_ char **env = NULL;
	cr_assert_eq(environment_build(parent, s.env_drop, s.n_env_drop, NULL, 0, &env), 0);
	cr_assert_str_eq(get(env, "PATH"), "/usr/bin");
	cr_assert_str_eq(get(env, "HOME"), "/home/u");
	cr_assert_str_eq(get(env, "LANG"), "C.UTF-8");
	cr_assert_str_eq(get(env, "TOKENIZER"), "keep", "a look-alike is kept");
	cr_assert_null(get(env, "OPENAI_API_KEY"));
	cr_assert_null(get(env, "GITHUB_TOKEN"));
	cr_assert_null(get(env, "AWS_SECRET_ACCESS_KEY"));
	cr_assert_null(get(env, "ANTHROPIC_BASE_URL"));
	cr_assert_null(get(env, "GEMINI_API_KEY"));
	cr_assert_null(get(env, "MY_SECRET_THING"));
}

Test(environment, sets_non_interactive_variables_and_marker)
{
	char *parent[] = { "PAGER=less", "GIT_TERMINAL_PROMPT=1", NULL };
	_cleanup_strv_free_ char **env = NULL;
	cr_assert_eq(environment_build(parent, NULL, 0, NULL, 0, &env), 0);
	cr_assert_str_eq(get(env, "PAGER"), "cat", "the parent's pager is replaced");
	cr_assert_str_eq(get(env, "GIT_PAGER"), "cat");
	cr_assert_str_eq(get(env, "GIT_TERMINAL_PROMPT"), "0");
	cr_assert_str_eq(get(env, "DEBIAN_FRONTEND"), "noninteractive");
	cr_assert_str_eq(get(env, ENVIRONMENT_MARKER), "1");
	cr_assert(strstr(get(env, "EDITOR"), "false"));
	cr_assert(strstr(get(env, "GIT_SEQUENCE_EDITOR"), "background"));
	size_t pagers = 0;
	STRV_FOREACH (e, env)
		pagers += strncmp(*e, "PAGER=", 6) == 0;
	cr_assert_eq(pagers, 1, "each variable appears once");
}

Test(environment, configured_set_wins_and_is_checked)
{
	const char *set[] = { "PAGER=more", "EXTRA=1" };
	_cleanup_strv_free_ char **env = NULL;
	cr_assert_eq(environment_build(NULL, NULL, 0, set, 2, &env), 0);
	cr_assert_str_eq(get(env, "PAGER"), "more");
	cr_assert_str_eq(get(env, "EXTRA"), "1");
	const char *bad[] = { "NOEQUALS" };
	char **env2 = NULL;
	cr_assert_eq(environment_build(NULL, NULL, 0, bad, 1, &env2), -EINVAL);
	cr_assert_null(env2);
}

Test(environment, pattern_matching)
{
	const char *drop[] = { "*_TOKEN", "AWS_SECRET*" };
	cr_assert(environment_is_dropped("NPM_TOKEN", drop, 2));
	cr_assert(environment_is_dropped("AWS_SECRET_ACCESS_KEY", drop, 2));
	cr_assert_not(environment_is_dropped("TOKEN_PATH", drop, 2));
	cr_assert_not(environment_is_dropped("AWS_REGION", drop, 2));
	cr_assert(environment_is_dropped("github_token", drop, 2), "case is ignored");
	cr_assert(environment_is_dropped("Aws_Secret_Access_Key", drop, 2), "case is ignored");
}

/* The matcher agrees with fnmatch(3) ignoring case, which the
 * documentation promises, on every pair: wildcards at either end and in the
 * middle, runs that must backtrack, '?', letters in either case, and the
 * bracket and escape forms it hands over. */
Test(environment, patterns_match_as_fnmatch_does)
{
	static const char *const patterns[] = {
		"*_TOKEN", "AWS_SECRET*", "*_SECRET*",   "*", "GH_TOKEN",
		"A?C",     "*A*B*C*",     "*_KEY_*_KEY", "",  "[AB]_KEY",
		"X\\_Y",   "*?",          "??*_T",
	};
	static const char *const names[] = {
		"NPM_TOKEN",
		"TOKEN_PATH",
		"A_TOKEN_TOKEN",
		"_TOKEN",
		"AWS_SECRET",
		"AWS_SECRETS",
		"MY_SECRET_THING",
		"SECRET",
		"GH_TOKEN",
		"GH_TOKENS",
		"ABC",
		"AC",
		"AXC",
		"AABBCC",
		"CBA",
		"X_KEY_Y_KEY",
		"X_KEY_KEY",
		"A_KEY",
		"C_KEY",
		"X_Y",
		"Q",
		"QR_T",
		"R_T",
		"npm_token",
		"Aws_Secret",
		"x_key_y_Key",
		"b_key",
	};
	for (size_t p = 0; p < sizeof(patterns) / sizeof(*patterns); p++)
		for (size_t n = 0; n < sizeof(names) / sizeof(*names); n++)
			cr_assert_eq(environment_is_dropped(names[n], &patterns[p], 1),
			             fnmatch(patterns[p], names[n], FNM_CASEFOLD) == 0,
			             "'%s' against '%s'", names[n], patterns[p]);
}

/* Every name that held a credential in a measured run is dropped by the
 * built-in patterns, and the look-alikes that programs need are kept. */
Test(environment, default_patterns_catch_secrets_without_an_underscore)
{
	struct run_settings s;
	run_settings_init_defaults(&s);
	const char *secrets[] = {
		"PGPASSWORD", "MYSQL_PWD", "SECRET_KEY", "API_KEY", "TOKEN", "PASSWORD",
		"GITHUB_PAT", "GH_TOKEN", "NPM_TOKEN", "github_token", "DB_PASSWD", "CLIENT_SECRET",
		"OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID",
		"SSH_PRIVATE_KEY", "GPG_PASSPHRASE", "NPM_CONFIG__AUTH", "SLACK_TOKEN_V2",
		"XAPIKEY", "RAILS_MASTER_KEY", "KAGGLE_KEY", "JWT_SIGNING_KEY", "BW_SESSION",
		"OP_SESSION_my", "CI_JOB_JWT", "CI_JOB_JWT_V2", "SENTRY_DSN", "SLACK_WEBHOOK_URL",
		"DISCORD_WEBHOOK", "AZURE_STORAGE_CONNECTION_STRING", "DOCKER_AUTH_CONFIG",
		/* red team 51a: names the list missed */
		"SSHPASS", "DB_PASS", "SMTP_PASS", "ANSIBLE_BECOME_PASS", "LDAP_BIND_PW",
		"GOOGLE_CREDENTIALS", "CREDENTIALS", "DOCKERHUB_CREDS", "TS_AUTHKEY",
		"TAILSCALE_AUTHKEY", "FIREBASE_SERVICE_ACCOUNT", "KUBE_CONFIG", "ID_RSA",
		"TLS_KEY_PEM", "ORG_GRADLE_PROJECT_signingInMemoryKey",
		"ORG_GRADLE_PROJECT_signingKey", "SESSION_COOKIE"
	};
	const char *kept[] = { "PWD",
		               "OLDPWD",
		               "PATH",
		               "MANPATH",
		               "TOKENIZERS_PARALLELISM",
		               "HOME",
		               "USER",
		               "SSH_AUTH_SOCK",
		               "LANG",
		               "GOPATH",
		               "KUBECONFIG",
		               "CACHE_BYPASS",
		               "COMPASS_HOME",
		               "AWS_REGION",
		               "AWS_PROFILE",
		               "DISPLAY",
		               "TERM",
		               "XDG_RUNTIME_DIR",
		               "GITHUB_SHA",
		               "CI",
		               "KEYMAP",
		               "PATCH_LEVEL",
		               "XDG_SESSION_ID",
		               "XDG_SESSION_TYPE",
		               "DBUS_SESSION_BUS_ADDRESS",
		               "SSH_CONNECTION",
		               "KEYTIMEOUT" };
	for (size_t i = 0; i < ELEMENTSOF(secrets); i++)
		cr_assert(environment_is_dropped(secrets[i], s.env_drop, s.n_env_drop),
		          "%s is dropped", secrets[i]);
	for (size_t i = 0; i < ELEMENTSOF(kept); i++)
		cr_assert_not(environment_is_dropped(kept[i], s.env_drop, s.n_env_drop),
		              "%s is kept", kept[i]);
}

/* A URL's password is removed from a kept variable; the rest of the value,
 * and URLs without one, stay as they were. */
Test(environment, url_passwords_are_removed_from_values)
{
	char *parent[] = { "DATABASE_URL=postgres://app:s3cr%40t@db.internal:5432/app?ssl=1",
		           "https_proxy=http://user:hunter2@proxy:3128/",
		           "ALL=a://x:1@h/ b://y:2@i:3/p c://plain/p",
		           "NO_USER=http://proxy:3128/x@y",
		           "USER_ONLY=https://token@host/repo",
		           "EMPTY_PW=ftp://u:@h/",
		           "NOT_URL=user:pw@host",
		           "GIT_URL=https://ghp_abcdefghijklmnopqrstuvwxyz0123@example.org/o/r",
		           "LONG_USER=https://x-oauth-basic-abcdefghijklmnop@h/r",
		           "SSH_URL=ssh://git@example.org/o/r.git",
		           "JDBC_URL=jdbc:postgresql://h/db?user=u&password=jdbcpw&ssl=true",
		           "SAS_URL=https://a.example.org/c?sv=2020&sig=sassig#frag",
		           "MAPS=https://maps.example.org/api?KEY=AIzaX;v=3 next://h/?q=1",
		           NULL };
	_cleanup_strv_free_ char **env = NULL;
	cr_assert_eq(environment_build(parent, NULL, 0, NULL, 0, &env), 0);
	cr_assert_str_eq(get(env, "DATABASE_URL"), "postgres://app@db.internal:5432/app?ssl=1");
	cr_assert_str_eq(get(env, "https_proxy"), "http://user@proxy:3128/");
	cr_assert_str_eq(get(env, "ALL"), "a://x@h/ b://y@i:3/p c://plain/p");
	cr_assert_str_eq(get(env, "NO_USER"), "http://proxy:3128/x@y",
	                 "an @ in the path is not userinfo");
	cr_assert_str_eq(get(env, "USER_ONLY"), "https://token@host/repo");
	cr_assert_str_eq(get(env, "EMPTY_PW"), "ftp://u:@h/");
	cr_assert_str_eq(get(env, "NOT_URL"), "user:pw@host");
	cr_assert_str_eq(get(env, "GIT_URL"), "https://example.org/o/r", "a token as the user");
	cr_assert_str_eq(get(env, "LONG_USER"), "https://h/r", "20 characters or more");
	cr_assert_str_eq(get(env, "SSH_URL"), "ssh://git@example.org/o/r.git", "a login stays");
	cr_assert_str_eq(get(env, "JDBC_URL"), "jdbc:postgresql://h/db?user=u&password=&ssl=true");
	cr_assert_str_eq(get(env, "SAS_URL"), "https://a.example.org/c?sv=2020&sig=#frag");
	cr_assert_str_eq(get(env, "MAPS"), "https://maps.example.org/api?KEY=;v=3 next://h/?q=1");
}
