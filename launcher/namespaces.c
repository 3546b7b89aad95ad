/* SPDX-License-Identifier: MIT */
/*
 * A private mount, IPC and PID namespace (and, with the network denied, a
 * network namespace: net-namespace.c), setuid-free. Root (or anything with
 * CAP_SYS_ADMIN in its user namespace) unshares them directly; anyone else
 * first gets a user namespace of their own, where their uid and gid map to
 * themselves (files keep their owners; ids nobody mapped show as the
 * overflow id). Where user namespaces are disabled (user.max_user_namespaces
 * = 0, a distribution's sysctl, a container's seccomp profile), unshare(2)
 * fails before changing anything, and Landlock alone remains.
 */
#include "config.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "egress-proxy.h"
#include "fd-util.h"
#include "launch-spec.h"
#include "monotonic.h"
#include "namespaces.h"
#include "net-join.h"
#include "net-namespace.h"
#include "options.h"
#include "protections.h"

/* Write text to a /proc file, whole. */
static int write_proc(const char *path, const char *text, struct sluice_error *err)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return sluice_error_set(err, neg_errno(), "opening %s", path);
	int r = write_full(fd, text, strlen(text));
	if (r < 0)
		return sluice_error_set(err, r, "writing '%s' to %s", text, path);
	return 0;
}

/* The user namespace's only ids are ours. setgroups is denied first, as the
 * kernel requires of an unprivileged gid map; the groups we hold still
 * count for access, and show as the overflow gid. */
static int map_ids(uid_t uid, gid_t gid, struct sluice_error *err)
{
	char line[64];
	int r = write_proc("/proc/self/setgroups", "deny", err);
	if (r < 0)
		return r;
	snprintf(line, sizeof(line), "%u %u 1", (unsigned)uid, (unsigned)uid);
	r = write_proc("/proc/self/uid_map", line, err);
	if (r < 0)
		return r;
	snprintf(line, sizeof(line), "%u %u 1", (unsigned)gid, (unsigned)gid);
	return write_proc("/proc/self/gid_map", line, err);
}

/* Whether this process holds cap in its effective set. */
static bool cap_effective(unsigned cap)
{
	struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { { 0 } };
	if (syscall(SYS_capget, &header, data) < 0)
		return false;
	return (data[cap / 32].effective >> (cap % 32)) & 1;
}

/* The kind entered, then the network namespace when net: its unshare
 * refused leaves *ret_net false (nothing changed, the rest holds). */
static int enter_network(int kind, bool net, bool *ret_net, struct sluice_error *err)
{
	*ret_net = false;
	if (!net || kind == NAMESPACE_NONE)
		return kind;
	struct sluice_error net_err = { 0 };
	bool entered = false;
	int r = net_namespace_enter(&entered, &net_err);
	if (r < 0 && !entered)
		return kind;
	if (r < 0) {
		*err = net_err;
		return r;
	}
	*ret_net = true;
	return kind;
}

int namespaces_enter(bool net, const char **ret_reason, bool *ret_net, struct sluice_error *err)
{
	/* CLONE_NEWPID: this process stays where it is; its next child is
	 * the new namespace's init (step "monitor"). */
	const int flags = CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID;
	*ret_net = false;
	if (unshare(flags) == 0)
		return enter_network(NAMESPACE_PRIVILEGED, net, ret_net, err);
	if (errno != EPERM) {
		*ret_reason = "unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID)";
		return NAMESPACE_NONE;
	}
	uid_t uid = getuid();
	gid_t gid = getgid();
	/* Since Linux 5.12 mapping uid 0 needs CAP_SETFCAP: without it, root
	 * would be left in a user namespace without its ids. */
	if (uid == 0 && !cap_effective(CAP_SETFCAP)) {
		errno = EPERM;
		*ret_reason = "a user namespace for uid 0 without CAP_SETFCAP";
		return NAMESPACE_NONE;
	}
	/* EPERM: user namespaces are forbidden (a sysctl, seccomp, or
	 * AppArmor's restriction); ENOSPC/EUSERS: a limit of 0 or reached;
	 * EINVAL: a kernel without them. Nothing changed. */
	if (unshare(CLONE_NEWUSER | flags) < 0) {
		*ret_reason = "unshare(CLONE_NEWUSER)";
		return NAMESPACE_NONE;
	}
	int r = map_ids(uid, gid, err);
	return r < 0 ? r : enter_network(NAMESPACE_USER, net, ret_net, err);
}

int namespaces_enter_network(const char **ret_reason, struct sluice_error *err)
{
	bool entered = false;
	int r = net_namespace_enter(&entered, err);
	if (r >= 0 || entered || r != -EPERM)
		return r;
	*err = (struct sluice_error){ 0 };
	uid_t uid = getuid();
	gid_t gid = getgid();
	if (uid == 0 && !cap_effective(CAP_SETFCAP)) {
		*ret_reason = "a user namespace for uid 0 without CAP_SETFCAP";
		return sluice_error_set(err, -EPERM, "%s", *ret_reason);
	}
	if (unshare(CLONE_NEWUSER) < 0) {
		*ret_reason = "unshare(CLONE_NEWUSER)";
		return sluice_error_set(err, neg_errno(), "%s", *ret_reason);
	}
	r = map_ids(uid, gid, err);
	return r < 0 ? r : net_namespace_enter(&entered, err);
}

/* The probe's exit status: the kind, and this bit when the network
 * namespace was had too. */
#define NAMESPACE_PROBE_NET 0x10

enum namespace_kind namespaces_probe(char *buf, size_t size, bool *ret_net)
{
	*ret_net = false;
	int fds[2];
	snprintf(buf, size, "the probe failed");
	if (pipe2(fds, O_CLOEXEC) < 0)
		return NAMESPACE_NONE;
	pid_t pid = fork();
	if (pid == 0) {
		const char *reason = "";
		struct sluice_error err = { 0 };
		bool net = false;
		int r = namespaces_enter(true, &reason, &net, &err);
		char text[sizeof(err.detail) + 128];
		if (r < 0)
			snprintf(text, sizeof(text), "%s: %s", err.detail, strerror(-err.code));
		else
			snprintf(text, sizeof(text), "%s: %s", reason, strerror(errno));
		(void)write_full(fds[1], text, strlen(text));
		_exit(r < 0 ? NAMESPACE_NONE : r | (net ? NAMESPACE_PROBE_NET : 0));
	}
	(void)close(fds[1]);
	if (pid < 0) {
		(void)close(fds[0]);
		return NAMESPACE_NONE;
	}
	ssize_t n = read_full(fds[0], buf, size - 1);
	(void)close(fds[0]);
	buf[n > 0 ? n : 0] = '\0';
	int status;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return NAMESPACE_NONE;
	*ret_net = WEXITSTATUS(status) & NAMESPACE_PROBE_NET;
	return (enum namespace_kind)(WEXITSTATUS(status) & ~NAMESPACE_PROBE_NET);
}

/* The holder's network namespace (and its user namespace, when it is not
 * ours) joined, then the mount, IPC and PID namespaces made in it. The
 * kind, with the connection to the holder in *ret_fd; -errno when any of
 * it fails, with *ret_entered false when nothing changed (the holder is
 * gone, or this process may not join it: a caller in a user namespace of
 * its own), else fatal: a process that joined half is in neither. */
static int namespaces_join(const char *holder, int *ret_fd, bool *ret_entered,
                           struct sluice_error *err)
{
	bool user = false;
	_cleanup_close_ int fd = net_join(holder, &user, ret_entered, err);
	if (fd < 0)
		return fd;
	*ret_entered = true;
	if (unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID) < 0)
		return sluice_error_set(err, neg_errno(),
		                        "unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID) in the "
		                        "holder's namespaces");
	*ret_fd = TAKE_FD(fd);
	return user ? NAMESPACE_USER : NAMESPACE_PRIVILEGED;
}

void namespaces_ahead(void *userdata)
{
	struct namespace_ahead *a = userdata;
	const char *reason = NULL; /* only the report says what is missing */
	uint64_t start = monotonic_us();
	a->entered = true;
	a->result = namespaces_enter(true, &reason, &a->net, &a->err);
	a->us = (uint32_t)(monotonic_us() - start);
}

int apply_namespaces(const struct launch_spec *spec, struct launch_state *state,
                     struct sluice_error *err)
{
	const struct namespace_ahead *ahead = state->ahead;
	bool wanted = (state->planned & PROT_MOUNT_NAMESPACE) && !spec->namespace_off;
	/* A network namespace would cut the network that --network allow
	 * grants. */
	bool wanted_net = wanted && !spec->network_allow;
	if (ahead && ahead->entered && !wanted_net)
		return sluice_error_set(err, -EINVAL,
		                        "the namespaces were entered ahead (%s), but the options "
		                        "plan none, or allow the network",
		                        LAUNCH_SPEC_NAMESPACE_AHEAD);
	/* the namespace entered ahead is the run's own, not the holder's */
	if (ahead && ahead->entered && spec->network_holder)
		return sluice_error_set(err, -EINVAL, "%s cannot join a holder (%s)",
		                        LAUNCH_SPEC_NAMESPACE_AHEAD, LAUNCH_OPT_NETWORK_HOLDER);
	/* the proxy must be forked while this process is still in the host's
	 * network: its connections are made there */
	bool egress = wanted_net && spec->n_egress_allow > 0;
	if (egress && ahead && ahead->entered)
		return sluice_error_set(err, -EINVAL,
		                        "the namespaces were entered ahead (%s), before the egress "
		                        "proxy (%s) could be started outside them",
		                        LAUNCH_SPEC_NAMESPACE_AHEAD, LAUNCH_OPT_EGRESS_ALLOW);
	if (!wanted)
		return 0;
	const char *reason = NULL;
	bool net = false;
	int r;
	if (egress) {
		r = egress_proxy_start(spec, state, &state->egress_proxy, err);
		if (r < 0)
			return r;
	}
	if (ahead && ahead->entered) {
		r = ahead->result;
		net = ahead->net;
		if (r < 0)
			*err = ahead->err;
	} else if (wanted_net && spec->network_holder) {
		bool entered = false;
		r = namespaces_join(spec->network_holder, &state->network_holder_fd, &entered, err);
		if (r >= 0) {
			net = true;
			state->enforced |= PROT_WORKSPACE_NETWORK;
		} else if (!entered) {
			/* a network of the run's own, as without a holder; the
			 * report names workspace-network missing */
			*err = (struct sluice_error){ 0 };
			r = namespaces_enter(true, &reason, &net, err);
		}
	} else {
		r = namespaces_enter(wanted_net, &reason, &net, err);
	}
	if (r < 0)
		return r;
	state->namespace = (enum namespace_kind)r;
	if (state->namespace != NAMESPACE_NONE)
		state->enforced |= PROT_IPC_NAMESPACE;
	if (net)
		state->enforced |= PROT_NET_NAMESPACE;
	if (!egress)
		return 0;
	/* Without a network namespace nothing keeps a command to the proxy:
	 * the allowlist cannot be enforced, so the run is refused (fail
	 * closed), never run with the whole network or none. */
	if (!net)
		return sluice_error_set(err, -EOPNOTSUPP,
		                        "%s needs a network namespace, and none could be had%s%s: "
		                        "the allowlist cannot be enforced",
		                        LAUNCH_OPT_EGRESS_ALLOW, reason ? " here: " : "",
		                        reason ? reason : "");
	return egress_proxy_hand_over(&state->egress_proxy, err);
}
