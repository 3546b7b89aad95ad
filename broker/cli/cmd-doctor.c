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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/capabilities.h"
#include "config/broker-config.h"
#include "policy/broker-context.h"
#include "policy/plugin-loader.h"
#include "policy/policy-chain.h"
#include "cleanup.h"
#include "core/error-kind.h"
#include "fd-util.h"
#include "run/jobs.h"
#include "run/runner.h"
#include "log.h"
#include "parse-number.h"
#include "core/run-settings.h"
#include "cli/run-verbs.h"
#include "run/spawner.h"
#include "strv.h"
#include "cli/verb-options.h"

#define FEATURES_MAX 65536

enum { OPT_CONFIG };
static const struct verb_option doctor_options[] = {
	[OPT_CONFIG] = VERB_OPTION_CONFIG,
};

const struct verb_spec doctor_spec = {
	.name = "doctor",
	.summary = "report what this machine supports",
	.args = "",
	.options = doctor_options,
	.n_options = ELEMENTSOF(doctor_options),
};

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

/* How a place of the configuration search ended: "read", the drop-ins
 * read from a directory, "not found", or "found" when the configuration
 * was refused (cfg NULL: nothing was applied). */
static void print_place(const struct config_place *pl, const struct broker_config *cfg)
{
	static const char *const layers[] = { [CONFIG_LAYER_SYSTEM] = "system",
		                              [CONFIG_LAYER_USER] = "user",
		                              [CONFIG_LAYER_CLI] = "--config" };
	struct stat st;
	bool exists = stat(pl->path, &st) == 0;
	printf("  %-8s %s%s: ", layers[pl->layer], pl->path, pl->directory ? "/*.ini" : "");
	if (!exists) {
		printf("not found\n");
		return;
	}
	if (!cfg) {
		printf("found\n");
		return;
	}
	size_t len = strlen(pl->path), n = 0;
	STRV_FOREACH (f, cfg->files) {
		if (!pl->directory && strcmp(*f, pl->path) == 0) {
			printf("read\n");
			return;
		}
		if (pl->directory && strncmp(*f, pl->path, len) == 0 && (*f)[len] == '/')
			printf("%s%s", n++ ? ", " : "read ", *f + len + 1);
	}
	printf("%s\n", n ? "" : pl->directory ? "no drop-ins" : "not read");
}

/* Every place the configuration is looked for, in order, and what was
 * found there (cfg NULL: the configuration was refused). */
static void report_config_search(const char *cli_file, const struct broker_config *cfg)
{
	struct config_paths paths = { .cli_file = cli_file };
	struct config_place *places = NULL;
	size_t n = 0;
	if (config_search(&paths, &places, &n) < 0) {
		printf("configuration: out of memory\n");
		return;
	}
	printf("configuration (each layer adds to the ones before it):\n");
	for (size_t i = 0; i < n; i++)
		print_place(&places[i], cfg);
	config_places_free(places, n);
	if (cfg && (!cfg->files || !cfg->files[0]))
		printf("  no file read: the built-in defaults apply\n");
	else if (!cfg)
		printf("  refused: its errors are on standard error, and every command is refused "
		       "until they are fixed\n");
}

/* The warnings of the configuration read and the plugins it loads; a plugin
 * that cannot load is a warning here (run and check refuse every command
 * then). */
static int report_policies(struct broker_context *ctx)
{
	const struct broker_config *cfg = broker_context_config(ctx);
	int warnings = 0;
	STRV_FOREACH (w, cfg->warnings) {
		printf("WARNING: %s\n", *w);
		warnings++;
	}
	_cleanup_free_ char *dir = plugin_loader_dir();
	printf("plugin directory: %s\n", dir ? dir : "(out of memory)");
	struct sluice_error err = { 0 };
	if (broker_context_arm(ctx, &err) < 0) {
		printf("WARNING: policy plugins: %s: every command is refused until this is "
		       "fixed\n",
		       err.detail);
		return warnings + 1;
	}
	const struct policy_chain *chain = broker_context_chain(ctx);
	size_t n = policy_chain_count(chain);
	printf("policy plugins: %zu loaded\n", n);
	for (size_t i = 0; i < n; i++) {
		const struct loaded_plugin *p = policy_chain_get(chain, i);
		printf("  %s: %s (%s)\n", p->desc.name, plugin_origin(p), p->where);
	}
	return warnings;
}

/* The capabilities sluice holds (libcap-ng): with CAP_SYS_ADMIN the
 * launcher makes its mount namespace directly, without it only through an
 * unprivileged user namespace ("sandbox namespace:" says which it got). */
static void report_capabilities(void)
{
	char text[512];
	if (capabilities_describe(text, sizeof(text)) < 0)
		printf("capabilities: unknown (%s)\n", text);
	else
		printf("capabilities: %s\n", text);
}

/* The namespace layer of the sandboxed modes: how the launcher gets it, or
 * why it cannot and what that leaves out. Returns the warnings printed. */
static int report_namespace(json_t *features)
{
	const char *how = json_string_value(json_object_get(features, "namespace"));
	if (!how) {
		printf("sandbox namespace: unknown (an older launcher)\n");
		return 0;
	}
	if (strcmp(how, "unavailable") != 0) {
		bool net = json_is_true(json_object_get(features, "net_namespace"));
		printf("sandbox namespace: %s (private mounts, IPC and PIDs%s in the sandboxed "
		       "modes: every process of a run ends with it; protected-paths: [sandbox] "
		       "protect bound read-only; minimal-dev: no terminals or shared memory in "
		       "/dev)\n",
		       strcmp(how, "privileged") == 0 ? "with CAP_SYS_ADMIN"
		                                      : "in a user namespace",
		       net ? ", and a network of the run's own (loopback only)" : "");
		printf("sandbox pids limit: %s\n",
		       json_is_true(json_object_get(features, "pids_limit"))
		               ? "[sandbox] rlimit_pids is enforced (the PID namespace's pid_max)"
		               : "not enforced on this kernel (a PID namespace's own pid_max needs "
		                 "Linux 6.14): pids-limit missing");
		return 0;
	}
	const char *why = json_string_value(json_object_get(features, "namespace_error"));
	printf("sandbox namespace: unavailable (%s)\n", why ? why : "?");
	printf("WARNING: running degraded: without a private mount namespace, workspace-write "
	       "keeps the workspace's .git and its top level read-only (git add, commit, switch "
	       "fail; the [sandbox] protect paths keep it so even without a .git), and these are "
	       "not enforced: mount-namespace (chmod, times, xattrs and ACLs of files outside), "
	       "ipc-namespace (System V IPC, POSIX message queues), private-tmp and tmpdir-tmpfs "
	       "(the host's /tmp is readable, not writable; TMPDIR is a folder without a size "
	       "cap), minimal-dev (the user's terminals in /dev/pts are readable), pid-namespace "
	       "(processes a command leaves running are killed by sluice after the shell exits, "
	       "with [broker] background_survivors = kill, and can be missed by a scan; /proc "
	       "shows every process), net-namespace (abstract unix socket names are shared with "
	       "the system), pids-limit; secrets are hidden by Landlock alone. An "
	       "administrator can allow unprivileged user namespaces (sysctl "
	       "user.max_user_namespaces > 0, kernel.unprivileged_userns_clone = 1, or the "
	       "container's seccomp or AppArmor profile), or run sluice with CAP_SYS_ADMIN\n");
	return 1;
}

/* [network] allow: whether sandboxed commands reach any host, through the
 * launcher's egress proxy, and whether this system can give the network
 * namespace that enforces it (features: --print-features, or NULL when
 * unknown). Returns the warnings printed. */
static int report_egress(const struct run_settings *s, json_t *features)
{
	if (s->network) {
		printf("network egress: [sandbox] network = allow: sandboxed commands have the "
		       "whole network, [network] allow is not used\n");
		return 0;
	}
	if (s->n_egress_allow == 0) {
		printf("network egress: none ([network] allow is empty: sandboxed commands reach "
		       "no host, only their own loopback)\n");
		return 0;
	}
	printf("network egress: through sluice's proxy, to");
	for (size_t i = 0; i < s->n_egress_allow; i++)
		printf(" %s", s->egress_allow[i]);
	printf(" ([network] allow)\n");
	if (s->n_egress_allow_internal > 0) {
		printf("network egress: names that may also lead to this machine or its local "
		       "networks (never to a link-local or cloud metadata address):");
		for (size_t i = 0; i < s->n_egress_allow_internal; i++)
			printf(" %s", s->egress_allow_internal[i]);
		printf(" ([network] allow_internal)\n");
	}
	if (features && !json_is_true(json_object_get(features, "net_namespace"))) {
		printf("WARNING: [network] allow is set, but no network namespace can be had here: "
		       "sandboxed runs are refused rather than run without the allowlist\n");
		return 1;
	}
	return 0;
}

/* The workspace's network ([sandbox] workspace_network_idle): whether the
 * sandboxed runs and jobs of a workspace share one, and for how long its
 * holder stays; a holder needs the network namespace the launcher reports
 * it can make (features' net_namespace). */
static void report_workspace_network(const struct run_settings *s, json_t *features)
{
	char idle[32];
	bool net = json_is_true(json_object_get(features, "net_namespace"));
	if (s->network)
		printf("workspace network: not used ([sandbox] network = allow: runs have the "
		       "host's network)\n");
	else if (s->namespace_off)
		printf("workspace network: not used (the namespace layer is off)\n");
	else if (!net)
		printf("workspace network: none (no network namespace here, so no holder can be "
		       "had: each run has no network; sandbox.missing names "
		       "workspace-network)\n");
	else if (s->workspace_network_idle == 0)
		printf("workspace network: off ([sandbox] workspace_network_idle = 0: each run "
		       "has a loopback of its own)\n");
	else
		printf("workspace network: shared by a workspace's runs and jobs (a holder can be "
		       "had: network namespaces are available), kept %s after the last one "
		       "([sandbox] workspace_network_idle)\n",
		       format_duration_ms(s->workspace_network_idle, idle, sizeof(idle)));
}

int cmd_doctor(int argc, char **argv)
{
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse_or_help(&doctor_spec, argc, argv, &args);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	if (args.n_positionals > 0) {
		log_error("doctor: unexpected argument '%s'", args.positionals[0]);
		return EXIT_SLUICE_ERROR;
	}
	struct run_settings s;
	_cleanup_(broker_context_freep) struct broker_context *ctx = NULL;
	int r_open = broker_context_open_or_log(args.values[OPT_CONFIG], &s, &ctx, "doctor");
	printf("sluice %s\n", PACKAGE_VERSION);
	report_config_search(args.values[OPT_CONFIG], ctx ? broker_context_config(ctx) : NULL);
	if (r_open < 0)
		return EXIT_SLUICE_ERROR;
	int warnings = report_policies(ctx);
	if (s.sandbox_fallback) {
		printf("default sandbox mode: %s\n", sandbox_mode_name(s.sandbox_mode));
		printf("WARNING: %s\n", s.sandbox_fallback);
		warnings++;
	} else {
		printf("default sandbox mode: %s%s\n", sandbox_mode_name(s.sandbox_mode),
		       s.sandbox_mode_is_default ? " (the built-in default)" : "");
	}
	report_capabilities();

	_cleanup_free_ char *launcher = NULL, *features = NULL;
	const char *env_launch = getenv("SLUICE_LAUNCH");
	if (env_launch && *env_launch && !config_env_overrides_allowed())
		printf("SLUICE_LAUNCH ignored: a system configuration is installed\n");
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
			warnings += report_namespace(f);
			report_workspace_network(&s, f);
		} else {
			printf("landlock: unavailable\n");
			printf("modes available: unrestricted\n");
			printf("WARNING: running degraded: workspace-write and restricted are refused "
			       "with sandbox_unavailable; unrestricted mode and the policies still "
			       "work\n");
			warnings++;
		}
		warnings += report_egress(&s, f);
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
