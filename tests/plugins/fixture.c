/* SPDX-License-Identifier: MIT */
/*
 * Loader and chain fixtures: one source, built once per FIXTURE_* variant
 * (tests/policy.am), each a plugin that misbehaves in exactly one way -- or,
 * for FIXTURE_OK, a plugin whose verdict, message and rewrite come from its
 * settings; `when = TEXT` limits any variant to commands containing TEXT. Loaded through the real loader by test-plugin-loader and
 * test-policy-chain.
 * Not for: examples of good plugins (plugins/example/ is one).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "sluice/policy.h"
/* the messages' header, to forge them (forge_done) */
#include "../../broker/policy/policy-msg.h"

/* open_keep_fd = yes: what open opened, and check expects still open
 * (one plugin instance per process, so one descriptor). */
static int kept_fd = -1;

/* Any variant: `open_mark = PATH` makes open create PATH (when open ran
 * shows); `open_crash = NAME` makes open crash while the environment
 * variable NAME is set (after the chain was validated without it), and
 * `open_hang = NAME` makes it pause for ever then; `open_keep_fd = yes`
 * makes open keep a descriptor that check then needs. */
static void fx_open_settings(const struct sluice_settings *settings)
{
	const char *mark = sluice_settings_get(settings, "open_mark");
	FILE *f = mark ? fopen(mark, "w") : NULL;
	if (f)
		(void)fclose(f);
	if (sluice_settings_get(settings, "open_keep_fd"))
		kept_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	const char *crash = sluice_settings_get(settings, "open_crash");
	if (crash && getenv(crash))
		raise(SIGSEGV);
	const char *hang = sluice_settings_get(settings, "open_hang");
	if (hang && getenv(hang))
		for (;;)
			if (pause() > 0)
				break;
}

static int fx_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	sluice_init(host);
	*ret_state = (void *)settings;
	fx_open_settings(settings);
#if defined(FIXTURE_OPEN_FAILS)
	sluice_settings_error(settings, 0, "broken value");
	return -EINVAL;
#elif defined(FIXTURE_OPEN_FAILS_LATE)
	/* fails only once the test says so: after the chain was validated */
	if (getenv("SLUICE_FX_FAIL_OPEN")) {
		sluice_settings_error(settings, 0, "broken later");
		return -EINVAL;
	}
	return 0;
#else
	return 0;
#endif
}

#ifdef FIXTURE_BUILTINS
static int recurse(volatile int depth)
{
	volatile char frame[1024];
	frame[0] = (char)depth;
	if (depth < 0) /* never: the stack ends first */
		return 0;
	return recurse(depth + 1) + frame[0];
}

/* `crash` and `hang` (FIXTURE_BUILTINS, at its end). */
static void fx_misbehave(const struct sluice_settings *s)
{
	const char *crash = sluice_settings_get(s, "crash");
	const char *hang = sluice_settings_get(s, "hang");
	if (crash && strcmp(crash, "segv") == 0)
		*(volatile int *)NULL = 1;
	else if (crash && strcmp(crash, "abort") == 0)
		abort();
	else if (crash && strcmp(crash, "stack") == 0)
		(void)recurse(0);
	if (hang && strcmp(hang, "spin") == 0)
		for (volatile unsigned long i = 0;; i++)
			;
	else if (hang && strcmp(hang, "malloc") == 0)
		/* most of its time inside the C library's allocator, which holds
		 * its lock there: a jump out of it would leave the lock held */
		for (size_t n = 1;; n = n * 7 % 65521 + 1) {
			void *volatile p = malloc(n);
			free(p);
		}
	else if (hang)
		for (;;)
			(void)pause();
}
#endif

__attribute__((unused)) static int fx_check(void *state, const struct sluice_command *cmd,
                                            struct sluice_verdict *v)
{
	const struct sluice_settings *s = state;
	/* when = TEXT: misbehave only on commands that contain TEXT */
	const char *when = sluice_settings_get(s, "when");
	if (when && !strstr(sluice_command_source(cmd), when))
		return SLUICE_ALLOW;
#ifdef FIXTURE_BUILTINS
	fx_misbehave(s);
#endif
	if (sluice_settings_get(s, "open_keep_fd") && (kept_fd < 0 || fcntl(kept_fd, F_GETFD) < 0))
		return sluice_verdict_add(v, SLUICE_DENY, "the descriptor open kept is gone", NULL);
	/* forge_done = yes: write, as the host would, this plugin's RESULT
	 * and the model's DONE, and one byte more, into the host's pipe */
	if (sluice_settings_get(s, "forge_done")) {
		struct policy_msg_header h[2] = {
			{ .type = POLICY_MSG_RESULT, .plugin = 0, .value = 0, .len = 0 },
			{ .type = POLICY_MSG_DONE, .plugin = 0, .value = 0, .len = 0 },
		};
		char forged[sizeof(h) + 1];
		memcpy(forged, h, sizeof(h));
		forged[sizeof(h)] = 'x';
		(void)!write(3, forged, sizeof(forged));
		return SLUICE_ALLOW;
	}
#if defined(FIXTURE_SEGV)
	volatile int *p = NULL;
	*p = 1;
	(void)s;
	(void)v;
	return SLUICE_ALLOW;
#elif defined(FIXTURE_HANG)
	(void)s;
	(void)v;
	for (;;)
		if (pause() > 0)
			break;
	return SLUICE_ALLOW;
#elif defined(FIXTURE_BAD_VERDICT)
	(void)s;
	(void)v;
	return 7;
#elif defined(FIXTURE_GARBAGE)
	(void)s;
	(void)v;
	for (int fd = 3; fd < 64; fd++)
		(void)!write(fd, "garbage garbage garbage!", 24);
	return SLUICE_ALLOW;
#elif defined(FIXTURE_CLOSE_PIPE)
	(void)s;
	(void)v;
	for (int fd = 3; fd < 64; fd++)
		(void)close(fd);
	return SLUICE_ALLOW;
#elif defined(FIXTURE_ERROR)
	(void)s;
	(void)v;
	return -EIO;
#else
	/* spawn = PATH: check starts a helper that stays, and writes its pid
	 * to PATH (a plugin's forked child, which must not outlive the check) */
	const char *spawn = sluice_settings_get(s, "spawn");
	pid_t helper = spawn ? fork() : -1;
	if (helper == 0) {
		sleep(60);
		_exit(0);
	}
	FILE *f = helper > 0 ? fopen(spawn, "w") : NULL;
	if (f) { /* written here: the helper may be ended before it could */
		fprintf(f, "%d\n", (int)helper);
		(void)fclose(f);
	}
	const char *word = sluice_settings_get(s, "verdict");
	int verdict = SLUICE_ALLOW;
	if (word && strcmp(word, "ask") == 0)
		verdict = SLUICE_ASK;
	else if (word && strcmp(word, "deny") == 0)
		verdict = SLUICE_DENY;
	const char *rewrite = sluice_settings_get(s, "rewrite");
	if (rewrite)
		(void)sluice_verdict_rewrite(v, rewrite);
	const char *message = sluice_settings_get(s, "message");
	if (message)
		return sluice_verdict_add(v, verdict, message,
		                          sluice_settings_get(s, "suggestion"));
	return verdict;
#endif
}

static const struct sluice_key keys[] = {
	{ "verdict", 0 },
	{ "message", 0 },
	{ "suggestion", 0 },
	{ "rewrite", 0 },
	{ "when", 0 },
	{ "open_mark", 0 },
	{ "spawn", 0 },
	{ "open_crash", 0 },
	{ "forge_done", 0 },
	{ "open_keep_fd", 0 },
	{ "open_hang", 0 },
	{ "crash", 0 },
	{ "hang", 0 },
	{ "list", SLUICE_KEY_REPEATABLE },
	{ "long", SLUICE_KEY_JOINABLE },
	{ NULL, 0 },
};

#if defined(FIXTURE_NEWER_MINOR_TAIL) || defined(FIXTURE_NEWER_MINOR_ZERO)
/* A plugin built against a future 1.2 header with one more member. */
struct future_plugin {
	struct sluice_policy_plugin base;
	void (*added_in_1_2)(void);
};
#ifdef FIXTURE_NEWER_MINOR_TAIL
static void future(void)
{
}
#endif
SLUICE_PLUGIN_EXPORT const struct future_plugin sluice_policy_plugin = {
	.base = {
		.abi_version = (1u << 16) | 2u,
		.struct_size = sizeof(struct future_plugin),
		.name = "fx",
		.keys = keys,
		.open = fx_open,
		.check = fx_check,
	},
#ifdef FIXTURE_NEWER_MINOR_TAIL
	.added_in_1_2 = future,
#endif
};
#else
#ifdef FIXTURE_NO_SYMBOL
SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin sluice_policy_plugin_v0 = {
#else
SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin sluice_policy_plugin = {
#endif
#ifdef FIXTURE_WRONG_MAJOR
	.abi_version = 2u << 16,
#else
	.abi_version = SLUICE_POLICY_ABI_VERSION,
#endif
#ifdef FIXTURE_TOO_SMALL
	.struct_size = 8,
#else
	.struct_size = sizeof(struct sluice_policy_plugin),
#endif
	.name = "fx",
	.keys = keys,
	.open = fx_open,
#ifndef FIXTURE_NO_CHECK
	.check = fx_check,
#endif
};
#endif

#ifdef FIXTURE_BUILTINS
/* Stands in for the built-ins' module, copied as builtins.so into a plugin
 * directory of a test's own, where it is git_add (a chain of built-ins
 * alone runs them in the broker's process, policy-inproc.c); the same file
 * configured as a path is the same code in a child. On a command that
 * contains `when`, check misbehaves as its settings say: `crash = segv`,
 * `abort` or `stack` (a recursion past the end of the stack), `hang =
 * spin` (a loop on the CPU), `malloc` (a loop of malloc and free) or `pause`. */
SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin sluice_policy_plugin_git_add = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "git_add",
	.keys = keys,
	.open = fx_open,
	.check = fx_check,
};
#endif
