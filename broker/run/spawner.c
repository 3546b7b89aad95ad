/* SPDX-License-Identifier: MIT */
/*
 * spawn: the launcher's argv, posix_spawn of it, and the process-tree
 * operations. Trees are found by parent links in /proc: as a child
 * subreaper the broker inherits every orphan of the command, so a process
 * that left the group (setsid, double fork) is still below it.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "config/broker-config.h"
#include "fd-util.h"
#include "monotonic.h"
#include "run/clone-exec.h"
#include "run/protect-folders.h"
#include "run/spawner.h"
#include "run/tool-caches.h"
#include "strv.h"
#include "util/strbuf.h"
#include "user-ids.h"

/* The launcher's option names, defined once for both programs. */
#include "launch-spec.h"

/* /proc entries examined per scan; beyond this a scan is partial and the
 * kill loop simply takes more rounds. */
#define PROC_SCAN_MAX 65536

extern char **environ;

static bool executable(const char *path)
{
	return access(path, X_OK) == 0;
}

int spawn_find_launcher(char **ret)
{
	/* Like SLUICE_SYSCONFDIR: a test override, never a way around an
	 * administrator's sandbox (a wrapper would run the command bare). */
	const char *env = getenv("SLUICE_LAUNCH");
	if (env && env[0] && config_env_overrides_allowed()) {
		if (!executable(env))
			return -ENOENT;
		*ret = strdup(env);
		return *ret ? 0 : -ENOMEM;
	}
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			_cleanup_free_ char *cand = NULL;
			if (asprintf(&cand, "%.*s/%s", (int)(slash - self), self,
			             LAUNCH_PROGRAM_NAME) < 0)
				return -ENOMEM;
			if (executable(cand)) {
				*ret = TAKE_PTR(cand);
				return 0;
			}
		}
	}
	if (!executable(SLUICE_BINDIR "/" LAUNCH_PROGRAM_NAME))
		return -ENOENT;
	*ret = strdup(SLUICE_BINDIR "/" LAUNCH_PROGRAM_NAME);
	return *ret ? 0 : -ENOMEM;
}

static int add2(char ***argv, const char *opt, const char *value)
{
	int r = strv_extend(argv, opt);
	return r < 0 ? r : strv_extend(argv, value);
}

/* --user NAME, and its ids as this process's user databases know them
 * (user-ids.h says why). A user not found here is left to the launcher,
 * which refuses it with its own message. */
static int add_user(char ***argv, const char *name)
{
	int r = add2(argv, LAUNCH_OPT_USER, name);
	struct user_ids u;
	struct sluice_error ignored = { 0 };
	if (r < 0 || user_ids_lookup(name, &u, &ignored) < 0)
		return r;
	_cleanup_free_ char *ids = NULL;
	if (user_ids_format(&u, &ids) < 0)
		return -ENOMEM;
	return add2(argv, LAUNCH_OPT_USER_IDS, ids);
}

/* The home "~/" means in [sandbox] hide: the user's the commands run as. */
static const char *hide_home(const struct run_settings *s)
{
	if (s->user) {
		const struct passwd *pw = getpwnam(s->user);
		return pw && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
	}
	const char *home = getenv("HOME");
	return home && home[0] == '/' ? home : NULL;
}

/* OPT PATH, or OPT MATCH for each path that matches now where PATH holds
 * a wildcard ("*", "?", "[": a name with a random part, a folder per
 * version). A pattern nothing matches is passed as written: a name that
 * holds those characters itself ("keys[old]") is hidden as named, and one
 * that does not exist is skipped by the launcher. */
static int add_matches(char ***argv, const char *opt, const char *path)
{
	if (!strpbrk(path, "*?["))
		return add2(argv, opt, path);
	glob_t g;
	int q = glob(path, GLOB_NOSORT | GLOB_NOCHECK, NULL, &g);
	if (q == GLOB_NOSPACE)
		return -ENOMEM;
	int r = 0;
	for (size_t k = 0; q == 0 && r >= 0 && k < g.gl_pathc; k++)
		r = add2(argv, opt, g.gl_pathv[k]);
	if (q == 0)
		globfree(&g);
	return r;
}

/* --hide PATH for each [sandbox] hide path, "~/" and "$XDG_RUNTIME_DIR/"
 * (the user's runtime folder, sluice's own user's) expanded, wildcards
 * matched now; without a home or a runtime folder, those are left out. */
static int add_hidden(char ***argv, const struct run_settings *s)
{
	static const char runtime_var[] = "$XDG_RUNTIME_DIR/";
	const char *home = s->n_hide ? hide_home(s) : NULL;
	const char *runtime = s->user ? NULL : getenv("XDG_RUNTIME_DIR");
	int r = 0;
	for (size_t i = 0; r >= 0 && i < s->n_hide; i++) {
		const char *p = s->hide[i], *base = NULL;
		if (strncmp(p, "~/", 2) == 0) {
			base = home;
			p += 2;
		} else if (strncmp(p, runtime_var, sizeof(runtime_var) - 1) == 0) {
			base = runtime && runtime[0] == '/' ? runtime : NULL;
			p += sizeof(runtime_var) - 1;
		} else {
			r = add_matches(argv, LAUNCH_OPT_HIDE, p);
			continue;
		}
		_cleanup_free_ char *full = NULL;
		if (base && asprintf(&full, "%s/%s", base, p) < 0)
			return -ENOMEM;
		r = full ? add_matches(argv, LAUNCH_OPT_HIDE, full) : 0;
	}
	return r;
}

/* Whether the command runs as uid 0: sluice run by root, no [sandbox]
 * user, or one that names root. */
static bool command_is_root(const struct run_settings *s)
{
	if (!s->user)
		return geteuid() == 0;
	const struct passwd *pw = getpwnam(s->user);
	return pw && pw->pw_uid == 0;
}

/* --cover PATH for each of the system's secrets (RUN_SETTINGS_ROOT_COVER)
 * when the command runs as root, whose modes would not stop it; a "*"
 * matched now. */
static int add_root_covers(char ***argv, const struct run_settings *s)
{
#define ROOT_COVER_PATH(path, why) path,
	static const char *const covers[] = { RUN_SETTINGS_ROOT_COVER(ROOT_COVER_PATH) };
#undef ROOT_COVER_PATH
	if (!command_is_root(s))
		return 0;
	int r = 0;
	for (size_t i = 0; r >= 0 && i < ELEMENTSOF(covers); i++)
		r = add_matches(argv, LAUNCH_OPT_COVER, covers[i]);
	return r;
}

/* Whether a configuration file lies in one of the configuration
 * directories (passed whole already). */
static bool in_config_dir(const struct run_settings *s, const char *file)
{
	for (size_t i = 0; i < s->n_config_dirs; i++) {
		size_t n = strlen(s->config_dirs[i]);
		if (strncmp(file, s->config_dirs[i], n) == 0 && file[n] == '/')
			return true;
	}
	return false;
}

/* Whether s's mode is one of the launcher's sandboxed profiles. */
static bool sandboxed(const struct run_settings *s)
{
	return s->sandbox_mode != SANDBOX_MODE_UNRESTRICTED;
}

bool spawn_plans_namespace(const struct run_settings *s)
{
	/* the launcher's own test: a sandboxed profile without --namespace off */
	return sandboxed(s) && !s->namespace_off;
}

bool spawn_wants_egress_audit(const struct run_settings *s)
{
	/* add_sandbox_details()'s test for --egress-allow */
	return sandboxed(s) && !s->network && s->n_egress_allow > 0;
}

bool spawn_wants_egress_ask(const struct run_settings *s)
{
	return spawn_wants_egress_audit(s) && s->egress_ask;
}

/* The workspace's tool caches' folder (writable), and the tools' folders
 * in the home overlaid with layers kept there. */
static int add_tool_caches(char ***argv, const struct run_settings *s, const char *folder)
{
	int r = add2(argv, LAUNCH_OPT_RW, folder);
	const char *home = hide_home(s);
	if (r < 0 || !home)
		return r;
	size_t n = 0;
	const char *const *overlaid = tool_caches_overlaid(&n);
	for (size_t i = 0; r >= 0 && i < n; i++) {
		_cleanup_free_ char *full = NULL;
		if (asprintf(&full, "%s/%s", home, overlaid[i]) < 0)
			return -ENOMEM;
		r = add2(argv, LAUNCH_OPT_OVERLAY, full);
	}
	return r < 0 ? r : add2(argv, LAUNCH_OPT_OVERLAY_STATE, folder);
}

/* The sandbox profile and what it may write and reach: --profile,
 * --workspace, the writable paths, the TMPDIR, the network. */
static int add_profile_options(char ***argv, const struct spawn_request *req, bool boxed)
{
	const struct run_settings *s = req->settings;
	int r = add2(argv, LAUNCH_OPT_PROFILE, sandbox_mode_name(s->sandbox_mode));
	if (r >= 0)
		r = add2(argv, LAUNCH_OPT_WORKSPACE, req->workspace);
	for (size_t i = 0; r >= 0 && boxed && i < s->n_writable; i++)
		r = add2(argv, LAUNCH_OPT_RW, s->writable[i]);
	if (r >= 0 && boxed && req->tool_cache)
		r = add_tool_caches(argv, s, req->tool_cache);
	if (r >= 0 && boxed && req->tmpdir)
		r = add2(argv, LAUNCH_OPT_TMPDIR, req->tmpdir);
	if (r >= 0 && boxed && req->tmpdir && req->tmpdir_fallback)
		r = add2(argv, LAUNCH_OPT_TMPDIR_FALLBACK, req->tmpdir_fallback);
	if (r >= 0 && boxed)
		r = add2(argv, LAUNCH_OPT_NETWORK,
		         s->network ? LAUNCH_NETWORK_ALLOW : LAUNCH_NETWORK_DENY);
	return r;
}

/* The resource limits and the user the command runs as. */
static int add_limits(char ***argv, const struct spawn_request *req, bool boxed)
{
	const struct run_settings *s = req->settings;
	int r = 0;
	for (size_t i = 0; r >= 0 && i < s->n_rlimits; i++) {
		_cleanup_free_ char *kv = NULL;
		/* a PID namespace's limit: only the sandboxed profiles have one */
		if (!boxed && strcmp(s->rlimits[i].name, LAUNCH_RLIMIT_PIDS) == 0)
			continue;
		if (asprintf(&kv, "%s=%s", s->rlimits[i].name, s->rlimits[i].value) < 0)
			return -ENOMEM;
		r = add2(argv, LAUNCH_OPT_RLIMIT, kv);
	}
	if (r >= 0 && s->user)
		r = add_user(argv, s->user);
	return r;
}

/* A sandboxed profile's details: git, the wait for every process, the
 * namespaces, the workspace's network and its allowlist, the TMPDIR's
 * size. */
static int add_sandbox_details(char ***argv, const struct spawn_request *req)
{
	const struct run_settings *s = req->settings;
	int r = 0;
	if (s->git_writable)
		r = strv_extend(argv, LAUNCH_OPT_GIT_WRITABLE);
	else if (req->git_read_only)
		r = strv_extend(argv, LAUNCH_OPT_GIT_READ_ONLY);
	if (r >= 0 && req->wait_all)
		r = strv_extend(argv, LAUNCH_OPT_WAIT_ALL);
	if (r >= 0 && s->namespace_off)
		r = add2(argv, LAUNCH_OPT_NAMESPACE, LAUNCH_NAMESPACE_OFF);
	if (r >= 0 && req->network_holder)
		r = add2(argv, LAUNCH_OPT_NETWORK_HOLDER, req->network_holder);
	for (size_t i = 0; r >= 0 && !s->network && i < s->n_egress_allow; i++)
		r = add2(argv, LAUNCH_OPT_EGRESS_ALLOW, s->egress_allow[i]);
	for (size_t i = 0;
	     r >= 0 && !s->network && s->n_egress_allow > 0 && i < s->n_egress_allow_internal; i++)
		r = add2(argv, LAUNCH_OPT_EGRESS_ALLOW_INTERNAL, s->egress_allow_internal[i]);
	if (r >= 0 && req->tmpdir) {
		char num[32];
		snprintf(num, sizeof(num), "%llu", (unsigned long long)s->tmpdir_size);
		r = add2(argv, LAUNCH_OPT_TMPDIR_SIZE, num);
	}
	return r;
}

/* What a sandboxed command may not see or change: the hidden paths,
 * sluice's own files and configuration, the protected paths. */
static int add_protected_paths(char ***argv, const struct spawn_request *req)
{
	const struct run_settings *s = req->settings;
	int r = add_hidden(argv, s);
	if (r >= 0)
		r = add_root_covers(argv, s);
	/* sluice's own files: earlier jobs' output (the run's TMPDIR in there
	 * stays: mounts.c), and the audit log */
	if (r >= 0 && req->jobs_dir)
		r = add2(argv, LAUNCH_OPT_HIDE, req->jobs_dir);
	if (r >= 0 && s->audit_file)
		r = add2(argv, LAUNCH_OPT_HIDE, s->audit_file);
	for (size_t i = 0; r >= 0 && i < s->n_protect; i++)
		r = add2(argv, LAUNCH_OPT_PROTECT, s->protect[i]);
	/* the workspace's runs' lock, held while its folders are covered */
	char lock[PATH_MAX];
	if (r >= 0 && s->n_protect > 0 && req->jobs_dir && req->workspace &&
	    protect_folders_runs_lock(req->jobs_dir, req->workspace, lock, sizeof(lock)) >= 0)
		r = add2(argv, LAUNCH_OPT_PROTECT_LOCK, lock);
	for (size_t i = 0; r >= 0 && req->read_only && req->read_only[i]; i++)
		r = add2(argv, LAUNCH_OPT_READ_ONLY, req->read_only[i]);
	/* sluice's own configuration, should a writable path hold it */
	for (size_t i = 0; r >= 0 && i < s->n_config_dirs; i++)
		r = add2(argv, LAUNCH_OPT_READ_ONLY, s->config_dirs[i]);
	for (size_t i = 0; r >= 0 && i < s->n_config_files; i++)
		if (!in_config_dir(s, s->config_files[i]))
			r = add2(argv, LAUNCH_OPT_READ_ONLY, s->config_files[i]);
	return r;
}

/* How the launcher execs: best effort, the directory, its descriptors,
 * the parent it dies with, then SHELL -c [COMMAND]. */
static int add_exec_options(char ***argv, const struct spawn_request *req)
{
	const struct run_settings *s = req->settings;
	char num[32];
	int r = 0;
	if (s->best_effort)
		r = strv_extend(argv, LAUNCH_OPT_BEST_EFFORT);
	if (r >= 0)
		r = add2(argv, LAUNCH_OPT_CHDIR, req->chdir);
	if (r >= 0 && req->report_fd >= 0) {
		snprintf(num, sizeof(num), "%d", SPAWN_REPORT_FD);
		r = add2(argv, LAUNCH_OPT_REPORT_FD, num);
	}
	if (r >= 0 && req->command_fd >= 0) {
		snprintf(num, sizeof(num), "%d", SPAWN_COMMAND_FD);
		r = add2(argv, LAUNCH_OPT_COMMAND_FD, num);
	}
	if (r >= 0 && req->end_fd >= 0) {
		snprintf(num, sizeof(num), "%d", SPAWN_END_FD);
		r = add2(argv, LAUNCH_OPT_END_FD, num);
	}
	if (r >= 0 && req->egress_audit_fd >= 0 && spawn_wants_egress_audit(s)) {
		snprintf(num, sizeof(num), "%d", SPAWN_EGRESS_AUDIT_FD);
		r = add2(argv, LAUNCH_OPT_EGRESS_AUDIT_FD, num);
	}
	if (r >= 0 && req->egress_ask_fd >= 0 && spawn_wants_egress_ask(s)) {
		snprintf(num, sizeof(num), "%d", SPAWN_EGRESS_ASK_FD);
		r = add2(argv, LAUNCH_OPT_EGRESS_ASK_FD, num);
		/* a second past the approver's time: the broker answers
		 * "ask-timeout" itself at its own deadline, which comes first */
		snprintf(num, sizeof(num), "%" PRIu64 "ms", s->egress_ask_wait_ms + 1000);
		if (r >= 0)
			r = add2(argv, LAUNCH_OPT_EGRESS_ASK_WAIT, num);
		if (r >= 0 && s->egress_ask_internal)
			r = strv_extend(argv, LAUNCH_OPT_EGRESS_ASK_INTERNAL);
	}
	/* Nothing would enforce the timeout once this process is gone. */
	if (r >= 0) {
		snprintf(num, sizeof(num), "%d", (int)getpid());
		r = add2(argv, LAUNCH_OPT_DIE_WITH_PARENT, num);
	}
	if (r >= 0)
		r = add2(argv, LAUNCH_OPT_END, s->shell);
	if (r >= 0)
		r = strv_extend(argv, "-c");
	if (r >= 0 && req->command_fd < 0)
		r = strv_extend(argv, req->command);
	return r;
}

int spawn_build_argv(const struct spawn_request *req, char ***ret)
{
	bool boxed = sandboxed(req->settings);
	_cleanup_strv_free_ char **argv = NULL;
	int r = strv_extend(&argv, req->launcher);
	if (r >= 0)
		r = add_profile_options(&argv, req, boxed);
	if (r >= 0)
		r = add_limits(&argv, req, boxed);
	if (r >= 0 && boxed)
		r = add_sandbox_details(&argv, req);
	if (r >= 0 && boxed)
		r = add_protected_paths(&argv, req);
	if (r >= 0)
		r = add_exec_options(&argv, req);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(argv);
	return 0;
}

int spawn_become_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0 ? neg_errno() : 0;
}

/* The dup2s run in order in the child: a source numbered like an earlier
 * target would be overwritten first, so low sources are copied above every
 * target (in raised, closed by the caller after the spawn). */
static int raise_sources(int src[], int raised[], size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (src[i] < 0 || src[i] > SPAWN_FD_TOP)
			continue;
		raised[i] = fcntl(src[i], F_DUPFD_CLOEXEC, SPAWN_FD_TOP + 1);
		if (raised[i] < 0)
			return neg_errno();
		src[i] = raised[i];
	}
	return 0;
}

/* The launcher waiting for its options: "--spec-fd" alone, with this
 * process's environment for its exec (a wrapper may need its loader's
 * variables; the program gets the one sent on the descriptor). Not by
 * posix_spawn, whose vfork would hold this process until the exec is done:
 * it goes on reading its configuration while the child execs, and the
 * child shares its memory until then, so that nothing is copied
 * (clone-exec.h). A failure before or in the exec is sent as its errno on
 * exec_w (close-on-exec: end of file there means the exec succeeded). */
static int start_unconfigured(const char *launcher, const int src[], const int dst[], size_t n,
                              int exec_w, const struct cpu_placement *placement, pid_t *ret_pid)
{
	char spec_fd_arg[] = { '0' + SPAWN_SPEC_FD, '\0' };
	char *argv[] = { (char *)launcher, (char *)LAUNCH_OPT_SPEC_FD, spec_fd_arg, NULL };
	return clone_exec(launcher, argv, src, dst, n, exec_w, placement, ret_pid);
}

static int spawn_configured(const struct spawn_request *req, const int src[], const int dst[],
                            size_t n, pid_t *ret_pid)
{
	_cleanup_strv_free_ char **argv = NULL;
	int r = spawn_build_argv(req, &argv);
	if (r < 0)
		return r;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -ENOMEM;
	if (posix_spawnattr_init(&attr) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -ENOMEM;
	}
	sigset_t none, all;
	sigemptyset(&none);
	sigfillset(&all);
	for (size_t i = 0; r == 0 && i < n; i++)
		if (src[i] >= 0)
			r = -posix_spawn_file_actions_adddup2(&fa, src[i], dst[i]);
	if (r == 0)
		r = -posix_spawnattr_setsigmask(&attr, &none);
	if (r == 0)
		r = -posix_spawnattr_setsigdefault(&attr, &all);
	if (r == 0)
		r = -posix_spawnattr_setflags(&attr,
		                              POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	if (r == 0)
		r = -posix_spawn(ret_pid, argv[0], &fa, &attr, argv, req->env ? req->env : environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return r;
}

/* The launcher's descriptors as req names them (-1: none), and the numbers
 * they become in the child. */
#define SPAWN_N_FDS 8
static const int spawn_targets[SPAWN_N_FDS] = {
	STDOUT_FILENO, STDERR_FILENO,         SPAWN_REPORT_FD,     SPAWN_COMMAND_FD,
	SPAWN_SPEC_FD, SPAWN_EGRESS_AUDIT_FD, SPAWN_EGRESS_ASK_FD, SPAWN_END_FD,
};

/* req's descriptors in spawn_targets' order, and none raised yet. */
static void spawn_sources(const struct spawn_request *req, int src[SPAWN_N_FDS],
                          int raised[SPAWN_N_FDS])
{
	src[0] = req->stdout_fd;
	src[1] = req->stderr_fd;
	src[2] = req->report_fd;
	src[3] = req->command_fd;
	src[4] = req->spec_fd;
	src[5] = req->egress_audit_fd;
	src[6] = req->egress_ask_fd;
	src[7] = req->end_fd;
	for (size_t i = 0; i < SPAWN_N_FDS; i++)
		raised[i] = -1;
}

static void close_all(int fds[], size_t n)
{
	for (size_t i = 0; i < n; i++)
		fds[i] = safe_close(fds[i]);
}

int spawn_start(const struct spawn_request *req, pid_t *ret_pid)
{
	int src[SPAWN_N_FDS], raised[SPAWN_N_FDS];
	spawn_sources(req, src, raised);
	pid_t pid = -1;
	int r = raise_sources(src, raised, ELEMENTSOF(src));
	if (r >= 0)
		r = spawn_configured(req, src, spawn_targets, ELEMENTSOF(src), &pid);
	close_all(raised, ELEMENTSOF(raised));
	if (r < 0)
		return r;
	*ret_pid = pid;
	return 0;
}

int spawn_start_unconfigured(const struct spawn_request *req, const struct cpu_placement *placement,
                             pid_t *ret_pid, int *ret_exec_fd)
{
	int src[SPAWN_N_FDS], raised[SPAWN_N_FDS];
	spawn_sources(req, src, raised);
	int exec_pipe[2] = { -1, -1 };
	pid_t pid = -1;
	int r = raise_sources(src, raised, ELEMENTSOF(src));
	if (r >= 0 && pipe2(exec_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		r = neg_errno();
	/* above every target, so that no dup2 in the child lands on it */
	int exec_w = r >= 0 ? fcntl(exec_pipe[1], F_DUPFD_CLOEXEC, SPAWN_FD_TOP + 1) : -1;
	if (r >= 0 && exec_w < 0)
		r = neg_errno();
	if (r >= 0)
		r = start_unconfigured(req->launcher, src, spawn_targets, ELEMENTSOF(src), exec_w,
		                       placement, &pid);
	close_all(raised, ELEMENTSOF(raised));
	safe_close(exec_w);
	safe_close(exec_pipe[1]);
	if (r < 0) {
		safe_close(exec_pipe[0]);
		return r;
	}
	*ret_pid = pid;
	*ret_exec_fd = exec_pipe[0];
	return 0;
}

int spawn_exec_status(int fd, bool wait)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	while (wait && poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	int e = 0;
	ssize_t n;
	while ((n = read(fd, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	if (n < 0)
		return errno == EAGAIN ? 1 : neg_errno();
	return n == (ssize_t)sizeof(e) && e > 0 ? -e : 0;
}

int spawn_send_spec(int fd, const struct spawn_request *req)
{
	_cleanup_strv_free_ char **argv = NULL;
	/* no cap here: the launcher enforces its own, and says so */
	_cleanup_(strbuf_done) struct strbuf spec = strbuf_init(SIZE_MAX);
	char *const *env = req->env ? req->env : environ;
	int r = spawn_build_argv(req, &argv);
	/* the options (not argv[0]: the launcher has its own), an empty word,
	 * the environment; each word with its NUL */
	for (size_t i = 1; r >= 0 && argv[i]; i++)
		r = strbuf_append(&spec, argv[i], strlen(argv[i]) + 1);
	if (r >= 0)
		r = strbuf_append_char(&spec, '\0');
	for (size_t i = 0; r >= 0 && env[i]; i++)
		r = strbuf_append(&spec, env[i], strlen(env[i]) + 1);
	/* Room for all of it where the kernel allows, so that a launcher that
	 * never reads does not hold this process before its timeout is
	 * watched (best effort: pipe-max-size caps it), with the word that
	 * spawn_send_namespace_ahead() may have left unread. */
	size_t room = spec.len + sizeof(LAUNCH_SPEC_NAMESPACE_AHEAD);
	if (r >= 0 && room > 64 * 1024)
		(void)fcntl(fd, F_SETPIPE_SZ, (int)room);
	if (r >= 0)
		r = write_full_nosigpipe(fd, spec.buf, spec.len);
	safe_close(fd);
	return r < 0 ? r : 0;
}

int spawn_send_namespace_ahead(int fd)
{
	/* one write, smaller than PIPE_BUF: it arrives whole or not at all */
	return write_full_nosigpipe(fd, LAUNCH_SPEC_NAMESPACE_AHEAD,
	                            sizeof(LAUNCH_SPEC_NAMESPACE_AHEAD));
}

int spawn_send_command(int fd, const char *dir, const char *command)
{
	const char *d = dir ? dir : "";
	int r = write_full(fd, d, strlen(d) + 1); /* with its NUL */
	if (r >= 0)
		r = write_full(fd, command, strlen(command) + 1); /* the NUL ends the message */
	safe_close(fd);
	return r < 0 ? r : 0;
}

struct proc_entry {
	pid_t pid, ppid;
	bool zombie;
};

/* One line of /proc/PID/stat: "pid (comm) S ppid ..."; comm may hold ')'. */
static bool read_stat(const char *name, struct proc_entry *e)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%s/stat", name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	char *rp = strrchr(buf, ')');
	char state;
	int ppid;
	if (!rp || sscanf(rp + 1, " %c %d", &state, &ppid) != 2)
		return false;
	e->pid = (pid_t)atoi(buf);
	e->ppid = (pid_t)ppid;
	e->zombie = state == 'Z' || state == 'X';
	return true;
}

static bool in_set(const pid_t *set, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == pid)
			return true;
	return false;
}

int spawn_tree_list(pid_t ancestor, pid_t *pids, size_t max)
{
	DIR *d = opendir("/proc");
	if (!d)
		return neg_errno();
	_cleanup_free_ struct proc_entry *all = NULL;
	size_t n = 0, allocated = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < PROC_SCAN_MAX) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		if (n == allocated) {
			size_t want = allocated ? allocated * 2 : 256;
			struct proc_entry *p = realloc(all, want * sizeof(*p));
			if (!p) {
				closedir(d);
				return -ENOMEM;
			}
			all = p;
			allocated = want;
		}
		if (read_stat(de->d_name, &all[n]))
			n++;
	}
	closedir(d);

	/* Descendants, found by repeated passes over the parent links; `tree`
	 * holds every descendant (zombies too, since their children matter). */
	_cleanup_free_ pid_t *tree = malloc((n + 1) * sizeof(pid_t));
	_cleanup_free_ bool *marked = calloc(n + 1, sizeof(bool));
	if (!tree || !marked)
		return -ENOMEM;
	size_t nt = 0;
	tree[nt++] = ancestor;
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t i = 0; i < n; i++) {
			if (marked[i] || !in_set(tree, nt, all[i].ppid))
				continue;
			marked[i] = true;
			tree[nt++] = all[i].pid;
			changed = true;
		}
	}
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		if (!marked[i] || all[i].zombie)
			continue;
		if (count < max)
			pids[count] = all[i].pid;
		count++;
	}
	return (int)count;
}

int spawn_tree_signal(pid_t ancestor, pid_t pgid, int sig)
{
	if (pgid > 0)
		(void)kill(-pgid, sig);
	pid_t pids[SPAWN_TREE_MAX];
	int n = spawn_tree_list(ancestor, pids, ELEMENTSOF(pids));
	if (n < 0)
		return n;
	size_t stored = (size_t)n < ELEMENTSOF(pids) ? (size_t)n : ELEMENTSOF(pids);
	for (size_t i = 0; i < stored; i++)
		(void)kill(pids[i], sig);
	return n;
}

bool spawn_reap(pid_t watch_pid, int *ret_status, bool *ret_reaped)
{
	for (;;) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);
		if (pid == 0)
			return true;
		if (pid < 0)
			return errno != ECHILD;
		if (pid == watch_pid) {
			*ret_status = status;
			*ret_reaped = true;
		}
	}
}

/* SIGKILL to this process's own children, as the kernel lists them (one
 * small read, not a scan of /proc: a process that forks and exits in a
 * loop lives microseconds, and as a subreaper's orphan it is a child). */
static void kill_own_children(void)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)gettid());
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (char *s = buf, *end; *s; s = end) {
		long pid = strtol(s, &end, 10);
		if (end == s)
			break;
		if (pid > 0)
			(void)kill((pid_t)pid, SIGKILL);
	}
}

int spawn_tree_kill(pid_t ancestor, pid_t pgid, pid_t watch_pid, int *ret_status, bool *ret_reaped,
                    unsigned timeout_ms)
{
	uint64_t deadline = monotonic_ms() + timeout_ms;
	for (;;) {
		if (!spawn_reap(watch_pid, ret_status, ret_reaped))
			return 0;
		if (ancestor == getpid())
			kill_own_children();
		/* a scan that finds nothing while a child is left was escaped
		 * (it forks and exits faster than /proc can be read): go on until
		 * no child is left, not until a scan finds none */
		(void)spawn_tree_signal(ancestor, pgid, SIGKILL);
		if (!spawn_reap(watch_pid, ret_status, ret_reaped))
			return 0;
		if (monotonic_ms() >= deadline)
			return -ETIMEDOUT;
		/* Killed processes need a moment to exit; this wait is bounded
		 * by timeout_ms and only runs while something is still dying. */
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}
