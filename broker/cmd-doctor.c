/* SPDX-License-Identifier: MIT */
/*
 * `sluice doctor`: what this machine gives sluice: the launcher and the
 * kernel's Landlock ABI (from `sluice-launch --print-features`), the sandbox
 * modes available, where jobs live; warns when running degraded.
 * Not for: changing anything; it only reports.
 */
#include "config.h"

#include <fcntl.h>
#include <jansson.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "jobs.h"
#include "log.h"
#include "run-settings.h"
#include "run-verbs.h"
#include "spawner.h"

#define FEATURES_MAX 65536

extern char **environ;

/* Run `launcher --print-features` and keep its standard output. */
static int print_features(const char *launcher, char **ret)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return neg_errno();
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	char *argv[] = { (char *)launcher, (char *)"--print-features", NULL };
	pid_t pid;
	int r = -posix_spawn(&pid, launcher, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (r < 0) {
		close(fds[0]);
		return r;
	}
	_cleanup_free_ char *buf = malloc(FEATURES_MAX);
	ssize_t n = buf ? read_full(fds[0], buf, FEATURES_MAX - 1) : -ENOMEM;
	close(fds[0]);
	int status;
	(void)waitpid(pid, &status, 0);
	if (n < 0)
		return (int)n;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -ENOTSUP;
	buf[n] = '\0';
	*ret = TAKE_PTR(buf);
	return 0;
}

int cmd_doctor(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		printf("Usage: sluice doctor\n");
		return 0;
	}
	struct run_settings s;
	run_settings_init_defaults(&s);
	int warnings = 0;
	printf("sluice %s\n", PACKAGE_VERSION);
	printf("config: built-in defaults (configuration files are not read by this build)\n");
	printf("policy plugins: not loaded by this build\n");
	printf("default sandbox mode: %s\n", s.sandbox_mode);

	_cleanup_free_ char *launcher = NULL, *features = NULL;
	if (spawn_find_launcher(&launcher) < 0) {
		printf("launcher: NOT FOUND (set SLUICE_LAUNCH or install sluice-launch next to "
		       "sluice)\n");
		warnings++;
	} else if (print_features(launcher, &features) < 0) {
		printf("launcher: %s (--print-features failed: sandbox support unknown)\n",
		       launcher);
		warnings++;
	} else {
		printf("launcher: %s\n", launcher);
		json_t *f = json_loads(features, 0, NULL);
		json_t *abi = f ? json_object_get(f, "landlock_abi") : NULL;
		if (json_is_integer(abi) && json_integer_value(abi) > 0) {
			printf("landlock: ABI %lld\n", (long long)json_integer_value(abi));
			printf("modes available: unrestricted, workspace-write, restricted\n");
		} else {
			printf("landlock: unavailable\n");
			printf("modes available: unrestricted\n");
			printf("WARNING: running degraded: workspace-write and restricted are refused "
			       "with sandbox_unavailable; unrestricted mode and the policies still "
			       "work\n");
			warnings++;
		}
		printf("features: %s", features);
		if (features[0] && features[strlen(features) - 1] != '\n')
			printf("\n");
		json_decref(f);
	}
	_cleanup_free_ char *dir = NULL;
	struct sluice_error err = { 0 };
	if (jobs_dir(&s, &dir, &err) < 0) {
		printf("jobs directory: UNUSABLE: %s\n", err.detail);
		warnings++;
	} else {
		printf("jobs directory: %s\n", dir);
	}
	return warnings ? 1 : 0;
}
