/* SPDX-License-Identifier: MIT */
/*
 * The filter's rules: allow by default, refuse socket families other than
 * AF_UNIX (in the workspace's loopback-only network: AF_UNIX, AF_INET,
 * AF_INET6), connect(2) (there: socket(2) of AF_UNIX), io_uring, changes to other processes' limits and
 * scheduling, setuid/setgid modes, the keyrings and file leases. Written once with libseccomp; compiled
 * to BPF at build time (seccomp-gen), because building it at run time costs
 * about 80 us of the launcher's 500 us budget.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

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

/* SECCOMP_PART_LOOPBACK's socket rules; with unix_socket false, socket(2)
 * of AF_UNIX is refused too, and so is a datagram socketpair(2), whose
 * sendto(2) reaches any pathname datagram socket outside (/dev/log, the
 * journal: red team 51a, 6); a stream or seqpacket pair is connected to
 * its other end only. The domain is compared as the 64-bit register: a
 * value with high bits set is above AF_INET6, refused. */
static int add_loopback_rules(scmp_filter_ctx ctx, bool unix_socket)
{
	int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socketpair), 1,
	                         SCMP_A0(SCMP_CMP_NE, AF_UNIX));
	/* the type's low bits; SOCK_CLOEXEC and SOCK_NONBLOCK lie above */
	if (r >= 0 && !unix_socket)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socketpair), 1,
		                     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_DGRAM));
	if (r >= 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
		                     SCMP_A0(SCMP_CMP_GT, AF_INET6));
	for (int family = 0; r >= 0 && family < AF_INET6; family++) {
		if (family == AF_INET || (family == AF_UNIX && unix_socket))
			continue;
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
		                     SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)family));
	}
	return r;
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

/* The calls that change another process's resource limits, priority or
 * CPU placement take its pid; only the caller itself (0) is allowed, so a
 * command cannot lower the broker's descriptor limit (escaping its
 * timeout) or kill a process outside with RLIMIT_CPU. setpriority and
 * ioprio_set also take a process group or user: only PRIO_PROCESS /
 * IOPRIO_WHO_PROCESS with who 0 pass. */
#define IOPRIO_WHO_PROCESS 1
static int add_other_process_rules(scmp_filter_ctx ctx)
{
	static const int by_pid[] = { SCMP_SYS(prlimit64), SCMP_SYS(sched_setaffinity),
		                      SCMP_SYS(sched_setscheduler), SCMP_SYS(sched_setparam),
		                      SCMP_SYS(sched_setattr) };
	int r = 0;
	for (size_t i = 0; i < ELEMENTSOF(by_pid) && r >= 0; i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), by_pid[i], 1,
		                     SCMP_A0(SCMP_CMP_NE, 0));
	static const struct {
		int call;
		scmp_datum_t self;
	} by_who[] = { { SCMP_SYS(setpriority), PRIO_PROCESS },
		       { SCMP_SYS(ioprio_set), IOPRIO_WHO_PROCESS } };
	for (size_t i = 0; i < ELEMENTSOF(by_who) && r >= 0; i++) {
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), by_who[i].call, 1,
		                     SCMP_A0(SCMP_CMP_NE, by_who[i].self));
		if (r >= 0)
			r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), by_who[i].call, 1,
			                     SCMP_A1(SCMP_CMP_NE, 0));
	}
	return r;
}

/* fchmodat2 (Linux 6.6) is newer than these headers; its number is the
 * same on every architecture. */
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#define O_TMPFILE_BIT 020000000 /* O_TMPFILE without O_DIRECTORY */

/* No setuid or setgid file: as root (the owner of root's files even with
 * no capability) a command could otherwise make any root-owned program
 * setuid, outside the writable paths too (Landlock does not cover modes),
 * or leave a setuid-root program in the workspace. Refused in chmod's mode
 * and in the mode of a file being created (O_CREAT, O_TMPFILE, mknod);
 * openat2's mode is in a struct seccomp cannot read, so it is refused
 * whole (ENOSYS: callers fall back to openat). */
static int add_setid_rules(scmp_filter_ctx ctx)
{
	static const scmp_datum_t bits[] = { S_ISUID, S_ISGID };
	static const struct {
		int call;
		unsigned mode_arg;
	} modes[] = { { SCMP_SYS(chmod), 1 },  { SCMP_SYS(fchmod), 1 }, { SCMP_SYS(fchmodat), 2 },
		      { __NR_fchmodat2, 2 },   { SCMP_SYS(creat), 1 },  { SCMP_SYS(mknod), 1 },
		      { SCMP_SYS(mknodat), 2 } };
	static const struct {
		int call;
		unsigned flags_arg;
	} opens[] = { { SCMP_SYS(open), 1 }, { SCMP_SYS(openat), 2 } };
	static const scmp_datum_t creating[] = { O_CREAT, O_TMPFILE_BIT };
	int r = 0;
	for (size_t b = 0; b < ELEMENTSOF(bits) && r >= 0; b++) {
		for (size_t i = 0; i < ELEMENTSOF(modes) && r >= 0; i++) {
			struct scmp_arg_cmp mode = { modes[i].mode_arg, SCMP_CMP_MASKED_EQ, bits[b],
				                     bits[b] };
			r = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), modes[i].call, 1,
			                           &mode);
		}
		for (size_t i = 0; i < ELEMENTSOF(opens) && r >= 0; i++)
			for (size_t c = 0; c < ELEMENTSOF(creating) && r >= 0; c++) {
				unsigned fa = opens[i].flags_arg;
				struct scmp_arg_cmp cmp[] = {
					{ fa, SCMP_CMP_MASKED_EQ, creating[c], creating[c] },
					{ fa + 1, SCMP_CMP_MASKED_EQ, bits[b], bits[b] },
				};
				r = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM),
				                           opens[i].call, 2, cmp);
			}
	}
	if (r >= 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
	return r;
}

/* The keyrings are the user's, not the sandbox's: a command could read or
 * plant a key another program of the user's trusts (the user and session
 * keyrings outlive the run). A lease on a file it may only read would stall
 * every other program that opens the file for writing for up to
 * lease-break-time. Neither is part of an agent's daily work. */
static int add_keyring_lease_rules(scmp_filter_ctx ctx)
{
	static const int calls[] = { SCMP_SYS(add_key), SCMP_SYS(keyctl), SCMP_SYS(request_key) };
	int r = 0;
	for (size_t i = 0; i < ELEMENTSOF(calls) && r >= 0; i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), calls[i], 0);
	/* The kernel reads fcntl's cmd as 32 bits: the comparison must too, or
	 * a high bit set in the register would pass the filter and still be
	 * F_SETLEASE to the kernel. */
	if (r >= 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fcntl), 1,
		                     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, F_SETLEASE));
	return r;
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
	/* The calls as a binary tree, not a list: the kernel runs the filter
	 * once per system call number when it is installed (to cache the calls
	 * it always allows), and a list is walked to its end for every call
	 * without a rule. 125 instructions installed in 143 us as a list,
	 * 132 in 99 us as a tree (median of 301 seccomp(2) calls). */
	if (r >= 0)
		r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if (r >= 0 && (parts & SECCOMP_PART_LOOPBACK))
		r = add_loopback_rules(ctx, !(parts & SECCOMP_PART_CONNECT));
	else if (r >= 0 && (parts & SECCOMP_PART_SOCKETS))
		r = add_socket_rules(ctx);
	if (r >= 0 && (parts & SECCOMP_PART_CONNECT) && !(parts & SECCOMP_PART_LOOPBACK))
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(connect), 0);
	if (r >= 0 && (parts & SECCOMP_PART_IO_URING))
		r = add_io_uring_rules(ctx);
	if (r >= 0 && (parts & SECCOMP_PART_OTHER_PROCESSES))
		r = add_other_process_rules(ctx);
	if (r >= 0 && (parts & SECCOMP_PART_SETID_MODES))
		r = add_setid_rules(ctx);
	if (r >= 0 && (parts & SECCOMP_PART_KEYRINGS_LEASES))
		r = add_keyring_lease_rules(ctx);
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
