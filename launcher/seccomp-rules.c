/* SPDX-License-Identifier: MIT */
/*
 * The filter's rules: allow by default, refuse socket families other than
 * AF_UNIX, connect(2), and io_uring. Written once with libseccomp; compiled
 * to BPF at build time (seccomp-gen), because building it at run time costs
 * about 80 us of the launcher's 500 us budget.
 */
#include "config.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <sys/socket.h>

#include "cleanup.h"
#include "errors.h"
#include "seccomp-rules.h"

static int add_socket_rules(scmp_filter_ctx ctx)
{
	static const int calls[] = { SCMP_SYS(socket), SCMP_SYS(socketpair) };
	for (size_t i = 0; i < ELEMENTSOF(calls); i++) {
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), calls[i], 1,
		                         SCMP_A0(SCMP_CMP_NE, AF_UNIX));
		if (r < 0)
			return r;
	}
	return 0;
}

static int add_io_uring_rules(scmp_filter_ctx ctx)
{
	static const int calls[] = { SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter),
		                     SCMP_SYS(io_uring_register) };
	for (size_t i = 0; i < ELEMENTSOF(calls); i++) {
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), calls[i], 0);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A new filter (native architecture only; other architectures' calls kill
 * the process) holding the parts asked for. Returns NULL on failure
 * (libseccomp gives no errno); release with seccomp_release(). */
static scmp_filter_ctx seccomp_rules_build(uint32_t parts)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return NULL;
	/* A call of another architecture (32-bit x86 on x86-64, x32) ends the
	 * whole process, not just the thread that made it. */
	int r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (r >= 0 && (parts & SECCOMP_PART_SOCKETS))
		r = add_socket_rules(ctx);
	if (r >= 0 && (parts & SECCOMP_PART_CONNECT))
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(connect), 0);
	if (r >= 0 && (parts & SECCOMP_PART_IO_URING))
		r = add_io_uring_rules(ctx);
	if (r < 0) {
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

long seccomp_rules_export(uint32_t parts, void *buf, unsigned long size)
{
	scmp_filter_ctx ctx = seccomp_rules_build(parts);
	if (!ctx)
		return -ENOMEM;
	_cleanup_fclose_ FILE *f = tmpfile();
	long r;
	if (!f)
		r = neg_errno();
	else if ((r = seccomp_export_bpf(ctx, fileno(f))) >= 0) {
		rewind(f);
		size_t n = fread(buf, 1, size, f);
		r = (n == size && fgetc(f) != EOF) ? -ENOBUFS : (long)n;
	}
	seccomp_release(ctx);
	return r;
}
