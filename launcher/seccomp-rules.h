/* SPDX-License-Identifier: MIT */
/*
 * The seccomp rules, written with libseccomp. Used at build time by
 * seccomp-gen (which compiles them to BPF for seccomp-programs.h) and by the
 * unit test that checks the generated programs are current.
 * Not for: the launcher at run time, which loads the generated programs
 * (and includes this header for enum seccomp_part only, without libseccomp).
 */
#ifndef SLUICE_LAUNCHER_SECCOMP_RULES_H
#define SLUICE_LAUNCHER_SECCOMP_RULES_H

#include <stdint.h>

/* The independent parts of the filter; a program exists for every
 * combination (index = the OR of these bits). */
enum seccomp_part {
	SECCOMP_PART_SOCKETS = 1u << 0,  /* socket/socketpair: only AF_UNIX (EACCES) */
	SECCOMP_PART_CONNECT = 1u << 1,  /* connect: refused (EACCES) */
	SECCOMP_PART_IO_URING = 1u << 2, /* io_uring_*: ENOSYS */
	/* prlimit, setpriority, ioprio_set and sched_set* on any process but
	 * the caller: EPERM (Landlock has no hook for these) */
	SECCOMP_PART_OTHER_PROCESSES = 1u << 3,
	/* a setuid or setgid bit set by chmod or given at creation: EPERM;
	 * openat2 (its mode is out of reach): ENOSYS */
	SECCOMP_PART_SETID_MODES = 1u << 4,
	/* the kernel's keyrings (add_key, keyctl, request_key), which the
	 * user's other programs share, and file leases (fcntl F_SETLEASE),
	 * with which a command could stall other programs opening a file it
	 * may only read: EPERM */
	SECCOMP_PART_KEYRINGS_LEASES = 1u << 5,
	/* In a network namespace of the loopback only (the workspace's): in
	 * place of SOCKETS, socket: only AF_UNIX, AF_INET and AF_INET6;
	 * socketpair: only AF_UNIX (EACCES). connect(2) must then pass (to the
	 * loopback), so with it CONNECT refuses socket(AF_UNIX) instead: a
	 * unix socket to connect with is never had (socketpair's come
	 * connected). */
	SECCOMP_PART_LOOPBACK = 1u << 6,
	SECCOMP_PART_ALL = (1u << 7) - 1,
};

/* The filter for parts as classic BPF, written into buf (at most size
 * instructions' worth of bytes); returns the byte count or -errno. */
long seccomp_rules_export(uint32_t parts, void *buf, unsigned long size);

#endif
