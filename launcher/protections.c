/* SPDX-License-Identifier: MIT */
/*
 * The plan: which protections a profile asks for, which this kernel (and
 * uid) can give, and the JSON that reports both. The table below is the
 * single list of protection names; every report is generated from it.
 * Not for: applying protections; the steps set bits in state->enforced.
 */
#include "config.h"

#include <inttypes.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "protections.h"
#include "landlock.h"
#include "launch-spec.h"
#include "options.h"
#include "privileges.h"
#include "namespaces.h"
#include "profiles.h"
#include "rlimits.h"

struct protection_def {
	uint32_t bit;
	const char *name;
	int min_landlock_abi; /* 0: not a Landlock right */
	bool needs_seccomp;
};

/* In the order they are applied: X(bit, name, Landlock ABI, needs
 * seccomp). Landlock rows give the ABI that added the right (see landlock.c
 * for the kernel versions); 0: not a Landlock right. */
#define PROTECTIONS(X)                                                                \
	X(PROT_SESSION, LAUNCH_PROT_SESSION, 0, false)                                \
	X(PROT_CLOSE_FDS, LAUNCH_PROT_CLOSE_FDS, 0, false)                            \
	X(PROT_RLIMIT_NPROC, LAUNCH_PROT_RLIMIT_NPROC, 0, false)                      \
	X(PROT_NO_NEW_PRIVS, LAUNCH_PROT_NO_NEW_PRIVS, 0, false)                      \
	X(PROT_NO_CAPS, LAUNCH_PROT_NO_CAPS, 0, false)                                \
	X(PROT_LANDLOCK_FS, LAUNCH_PROT_LANDLOCK_FS, 1, false)                        \
	X(PROT_LANDLOCK_REFER, LAUNCH_PROT_LANDLOCK_REFER, 2, false)                  \
	X(PROT_LANDLOCK_TRUNCATE, LAUNCH_PROT_LANDLOCK_TRUNCATE, 3, false)            \
	X(PROT_LANDLOCK_TCP, LAUNCH_PROT_LANDLOCK_TCP, 4, false)                      \
	X(PROT_LANDLOCK_IOCTL_DEV, LAUNCH_PROT_LANDLOCK_IOCTL_DEV, 5, false)          \
	X(PROT_LANDLOCK_SCOPE_UNIX, LAUNCH_PROT_LANDLOCK_SCOPE_UNIX, 6, false)        \
	X(PROT_LANDLOCK_SCOPE_SIGNAL, LAUNCH_PROT_LANDLOCK_SCOPE_SIGNAL, 6, false)    \
	X(PROT_SECCOMP_SOCKETS, LAUNCH_PROT_SECCOMP_SOCKETS, 0, true)                 \
	X(PROT_SECCOMP_UNIX_CONNECT, LAUNCH_PROT_SECCOMP_UNIX_CONNECT, 0, true)       \
	X(PROT_SECCOMP_IO_URING, LAUNCH_PROT_SECCOMP_IO_URING, 0, true)               \
	X(PROT_SECCOMP_OTHER_PROCESSES, LAUNCH_PROT_SECCOMP_OTHER_PROCESSES, 0, true) \
	X(PROT_SECCOMP_SETID_MODES, LAUNCH_PROT_SECCOMP_SETID_MODES, 0, true)         \
	X(PROT_SECCOMP_KEYRINGS_LEASES, LAUNCH_PROT_SECCOMP_KEYRINGS_LEASES, 0, true) \
	X(PROT_MOUNT_NAMESPACE, LAUNCH_PROT_MOUNT_NAMESPACE, 0, false)                \
	X(PROT_IPC_NAMESPACE, LAUNCH_PROT_IPC_NAMESPACE, 0, false)                    \
	X(PROT_TMPDIR_TMPFS, LAUNCH_PROT_TMPDIR_TMPFS, 0, false)                      \
	X(PROT_PRIVATE_TMP, LAUNCH_PROT_PRIVATE_TMP, 0, false)                        \
	X(PROT_HIDDEN_PATHS, LAUNCH_PROT_HIDDEN_PATHS, 0, false)                      \
	X(PROT_READ_ONLY_PATHS, LAUNCH_PROT_READ_ONLY_PATHS, 0, false)                \
	X(PROT_GIT_INCLUDES, LAUNCH_PROT_GIT_INCLUDES, 1, false)                      \
	X(PROT_PROTECTED_PATHS, LAUNCH_PROT_PROTECTED_PATHS, 0, false)                \
	X(PROT_MINIMAL_DEV, LAUNCH_PROT_MINIMAL_DEV, 0, false)                        \
	X(PROT_PID_NAMESPACE, LAUNCH_PROT_PID_NAMESPACE, 0, false)                    \
	X(PROT_NET_NAMESPACE, LAUNCH_PROT_NET_NAMESPACE, 0, false)                    \
	X(PROT_PIDS_LIMIT, LAUNCH_PROT_PIDS_LIMIT, 0, false)                          \
	X(PROT_REAPER, LAUNCH_PROT_REAPER, 0, false)                                  \
	X(PROT_WORKSPACE_NETWORK, LAUNCH_PROT_WORKSPACE_NETWORK, 0, false)

static const struct protection_def protections[] = {
#define PROTECTION_ROW(bit, name, abi, seccomp) { bit, name, abi, seccomp },
	PROTECTIONS(PROTECTION_ROW)
#undef PROTECTION_ROW
};

/* The longest list of names apply_features() can write: every name, each
 * with its ", ", and the final NUL. Sized from the table, so the list of
 * what is missing is never cut. */
#define PROTECTION_NAME_BYTES(bit, name, abi, seccomp) +sizeof(name ", ") - 1
#define PROTECTION_NAMES_MAX (1 PROTECTIONS(PROTECTION_NAME_BYTES))

/* apply_features()'s refusal, whose detail must hold it all: the longest
 * profile name, the ABI, and every name. */
#define FEATURES_REFUSAL \
	"profile '%s' cannot be fully enforced (Landlock ABI %d%s): missing %s; use %s to run anyway"
#define FEATURES_NPROC_NOTE ", uid 0 ignores nproc; use --user"
_Static_assert(sizeof(FEATURES_REFUSAL) + sizeof(LAUNCH_PROFILE_WORKSPACE_WRITE) +
                               sizeof(LAUNCH_PROFILE_UNRESTRICTED) + 11 +
                               sizeof(FEATURES_NPROC_NOTE) + PROTECTION_NAMES_MAX +
                               sizeof(LAUNCH_OPT_BEST_EFFORT) <=
                       sizeof(((struct sluice_error *)0)->detail),
               "the refusal of apply_features() fits a sluice_error whole");

/* Whether this kernel accepts seccomp filters that return an errno. */
static bool seccomp_filters_available(void)
{
	uint32_t action = SECCOMP_RET_ERRNO;
	return syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

/* What a profile with these options asks for. */
static uint32_t protections_asked(const struct profile *p, const struct launch_spec *spec)
{
	bool nproc = spec && spec->rlimit_set[RLIMIT_INDEX_NPROC];
	bool network_allow = spec && spec->network_allow;
	bool unix_connect_allow = spec && spec->unix_connect_allow;
	uint32_t asked = PROT_SESSION | PROT_CLOSE_FDS | PROT_NO_NEW_PRIVS | PROT_NO_CAPS;
	if (nproc)
		asked |= PROT_RLIMIT_NPROC;
	if (spec && spec->rlimit_set[RLIMIT_INDEX_PIDS])
		asked |= PROT_PIDS_LIMIT;
	if (!p->sandboxed) {
		/* the sandboxed profiles end the tree by their PID namespace */
		if (spec && spec->die_with_parent)
			asked |= PROT_REAPER;
		return asked;
	}
	asked |= PROT_MOUNT_NAMESPACE | PROT_IPC_NAMESPACE | PROT_PID_NAMESPACE;
	if (!network_allow)
		asked |= PROT_NET_NAMESPACE;
	if (!network_allow && spec && (spec->network_holder || spec->network_holder_none))
		asked |= PROT_WORKSPACE_NETWORK;
	if (spec && spec->tmpdir)
		asked |= PROT_TMPDIR_TMPFS | PROT_PRIVATE_TMP;
	if (spec && spec->n_hide + spec->n_cover > 0)
		asked |= PROT_HIDDEN_PATHS;
	if (spec && spec->n_read_only > 0)
		asked |= PROT_READ_ONLY_PATHS;
	/* --print-features (no spec) shows it as the broker runs it: with
	 * [sandbox] protect's paths */
	if ((!spec || spec->n_protect > 0) && p->workspace == WORKSPACE_WRITABLE)
		asked |= PROT_PROTECTED_PATHS;
	asked |= PROT_MINIMAL_DEV;
	asked |= PROT_LANDLOCK_FS | PROT_LANDLOCK_REFER | PROT_LANDLOCK_TRUNCATE |
	         PROT_LANDLOCK_IOCTL_DEV | PROT_LANDLOCK_SCOPE_UNIX | PROT_LANDLOCK_SCOPE_SIGNAL |
	         PROT_SECCOMP_IO_URING | PROT_SECCOMP_OTHER_PROCESSES | PROT_SECCOMP_SETID_MODES |
	         PROT_SECCOMP_KEYRINGS_LEASES;
	/* by the mounts, or else by Landlock around them */
	if (p->workspace == WORKSPACE_WRITABLE && !(spec && spec->git_writable))
		asked |= PROT_GIT_INCLUDES;
	if (!network_allow) {
		/* joined, the workspace's network namespace keeps TCP in (the
		 * join is fatal when it fails); so does the run's own, whose one
		 * way out is the egress proxy (fatal when it cannot be had) */
		if (!(spec && (spec->network_holder || spec->n_egress_allow > 0)))
			asked |= PROT_LANDLOCK_TCP;
		asked |= PROT_SECCOMP_SOCKETS;
		if (!unix_connect_allow)
			asked |= PROT_SECCOMP_UNIX_CONNECT;
	}
	return asked;
}

/* What this kernel can give; nproc_binds says whether RLIMIT_NPROC applies
 * to the uid the program will run as (the kernel exempts uid 0). */
static uint32_t protections_possible(int abi, bool seccomp, bool nproc_binds)
{
	uint32_t possible = 0;
	for (size_t i = 0; i < ELEMENTSOF(protections); i++) {
		const struct protection_def *d = &protections[i];
		if (d->min_landlock_abi > abi)
			continue;
		if (d->needs_seccomp && !seccomp)
			continue;
		if (d->bit == PROT_RLIMIT_NPROC && !nproc_binds)
			continue;
		if (d->bit & PROT_OPTIONAL)
			continue; /* known only once tried */
		possible |= d->bit;
	}
	return possible;
}

/* The uid the program will run as: --user's, or ours. */
static bool runs_as_root(const struct launch_spec *spec)
{
	if (getuid() != 0)
		return false;
	if (!spec->user)
		return true;
	struct user_ids user;
	struct sluice_error ignored = { 0 };
	/* unknown: the privileges step refuses it, naming the user */
	return privileges_user(spec, &user, &ignored) < 0 || user.uid == 0;
}

int apply_features(const struct launch_spec *spec, struct launch_state *state,
                   struct sluice_error *err)
{
	state->landlock_abi = landlock_abi_version();
	bool seccomp = seccomp_filters_available();
	bool nproc = spec->rlimit_set[RLIMIT_INDEX_NPROC];
	state->asked = protections_asked(spec->profile, spec);
	/* Whom the program runs as only matters to a process limit: no
	 * getpwnam() when none was asked. */
	uint32_t possible =
	        protections_possible(state->landlock_abi, seccomp, nproc && !runs_as_root(spec));
	/* The namespace layer is tried, not probed: its steps set what held. */
	state->planned = state->asked & (possible | PROT_OPTIONAL);
	uint32_t missing = state->asked & ~possible & ~PROT_OPTIONAL;
	if (missing == 0 || spec->best_effort)
		return 0;

	char names[PROTECTION_NAMES_MAX] = "";
	size_t len = 0;
	for (size_t i = 0; i < ELEMENTSOF(protections); i++)
		if (missing & protections[i].bit) {
			int n = snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "",
			                 protections[i].name);
			len += (size_t)n; /* fits: names holds every name */
		}
	return sluice_error_set(err, -EOPNOTSUPP, FEATURES_REFUSAL, spec->profile->name,
	                        state->landlock_abi,
	                        (missing & PROT_RLIMIT_NPROC) ? FEATURES_NPROC_NOTE : "", names,
	                        LAUNCH_OPT_BEST_EFFORT);
}

/* A bounded JSON writer: text that does not fit sets overflow. */
struct json_buf {
	char text[2048];
	size_t len;
	bool overflow;
};

__attribute__((format(printf, 2, 3))) static void json_add(struct json_buf *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(j->text + j->len, sizeof(j->text) - j->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(j->text) - j->len) {
		j->overflow = true;
		return;
	}
	j->len += (size_t)n;
}

/* One character, as json_add(j, "%c", c) would add it. */
static void json_add_char(struct json_buf *j, char c)
{
	if (j->len + 1 >= sizeof(j->text)) {
		j->overflow = true;
		return;
	}
	j->text[j->len++] = c;
	j->text[j->len] = '\0';
}

/* A JSON string; escapes quotes, backslashes and control characters. The
 * rest is copied a character at a time, not formatted: the report is
 * written between the command's arrival and its exec. */
static void json_add_string(struct json_buf *j, const char *s)
{
	json_add_char(j, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			json_add(j, "\\%c", c);
		else if (c < 0x20)
			json_add(j, "\\u%04x", c);
		else
			json_add_char(j, (char)c);
	}
	json_add_char(j, '"');
}

/* "key":["name",...] for the protections in bits, in table order. */
static void json_add_protections(struct json_buf *j, const char *key, uint32_t bits)
{
	json_add(j, "\"%s\":[", key);
	bool first = true;
	for (size_t i = 0; i < ELEMENTSOF(protections); i++)
		if (bits & protections[i].bit) {
			json_add(j, "%s", first ? "" : ",");
			json_add_string(j, protections[i].name);
			first = false;
		}
	json_add(j, "]");
}

int protections_print(FILE *f)
{
	int abi = landlock_abi_version();
	bool seccomp = seccomp_filters_available();
	char reason[256];
	bool net = false;
	enum namespace_kind ns = namespaces_probe(reason, sizeof(reason), &net);
	/* Profiles with their defaults: network and unix connect denied, no
	 * process limit (which depends on the uid, not the kernel), no TMPDIR,
	 * no hidden or read-only paths. */
	uint32_t possible = protections_possible(abi, seccomp, true);
	if (ns != NAMESPACE_NONE)
		possible |= PROT_MOUNT_NAMESPACE | PROT_IPC_NAMESPACE | PROT_MINIMAL_DEV;
	/* the mounts bind them, or Landlock carves around them */
	if (ns != NAMESPACE_NONE || abi >= 1)
		possible |= PROT_PROTECTED_PATHS;
	if (ns != NAMESPACE_NONE)
		possible |= PROT_PID_NAMESPACE;
	if (net)
		possible |= PROT_NET_NAMESPACE;
	struct json_buf j = { .len = 0 };
	json_add(&j, "{\"landlock_abi\":%d,\"seccomp\":%s,\"namespace\":", abi,
	         seccomp ? "true" : "false");
	json_add_string(&j, ns == NAMESPACE_PRIVILEGED ? "privileged"
	                    : ns == NAMESPACE_USER     ? "user"
	                                               : "unavailable");
	if (ns == NAMESPACE_NONE) {
		json_add(&j, ",\"namespace_error\":");
		json_add_string(&j, reason);
	}
	json_add(&j, ",\"net_namespace\":%s", net ? "true" : "false");
	/* --rlimit pids: a PID namespace, and a kernel whose pid_max is its own */
	json_add(&j, ",\"pids_limit\":%s",
	         ns != NAMESPACE_NONE && rlimits_pids_possible() ? "true" : "false");
	json_add(&j, ",\"profiles\":{");
	unsigned n;
	const struct profile *p = profile_table(&n);
	for (unsigned i = 0; i < n; i++) {
		uint32_t asked = protections_asked(&p[i], NULL);
		json_add(&j, "%s", i ? "," : "");
		json_add_string(&j, p[i].name);
		json_add(&j, ":{");
		json_add_protections(&j, "enforced", asked & possible);
		json_add(&j, ",");
		json_add_protections(&j, "missing", asked & ~possible);
		json_add(&j, "}");
	}
	json_add(&j, "}}\n");
	if (j.overflow)
		return -ENOBUFS;
	if (fputs(j.text, f) == EOF || fflush(f) == EOF)
		return -EIO;
	return 0;
}

int apply_report(const struct launch_spec *spec, struct launch_state *state,
                 struct sluice_error *err)
{
	if (spec->report_fd < 0)
		return 0;
	struct json_buf j = { .len = 0 };
	json_add(&j, "{\"profile\":");
	json_add_string(&j, spec->profile->name);
	json_add(&j, ",\"landlock_abi\":%d,", state->landlock_abi);
	json_add_protections(&j, "enforced", state->enforced);
	json_add(&j, ",");
	json_add_protections(&j, "missing", state->asked & ~state->enforced);
	if (state->git_read_only[0]) {
		json_add(&j, ",\"" LAUNCH_REPORT_GIT_READ_ONLY "\":");
		json_add_string(&j, state->git_read_only);
	}
	json_add(&j, ",\"" LAUNCH_REPORT_STEPS_US "\":{");
	for (unsigned i = 0; i < state->n_step_times; i++) {
		json_add(&j, i ? "," : "");
		json_add_string(&j, state->step_times[i].name);
		json_add(&j, ":%" PRIu32, state->step_times[i].us);
	}
	json_add(&j, "}}\n");
	if (j.overflow)
		return sluice_error_set(err, -ENOBUFS, "report longer than %zu bytes",
		                        sizeof(j.text));
	int r = write_full(spec->report_fd, j.text, j.len);
	if (r < 0)
		return sluice_error_set(err, r, "writing to descriptor %d", spec->report_fd);
	return 0;
}

void protections_report_error(const struct launch_spec *spec, const char *step,
                              const struct sluice_error *err)
{
	if (spec->report_fd < 0)
		return;
	int errnum = err->code < 0 ? -err->code : 0;
	struct json_buf j = { .len = 0 };
	json_add(&j, "{\"error\":");
	json_add_string(&j, step);
	json_add(&j, ",\"errno\":%d,\"message\":", errnum);
	json_add_string(&j, errnum ? strerror(errnum) : "");
	json_add(&j, ",\"detail\":");
	json_add_string(&j, err->detail);
	json_add(&j, "}\n");
	if (!j.overflow)
		(void)write_full(spec->report_fd, j.text, j.len);
}
