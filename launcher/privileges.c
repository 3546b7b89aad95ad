/* SPDX-License-Identifier: MIT */
/*
 * Privileges: nothing to gain at exec (no_new_privs makes setuid bits and
 * file capabilities inert), nothing held (capabilities dropped), and, as
 * root, optionally another uid, which is also what makes RLIMIT_NPROC bind.
 * Raw system calls throughout (capget, capset, prctl): a library would read
 * /proc/self/status, and the launcher must also build against a C library
 * that no capability library is packaged for (docs/building.md).
 */
#include "config.h"

#include <errno.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "protections.h"
#include "options.h"
#include "privileges.h"

/* Whether any capability is held in the effective, permitted or inheritable
 * sets (ambient is a subset of permitted). */
static int caps_held(bool *ret, struct sluice_error *err)
{
	struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { { 0 } };
	if (syscall(SYS_capget, &header, data) < 0)
		return sluice_error_set(err, neg_errno(), "capget");
	*ret = false;
	for (size_t i = 0; i < ELEMENTSOF(data); i++)
		if (data[i].effective | data[i].permitted | data[i].inheritable)
			*ret = true;
	return 0;
}

/* Whether EINVAL from PR_CAPBSET_DROP of cap means that this kernel knows
 * no capability cap, the end of the set: never below CAP_AUDIT_READ, which
 * every kernel with Landlock knows, and only if reading it is refused the
 * same way (a seccomp profile that refuses the drop lets the read be). */
static bool past_last_capability(unsigned long cap)
{
	return cap > CAP_AUDIT_READ && prctl(PR_CAPBSET_READ, cap, 0, 0, 0) < 0 && errno == EINVAL;
}

/* Empty the bounding set: PR_CAPBSET_DROP for every capability this kernel
 * knows, up to the first it does not; needs CAP_SETPCAP. Each drop that
 * succeeds has taken its capability out (the kernel commits the new set
 * before it returns 0), and any other failure is an error, so reading the
 * set back would only repeat the 41 system calls. */
static int drop_bounding_set(struct sluice_error *err)
{
	for (unsigned long cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) {
			int r = neg_errno();
			if (r == -EINVAL && past_last_capability(cap))
				return 0;
			return sluice_error_set(
			        err, r, "dropping capability %lu from the bounding set", cap);
		}
	return 0;
}

/* Empty the ambient set, then the effective, permitted and inheritable sets
 * (capset with all of them zero is always allowed: it only gives up). */
static int empty_capability_sets(struct sluice_error *err)
{
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return sluice_error_set(err, neg_errno(), "clearing the ambient capabilities");
	struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { { 0 } };
	if (syscall(SYS_capset, &header, data) < 0)
		return sluice_error_set(err, neg_errno(), "capset");
	return 0;
}

int privileges_user(const struct launch_spec *spec, struct user_ids *ret, struct sluice_error *err)
{
	if (spec->user_ids_set) {
		*ret = spec->user_ids;
		return 0;
	}
	return user_ids_lookup(spec->user, ret, err);
}

/* As root: become u, groups first (they need CAP_SETGID, which setresuid
 * takes away), uid last. The kernel clears the permitted, effective and
 * ambient sets when uid 0 becomes another uid (no SECBIT_KEEP_CAPS). */
static int switch_user(const char *name, const struct user_ids *u, struct sluice_error *err)
{
	const char *step;
	int rc = user_ids_become(u, &step);
	if (rc < 0)
		return sluice_error_set(err, rc, "%s for '%s' (uid %u, gid %u)", step, name,
		                        (unsigned)u->uid, (unsigned)u->gid);
	uid_t r, e, s;
	if (getresuid(&r, &e, &s) < 0 || r != u->uid || e != u->uid || s != u->uid)
		return sluice_error_set(err, -EPERM, "uid is not %u after setresuid",
		                        (unsigned)u->uid);
	return 0;
}

int apply_privileges(const struct launch_spec *spec, struct launch_state *state,
                     struct sluice_error *err)
{
	struct user_ids user;
	bool switching = false;
	if (spec->user) {
		int r = privileges_user(spec, &user, err);
		if (r < 0)
			return r;
		if (getuid() != 0 && user.uid != getuid())
			return sluice_error_set(err, -EPERM, "only root can run as user '%s'",
			                        spec->user);
		switching = getuid() == 0; /* else: already that user */
	}

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return sluice_error_set(err, neg_errno(), "PR_SET_NO_NEW_PRIVS");
	state->enforced |= PROT_NO_NEW_PRIVS;

	bool held;
	int r = caps_held(&held, err);
	if (r < 0)
		return r;
	if (held) {
		/* The bounding set first: dropping it needs CAP_SETPCAP, which
		 * the switch of uid takes away with the other sets. */
		r = drop_bounding_set(err);
		if (r < 0)
			return r;
	}
	if (switching) {
		r = switch_user(spec->user, &user, err);
		if (r < 0)
			return r;
		r = caps_held(&held, err);
		if (r < 0)
			return r;
	}
	if (held) {
		r = empty_capability_sets(err);
		if (r < 0)
			return r;
		r = caps_held(&held, err);
		if (r < 0)
			return r;
	}
	if (held)
		return sluice_error_set(err, -EPERM, "capabilities remain after dropping them");
	state->enforced |= PROT_NO_CAPS;
	if (spec->rlimit_set[RLIMIT_INDEX_NPROC] && getuid() != 0)
		state->enforced |= PROT_RLIMIT_NPROC;
	return 0;
}
