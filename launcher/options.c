/* SPDX-License-Identifier: MIT */
/*
 * The option table of sluice-launch: one row per option with its argument,
 * handler and help line. Parsing and --help both walk this table.
 * Not for: anything that touches the system; this file only fills a spec.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "launch-spec.h"
#include "options.h"
#include "parse-number.h"
#include "protected-paths.h"
#include "suggest.h"

struct option_def {
	const char *name;    /* LAUNCH_OPT_* */
	const char *metavar; /* NULL: the option takes no argument */
	int (*handle)(struct launch_spec *spec, const char *arg, struct sluice_error *err);
	const char *help;
};

static int opt_profile(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	const struct profile *p = profile_find(arg);
	if (!p)
		return sluice_error_set(err, -EINVAL, "unknown profile '%s'", arg);
	spec->profile = p;
	return 0;
}

static int opt_workspace(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)err;
	spec->workspace = arg;
	return 0;
}

static int opt_rw(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (spec->n_rw >= LAUNCH_MAX_RW)
		return sluice_error_set(err, -E2BIG, "more than %d writable paths", LAUNCH_MAX_RW);
	spec->rw[spec->n_rw++] = arg;
	return 0;
}

/* Append arg to a bounded list of paths. */
static int add_path(const char **list, unsigned *n, unsigned max, const char *what, const char *arg,
                    struct sluice_error *err)
{
	if (*n >= max)
		return sluice_error_set(err, -E2BIG, "more than %u %s paths", max, what);
	if (arg[0] == '\0')
		return sluice_error_set(err, -EINVAL, "an empty path");
	list[(*n)++] = arg;
	return 0;
}

static int opt_hide(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	return add_path(spec->hide, &spec->n_hide, LAUNCH_MAX_HIDE, "hidden", arg, err);
}

static int opt_cover(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	return add_path(spec->cover, &spec->n_cover, LAUNCH_MAX_COVER, "covered", arg, err);
}

static int opt_overlay(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (arg[0] != '/')
		return sluice_error_set(err, -EINVAL, "'%s' is not an absolute path", arg);
	return add_path(spec->overlay, &spec->n_overlay, LAUNCH_MAX_OVERLAY, "overlaid", arg, err);
}

static int opt_overlay_state(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (arg[0] != '/')
		return sluice_error_set(err, -EINVAL, "'%s' is not an absolute path", arg);
	spec->overlay_state = arg;
	return 0;
}

static int opt_read_only(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	return add_path(spec->read_only, &spec->n_read_only, LAUNCH_MAX_READ_ONLY, "read-only", arg,
	                err);
}

/* Every --protect entry can be one pattern of one folder's group, which
 * protected_paths_find() gathers into PROTECTED_PATTERNS_MAX slots: more
 * entries than that would leave patterns of a group unprotected. */
_Static_assert(LAUNCH_MAX_PROTECT <= PROTECTED_PATTERNS_MAX,
               "a folder's group of --protect patterns fits in PROTECTED_PATTERNS_MAX");
static int opt_protect(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	const char *why = protected_paths_check(arg);
	if (why)
		return sluice_error_set(err, -EINVAL, "'%s': %s", arg, why);
	return add_path(spec->protect, &spec->n_protect, LAUNCH_MAX_PROTECT, "protected", arg, err);
}

static int opt_tmpdir_size(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	int r = parse_size(arg, UINT64_MAX / 2, &spec->tmpdir_size);
	if (r < 0 || spec->tmpdir_size == 0)
		return sluice_error_set(err, r < 0 ? r : -EINVAL, "bad size '%s'", arg);
	return 0;
}

static int opt_namespace(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (strcmp(arg, LAUNCH_NAMESPACE_AUTO) == 0)
		spec->namespace_off = false;
	else if (strcmp(arg, LAUNCH_NAMESPACE_OFF) == 0)
		spec->namespace_off = true;
	else
		return sluice_error_set(err, -EINVAL, "'%s' is neither '%s' nor '%s'", arg,
		                        LAUNCH_NAMESPACE_AUTO, LAUNCH_NAMESPACE_OFF);
	return 0;
}

static int opt_tmpdir(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)err;
	spec->tmpdir = arg;
	return 0;
}

static int opt_tmpdir_fallback(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (arg[0] != '/')
		return sluice_error_set(err, -EINVAL, "'%s' is not an absolute path", arg);
	spec->tmpdir_fallback = arg;
	return 0;
}

/* "allow" -> true, "deny" -> false. */
static int parse_allow(const char *arg, bool *ret, struct sluice_error *err)
{
	if (strcmp(arg, LAUNCH_NETWORK_ALLOW) == 0)
		*ret = true;
	else if (strcmp(arg, LAUNCH_NETWORK_DENY) == 0)
		*ret = false;
	else
		return sluice_error_set(err, -EINVAL, "'%s' is neither '%s' nor '%s'", arg,
		                        LAUNCH_NETWORK_ALLOW, LAUNCH_NETWORK_DENY);
	return 0;
}

static int opt_network(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	return parse_allow(arg, &spec->network_allow, err);
}

static int opt_unix_connect(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	return parse_allow(arg, &spec->unix_connect_allow, err);
}

static int opt_git_writable(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)arg;
	(void)err;
	spec->git_writable = true;
	return 0;
}

static int opt_git_read_only(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)arg;
	(void)err;
	spec->git_read_only = true;
	return 0;
}

static int opt_rlimit(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	enum rlimit_index i;
	uint64_t v;
	int r = rlimits_parse(arg, &i, &v, err);
	if (r < 0)
		return r;
	spec->rlimit_set[i] = true;
	spec->rlimit_value[i] = v;
	return 0;
}

static int opt_keep_stdin(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)arg;
	(void)err;
	spec->keep_stdin = true;
	return 0;
}

static int opt_wait_all(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)arg;
	(void)err;
	spec->wait_all = true;
	return 0;
}

static int opt_user(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (arg[0] == '\0')
		return sluice_error_set(err, -EINVAL, "empty user name");
	spec->user = arg;
	return 0;
}

static int opt_user_ids(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	int r = user_ids_parse(arg, &spec->user_ids);
	if (r == -E2BIG)
		return sluice_error_set(err, r, "more than %d groups in '%s'", USER_IDS_GROUPS_MAX,
		                        arg);
	if (r < 0)
		return sluice_error_set(err, r, "must be UID:GID[:GID,...], not '%s'", arg);
	spec->user_ids_set = true;
	return 0;
}

static int opt_chdir(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)err;
	spec->chdir = arg;
	return 0;
}

static int opt_best_effort(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)arg;
	(void)err;
	spec->best_effort = true;
	return 0;
}

/* A descriptor above stderr. */
static int parse_fd(const char *arg, int *ret, struct sluice_error *err)
{
	uint64_t v;
	int r = parse_uint64(arg, INT_MAX, &v);
	if (r < 0)
		return sluice_error_set(err, r, "bad descriptor '%s'", arg);
	if (v <= 2)
		return sluice_error_set(err, -EINVAL, "descriptor %s is stdin, stdout or stderr",
		                        arg);
	*ret = (int)v;
	return 0;
}

static int opt_report_fd(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	return parse_fd(arg, &spec->report_fd, err);
}

static int opt_command_fd(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	return parse_fd(arg, &spec->command_fd, err);
}

static int opt_end_fd(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	return parse_fd(arg, &spec->end_fd, err);
}

static int opt_egress_audit_fd(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	return parse_fd(arg, &spec->egress_audit_fd, err);
}

static int opt_egress_ask_fd(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	return parse_fd(arg, &spec->egress_ask_fd, err);
}

static int opt_egress_ask_wait(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	int r = parse_duration_ms(arg, UINT32_MAX, &spec->egress_ask_wait_ms);
	if (r < 0)
		return sluice_error_set(err, r, "'%s' is not a duration (such as 30s or 2m)", arg);
	return 0;
}

static int opt_egress_ask_internal(struct launch_spec *spec, const char *arg,
                                   struct sluice_error *err)
{
	(void)arg;
	(void)err;
	spec->egress_ask_internal = true;
	return 0;
}

/* Only as the whole command line (spec_fd_take() reads it before this
 * table): never mixed with options, nor sent on the descriptor itself. */
static int opt_spec_fd(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)spec;
	(void)arg;
	return sluice_error_set(err, -EINVAL, "only alone: %s %s N", LAUNCH_PROGRAM_NAME,
	                        LAUNCH_OPT_SPEC_FD);
}

static int opt_die_with_parent(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	uint64_t v;
	int r = parse_uint64(arg, INT_MAX, &v);
	if (r < 0 || v == 0)
		return sluice_error_set(err, r < 0 ? r : -EINVAL, "bad process id '%s'", arg);
	spec->die_with_parent = (pid_t)v;
	return 0;
}

static int opt_network_holder(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (strcmp(arg, LAUNCH_NETWORK_HOLDER_NONE) == 0) {
		spec->network_holder_none = true;
		return 0;
	}
	if (arg[0] != '/')
		return sluice_error_set(err, -EINVAL, "'%s' is not an absolute path", arg);
	spec->network_holder = arg;
	return 0;
}

static int opt_egress_allow(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (spec->n_egress_allow >= LAUNCH_MAX_EGRESS_ALLOW)
		return sluice_error_set(err, -E2BIG, "more than %d patterns",
		                        LAUNCH_MAX_EGRESS_ALLOW);
	return egress_rule_parse(arg, &spec->egress_allow[spec->n_egress_allow++], err);
}

/* Kept as text: whether --egress-allow covers it is known once every
 * option is read (read_egress_internal()). */
static int opt_egress_allow_internal(struct launch_spec *spec, const char *arg,
                                     struct sluice_error *err)
{
	if (spec->n_egress_allow_internal >= LAUNCH_MAX_EGRESS_ALLOW)
		return sluice_error_set(err, -E2BIG, "more than %d patterns",
		                        LAUNCH_MAX_EGRESS_ALLOW);
	spec->egress_allow_internal_text[spec->n_egress_allow_internal++] = arg;
	return 0;
}

static int opt_hold_network(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (arg[0] != '/')
		return sluice_error_set(err, -EINVAL, "'%s' is not an absolute path", arg);
	spec->hold_network = arg;
	spec->action = LAUNCH_HOLD_NETWORK;
	return 0;
}

static int opt_hold_idle(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	int r = parse_duration_ms(arg, UINT32_MAX, &spec->hold_idle_ms);
	if (r < 0)
		return sluice_error_set(err, r, "bad duration '%s'", arg);
	return 0;
}

static int opt_tidy_protected(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (arg[0] != '/')
		return sluice_error_set(err, -EINVAL, "'%s' is not an absolute path", arg);
	spec->tidy_lock = arg;
	spec->action = LAUNCH_TIDY_PROTECTED;
	return 0;
}

static int opt_protect_lock(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	if (arg[0] != '/')
		return sluice_error_set(err, -EINVAL, "'%s' is not an absolute path", arg);
	spec->protect_lock = arg;
	return 0;
}

static int opt_tidy_after(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	int r = parse_duration_ms(arg, UINT32_MAX, &spec->tidy_after_ms);
	if (r < 0)
		return sluice_error_set(err, r, "bad duration '%s'", arg);
	return 0;
}

static int opt_print_features(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)arg;
	(void)err;
	spec->action = LAUNCH_PRINT_FEATURES;
	return 0;
}

static int opt_help(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)arg;
	(void)err;
	spec->action = LAUNCH_HELP;
	return 0;
}

static int opt_version(struct launch_spec *spec, const char *arg, struct sluice_error *err)
{
	(void)arg;
	(void)err;
	spec->action = LAUNCH_VERSION;
	return 0;
}

static const struct option_def options[] = {
	{ LAUNCH_OPT_PROFILE, "PROFILE", opt_profile,
	  "unrestricted, workspace-write or restricted (default: restricted)" },
	{ LAUNCH_OPT_WORKSPACE, "DIR", opt_workspace,
	  "the workspace; workspace-write makes it writable (default: the current directory)" },
	{ LAUNCH_OPT_RW, "PATH", opt_rw, "another writable path (repeatable)" },
	{ LAUNCH_OPT_TMPDIR, "DIR", opt_tmpdir,
	  "an existing private directory (shared with --tmpdir-fallback), made writable and "
	  "exported as TMPDIR" },
	{ LAUNCH_OPT_TMPDIR_SIZE, "SIZE", opt_tmpdir_size,
	  "the cap of the private TMPDIR (a tmpfs where a namespace can be had; default: " LAUNCH_TMPDIR_SIZE_DEFAULT
	  ")" },
	{ LAUNCH_OPT_TMPDIR_FALLBACK, "DIR", opt_tmpdir_fallback,
	  "--tmpdir is shared, private only under a tmpfs; where none can cover it, DIR (which "
	  "must not exist) is made and is the TMPDIR instead" },
	{ LAUNCH_OPT_HIDE, "PATH", opt_hide,
	  "sandboxed profiles: make PATH unreadable, when it exists (repeatable)" },
	{ LAUNCH_OPT_COVER, "PATH", opt_cover,
	  "sandboxed profiles: make PATH unreadable by a mount, or where there are none by "
	  "Landlock (repeatable)" },
	{ LAUNCH_OPT_OVERLAY, "DIR", opt_overlay,
	  "workspace-write with a namespace: DIR (a tool's cache) writable through an overlay whose "
	  "layer lies in --overlay-state's folder, DIR itself unchanged; read-only without one "
	  "(repeatable)" },
	{ LAUNCH_OPT_OVERLAY_STATE, "DIR", opt_overlay_state,
	  "the folder (writable, a --rw path) that keeps the --overlay layers across runs" },
	{ LAUNCH_OPT_READ_ONLY, "PATH", opt_read_only,
	  "keep PATH read-only even inside a writable path (repeatable)" },
	{ LAUNCH_OPT_PROTECT, "PATH", opt_protect,
	  "workspace-write: keep PATH (relative to the workspace; NAME/ a folder, made when "
	  "missing; wildcards in the last component) read-only, and its name uncreatable where "
	  "possible (repeatable)" },
	{ LAUNCH_OPT_PROTECT_LOCK, "PATH", opt_protect_lock,
	  "the lock file of the workspace's runs (made when missing), held shared while the " LAUNCH_OPT_PROTECT
	  " folders are covered, so that a " LAUNCH_OPT_TIDY_PROTECTED
	  " tidier removes none meanwhile; a tidier takes it exclusively" },
	{ LAUNCH_OPT_NAMESPACE, "auto|off", opt_namespace,
	  "a private mount and IPC namespace where one can be had (default: auto)" },
	{ LAUNCH_OPT_NETWORK, "allow|deny", opt_network,
	  "network access (default: deny; unrestricted ignores it)" },
	{ LAUNCH_OPT_UNIX_CONNECT, "allow|deny", opt_unix_connect,
	  "connect(2) to unix sockets outside the sandbox when the network is denied (default: "
	  "deny)" },
	{ LAUNCH_OPT_GIT_WRITABLE, NULL, opt_git_writable,
	  "workspace-write: make the workspace's .git writable too (hooks and config included)" },
	{ LAUNCH_OPT_GIT_READ_ONLY, NULL, opt_git_read_only,
	  "workspace-write: keep every gitdir of the workspace's repository read-only" },
	{ LAUNCH_OPT_RLIMIT, "NAME=VALUE", opt_rlimit,
	  "as, fsize, core (sizes), cpu (duration), nproc, nofile (counts); repeatable" },
	{ LAUNCH_OPT_KEEP_STDIN, NULL, opt_keep_stdin, "do not replace stdin with /dev/null" },
	{ LAUNCH_OPT_WAIT_ALL, NULL, opt_wait_all,
	  "with a PID namespace: end when its last process has, not the program" },
	{ LAUNCH_OPT_USER, "NAME", opt_user,
	  "when started as root: run as this user (needed for nproc to bind)" },
	{ LAUNCH_OPT_USER_IDS, "UID:GID[:GID,...]", opt_user_ids,
	  "--user's uid, gid and groups as the caller looked them up; then NAME is not looked "
	  "up here" },
	{ LAUNCH_OPT_CHDIR, "DIR", opt_chdir, "change to DIR before exec" },
	{ LAUNCH_OPT_BEST_EFFORT, NULL, opt_best_effort,
	  "run even when this kernel cannot enforce all of the profile" },
	{ LAUNCH_OPT_REPORT_FD, "N", opt_report_fd,
	  "write one JSON line of what was enforced to descriptor N before exec" },
	{ LAUNCH_OPT_COMMAND_FD, "N", opt_command_fd,
	  "build the sandbox, then read DIR, NUL, COMMAND from descriptor N; COMMAND becomes "
	  "PROGRAM's last argument (nothing read: exit, running nothing)" },
	{ LAUNCH_OPT_END_FD, "N", opt_end_fd,
	  "with a PID namespace: write the program's wait status to descriptor N once every "
	  "process of the run has ended, stdout and stderr closed first" },
	{ LAUNCH_OPT_DIE_WITH_PARENT, "PID", opt_die_with_parent,
	  "PID is this process's parent: when it ends, PROGRAM is killed (SIGKILL); fails when "
	  "the parent is already another process" },
	{ LAUNCH_OPT_SPEC_FD, "N", opt_spec_fd,
	  "alone: read the options, an empty word, and the environment from descriptor N, "
	  "NUL-separated, up to end of file (nothing read: exit, running nothing)" },
	{ LAUNCH_OPT_NETWORK_HOLDER, "SOCKET", opt_network_holder,
	  "join the network namespace of the workspace's holder listening on SOCKET (made by " LAUNCH_OPT_HOLD_NETWORK
	  ") instead of making one; " LAUNCH_NETWORK_HOLDER_NONE
	  ": one was wanted but could not be had (reported missing)" },
	{ LAUNCH_OPT_EGRESS_ALLOW, "PATTERN", opt_egress_allow,
	  "with the network denied: reach the hosts of PATTERN (HOST, *.NAME or an IP address, "
	  "then :PORT, default 443 and 80) through an HTTP proxy outside the network namespace "
	  "(repeatable)" },
	{ LAUNCH_OPT_EGRESS_ALLOW_INTERNAL, "PATTERN", opt_egress_allow_internal,
	  "a name of " LAUNCH_OPT_EGRESS_ALLOW "'s (HOST or *.NAME, then :PORT; covered by "
	  "them) that may also lead to an address of this machine or its local networks "
	  "(private, loopback...), never to a link-local one or a cloud's metadata address "
	  "(repeatable)" },
	{ LAUNCH_OPT_EGRESS_AUDIT_FD, "N", opt_egress_audit_fd,
	  "the egress proxy's audit channel (a memory file sized and sealed as "
	  "common/egress-audit.h says): one record per connection; closed before PROGRAM runs" },
	{ LAUNCH_OPT_EGRESS_ASK_FD, "N", opt_egress_ask_fd,
	  "where the egress proxy asks about a host not on the list (common/egress-ask.h): a "
	  "SOCK_SEQPACKET socket; without it such a host is refused at once; closed before "
	  "PROGRAM runs" },
	{ LAUNCH_OPT_EGRESS_ASK_WAIT, "DURATION", opt_egress_ask_wait,
	  "with " LAUNCH_OPT_EGRESS_ASK_FD ": how long the proxy waits for an answer before it "
	  "refuses (default: " LAUNCH_EGRESS_ASK_WAIT_DEFAULT ")" },
	{ LAUNCH_OPT_EGRESS_ASK_INTERNAL, NULL, opt_egress_ask_internal,
	  "with " LAUNCH_OPT_EGRESS_ASK_FD ": ask about an IP address off the list that is "
	  "internal (loopback, private, link-local, the machine's own...) too; without it such "
	  "an address is refused at once" },
	{ LAUNCH_OPT_HOLD_NETWORK, "SOCKET", opt_hold_network,
	  "become the holder of a network namespace with its loopback up, listening on SOCKET "
	  "(which must not exist); exit 0 once it is ready, the holder staying in the background" },
	{ LAUNCH_OPT_HOLD_IDLE, "DURATION", opt_hold_idle,
	  "with " LAUNCH_OPT_HOLD_NETWORK ": how long the holder stays once nothing uses it "
	  "(default: " LAUNCH_HOLD_IDLE_DEFAULT ")" },
	{ LAUNCH_OPT_TIDY_PROTECTED, "LOCK", opt_tidy_protected,
	  "remove the empty folders a run made for the " LAUNCH_OPT_PROTECT
	  " folder entries of " LAUNCH_OPT_WORKSPACE
	  " (absolute) that no run holds, once " LAUNCH_OPT_TIDY_AFTER
	  " has passed, holding the lock file LOCK meanwhile (none if another holds it); with a "
	  "wait, exit 0 at once, the tidier staying in the background" },
	{ LAUNCH_OPT_TIDY_AFTER, "DURATION", opt_tidy_after,
	  "with " LAUNCH_OPT_TIDY_PROTECTED
	  ": how long to wait first (default: " LAUNCH_TIDY_AFTER_DEFAULT
	  "; 0: now, in the foreground)" },
	{ LAUNCH_OPT_PRINT_FEATURES, NULL, opt_print_features,
	  "print what each profile enforces on this kernel as JSON, and exit" },
	{ LAUNCH_OPT_HELP, NULL, opt_help, "print this help and exit" },
	{ LAUNCH_OPT_VERSION, NULL, opt_version, "print the version and exit" },
};

/* The short spellings users expect of two options. */
static const struct {
	const char *alias, *name;
} aliases[] = { { "-h", LAUNCH_OPT_HELP }, { "-V", LAUNCH_OPT_VERSION } };

static const char *alias_of(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(aliases); i++)
		if (strcmp(aliases[i].name, name) == 0)
			return aliases[i].alias;
	return NULL;
}

/* The row for "--name" or "--name=value" (then *ret_value points past '='),
 * or for a short alias. */
static const struct option_def *option_find(const char *word, const char **ret_value)
{
	*ret_value = NULL;
	for (size_t i = 0; i < ELEMENTSOF(aliases); i++)
		if (strcmp(word, aliases[i].alias) == 0)
			word = aliases[i].name;
	for (size_t i = 0; i < ELEMENTSOF(options); i++) {
		size_t len = strlen(options[i].name);
		if (strncmp(word, options[i].name, len) != 0)
			continue;
		if (word[len] == '\0')
			return &options[i];
		if (word[len] == '=' && options[i].metavar) {
			*ret_value = word + len + 1;
			return &options[i];
		}
	}
	return NULL;
}

/* The error for an unknown option, with the one perhaps meant. */
static int unknown_option(const char *word, struct sluice_error *err)
{
	char name[64];
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(word, "="), word);
	struct suggestion s;
	suggestion_init(&s, name);
	for (size_t i = 0; i < ELEMENTSOF(options); i++)
		suggestion_consider(&s, options[i].name);
	const char *meant = suggestion_best(&s);
	if (meant)
		return sluice_error_set(err, -EINVAL, "unknown option '%s'; did you mean '%s'?",
		                        word, meant);
	return sluice_error_set(err, -EINVAL, "unknown option '%s'", word);
}

/* --egress-allow-internal's patterns, read once every --egress-allow is:
 * each within the allowlist, since a name it does not allow is never
 * reached, and a pattern outside it would say something that is not so. */
static int read_egress_internal(struct launch_spec *spec, struct sluice_error *err)
{
	for (unsigned i = 0; i < spec->n_egress_allow_internal; i++) {
		int r = egress_internal_rule_parse(spec->egress_allow_internal_text[i],
		                                   spec->egress_allow, spec->n_egress_allow,
		                                   LAUNCH_OPT_EGRESS_ALLOW,
		                                   &spec->egress_allow_internal[i], err);
		if (r < 0) {
			sluice_error_prefix(err, "%s", LAUNCH_OPT_EGRESS_ALLOW_INTERNAL);
			return r;
		}
	}
	return 0;
}

/* The options that need, or exclude, one another: 0, or -EINVAL naming
 * them. */
static int check_combinations(const struct launch_spec *spec, struct sluice_error *err)
{
	/* every descriptor option names a descriptor of its own */
	const struct {
		const char *name;
		int fd;
	} fds[] = {
		{ LAUNCH_OPT_REPORT_FD, spec->report_fd },
		{ LAUNCH_OPT_COMMAND_FD, spec->command_fd },
		{ LAUNCH_OPT_END_FD, spec->end_fd },
		{ LAUNCH_OPT_EGRESS_AUDIT_FD, spec->egress_audit_fd },
		{ LAUNCH_OPT_EGRESS_ASK_FD, spec->egress_ask_fd },
	};
	for (size_t i = 0; i < ELEMENTSOF(fds); i++)
		for (size_t j = i + 1; j < ELEMENTSOF(fds); j++)
			if (fds[i].fd >= 0 && fds[i].fd == fds[j].fd)
				return sluice_error_set(err, -EINVAL,
				                        "%s and %s name the same descriptor",
				                        fds[i].name, fds[j].name);
	if (spec->egress_ask_internal && spec->egress_ask_fd < 0)
		return sluice_error_set(err, -EINVAL, "%s needs %s N",
		                        LAUNCH_OPT_EGRESS_ASK_INTERNAL, LAUNCH_OPT_EGRESS_ASK_FD);
	if (spec->git_writable && spec->git_read_only)
		return sluice_error_set(err, -EINVAL, "%s and %s contradict each other",
		                        LAUNCH_OPT_GIT_WRITABLE, LAUNCH_OPT_GIT_READ_ONLY);
	if (spec->user_ids_set && !spec->user)
		return sluice_error_set(err, -EINVAL, "%s needs %s NAME", LAUNCH_OPT_USER_IDS,
		                        LAUNCH_OPT_USER);
	/* the fallback is made as the caller, who would own it, not --user */
	if (spec->tmpdir_fallback && (!spec->tmpdir || spec->user))
		return sluice_error_set(err, -EINVAL, "%s needs %s DIR, and no %s",
		                        LAUNCH_OPT_TMPDIR_FALLBACK, LAUNCH_OPT_TMPDIR,
		                        LAUNCH_OPT_USER);
	if (spec->network_holder && spec->namespace_off)
		return sluice_error_set(err, -EINVAL, "%s needs the namespaces (not %s %s)",
		                        LAUNCH_OPT_NETWORK_HOLDER, LAUNCH_OPT_NAMESPACE,
		                        LAUNCH_NAMESPACE_OFF);
	/* the proxy is the one way out of a network namespace: without one,
	 * or with the network allowed, it would mean nothing */
	if (spec->n_egress_allow > 0 &&
	    (spec->namespace_off || spec->network_allow || !spec->profile->sandboxed))
		return sluice_error_set(err, -EINVAL,
		                        "%s needs a sandboxed profile, the network denied and the "
		                        "namespaces (not %s %s)",
		                        LAUNCH_OPT_EGRESS_ALLOW, LAUNCH_OPT_NAMESPACE,
		                        LAUNCH_NAMESPACE_OFF);
	return 0;
}

int options_parse(int argc, char **argv, struct launch_spec *spec, struct sluice_error *err)
{
	*spec = (struct launch_spec){
		.action = LAUNCH_RUN,
		.profile = profile_default(),
		.report_fd = -1,
		.end_fd = -1,
		.command_fd = -1,
		.egress_audit_fd = -1,
		.egress_ask_fd = -1,
	};
	(void)parse_duration_ms(LAUNCH_EGRESS_ASK_WAIT_DEFAULT, UINT32_MAX,
	                        &spec->egress_ask_wait_ms);
	(void)parse_size(LAUNCH_TMPDIR_SIZE_DEFAULT, UINT64_MAX, &spec->tmpdir_size);
	(void)parse_duration_ms(LAUNCH_HOLD_IDLE_DEFAULT, UINT32_MAX, &spec->hold_idle_ms);
	(void)parse_duration_ms(LAUNCH_TIDY_AFTER_DEFAULT, UINT32_MAX, &spec->tidy_after_ms);
	int i = 1;
	while (i < argc) {
		const char *word = argv[i];
		if (strcmp(word, LAUNCH_OPT_END) == 0) {
			i++;
			break;
		}
		if (word[0] != '-')
			break;
		const char *value;
		const struct option_def *o = option_find(word, &value);
		if (!o)
			return unknown_option(word, err);
		if (o->metavar && !value) {
			if (i + 1 >= argc)
				return sluice_error_set(err, -EINVAL, "option '%s' needs %s",
				                        o->name, o->metavar);
			value = argv[++i];
		}
		int r = o->handle(spec, value, err);
		if (r < 0) {
			sluice_error_prefix(err, "%s", o->name);
			return r;
		}
		i++;
	}
	/* a tidier runs no program, but removes in one workspace only */
	if (spec->action == LAUNCH_TIDY_PROTECTED &&
	    (!spec->workspace || spec->workspace[0] != '/'))
		return sluice_error_set(err, -EINVAL, "%s needs %s DIR, absolute",
		                        LAUNCH_OPT_TIDY_PROTECTED, LAUNCH_OPT_WORKSPACE);
	if (spec->action != LAUNCH_RUN)
		return 0;
	if (i >= argc)
		return sluice_error_set(err, -EINVAL, "no program given (try '%s')",
		                        LAUNCH_OPT_HELP);
	int r = read_egress_internal(spec, err);
	if (r >= 0)
		r = check_combinations(spec, err);
	if (r < 0)
		return r;
	spec->argv = argv + i;
	return 0;
}

void options_help(FILE *f)
{
	fprintf(f, "Usage: sluice-launch [OPTIONS] -- PROGRAM [ARG...]\n"
	           "Build a sandbox around this process, then exec PROGRAM.\n\nOptions:\n");
	for (size_t i = 0; i < ELEMENTSOF(options); i++) {
		char left[64];
		const char *alias = alias_of(options[i].name);
		snprintf(left, sizeof(left), "%s%s%s%s%s", alias ? alias : "", alias ? ", " : "",
		         options[i].name, options[i].metavar ? " " : "",
		         options[i].metavar ? options[i].metavar : "");
		fprintf(f, "  %-26s %s\n", left, options[i].help);
	}
	unsigned n;
	const struct profile *p = profile_table(&n);
	fprintf(f, "\nProfiles:\n");
	for (unsigned k = 0; k < n; k++)
		fprintf(f, "  %-26s %s\n", p[k].name, p[k].summary);
	fprintf(f,
	        "\nExit status: PROGRAM's own once exec'd; %d for every failure of "
	        "sluice-launch's own\n(stderr: \"sluice-launch: STEP: DETAIL: ERROR\").\n",
	        LAUNCH_EXIT_FAILURE);
}
