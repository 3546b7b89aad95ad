/* SPDX-License-Identifier: MIT */
/*
 * The seccomp filter, built with libseccomp: allow by default, refuse a few
 * calls by argument. libseccomp returns -errno values, so its errors pass
 * through unchanged with a detail naming the rule.
 */
#include "config.h"

#include <seccomp.h>
#include <sys/socket.h>

#include "cleanup.h"
#include "protections.h"
#include "options.h"
#include "seccomp-filter.h"

static void seccomp_releasep(scmp_filter_ctx *ctx)
{
	if (*ctx)
		seccomp_release(*ctx);
}

/* Refuse the socket calls for every family but AF_UNIX. */
static int add_socket_rules(scmp_filter_ctx ctx, struct sluice_error *err)
{
	static const int calls[] = { SCMP_SYS(socket), SCMP_SYS(socketpair) };
	for (size_t i = 0; i < ELEMENTSOF(calls); i++) {
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), calls[i], 1,
		                         SCMP_A0(SCMP_CMP_NE, AF_UNIX));
		if (r < 0)
			return sluice_error_set(err, r, "rule for socket families");
	}
	return 0;
}

static int add_connect_rule(scmp_filter_ctx ctx, struct sluice_error *err)
{
	int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(connect), 0);
	if (r < 0)
		return sluice_error_set(err, r, "rule for connect");
	return 0;
}

static int add_io_uring_rules(scmp_filter_ctx ctx, struct sluice_error *err)
{
	static const int calls[] = { SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter),
		                     SCMP_SYS(io_uring_register) };
	for (size_t i = 0; i < ELEMENTSOF(calls); i++) {
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), calls[i], 0);
		if (r < 0)
			return sluice_error_set(err, r, "rule for io_uring");
	}
	return 0;
}

int apply_seccomp(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err)
{
	(void)spec;
	uint32_t planned = state->planned & PROT_SECCOMP_ANY;
	if (planned == 0)
		return 0;
	/* Only the native architecture: a 32-bit x86 call on x86-64 takes the
	 * default bad-architecture action, which kills the process. */
	_cleanup_(seccomp_releasep) scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return sluice_error_set(err, -ENOMEM, "seccomp_init");
	int r = 0;
	if (planned & PROT_SECCOMP_SOCKETS)
		r = add_socket_rules(ctx, err);
	if (r >= 0 && (planned & PROT_SECCOMP_UNIX_CONNECT))
		r = add_connect_rule(ctx, err);
	if (r >= 0 && (planned & PROT_SECCOMP_IO_URING))
		r = add_io_uring_rules(ctx, err);
	if (r < 0)
		return r;
	/* no_new_privs is already set, so loading needs no privilege. */
	r = seccomp_load(ctx);
	if (r < 0)
		return sluice_error_set(err, r, "loading the filter");
	state->enforced |= planned;
	return 0;
}
