/* SPDX-License-Identifier: MIT */
/*
 * Step "seccomp": what Landlock cannot say about the network and io_uring.
 * Not for: filesystem rules (landlock.c).
 */
#ifndef SLUICE_LAUNCHER_SECCOMP_FILTER_H
#define SLUICE_LAUNCHER_SECCOMP_FILTER_H

#include <stdint.h>

#include "errors.h"

struct launch_spec;
struct launch_state;

/* Load one filter, for the bits state->planned asks for:
 * PROT_SECCOMP_SOCKETS: socket(2) and socketpair(2) for any family but
 *   AF_UNIX fail with EACCES (IP of every kind: UDP, raw, ICMP, SCTP,
 *   MPTCP; packet, netlink, vsock, and every other family);
 * PROT_SECCOMP_UNIX_CONNECT: connect(2) fails with EACCES (only unix
 *   sockets can exist, and a filter cannot read the path, so every connect
 *   is refused: the daemons listening outside stay out of reach);
 * PROT_SECCOMP_IO_URING: io_uring_setup/enter/register fail with ENOSYS, as
 *   on a kernel without io_uring, so callers fall back to plain syscalls.
 * Other architectures' system calls (32-bit x86 on x86-64) kill the
 * process. In a network namespace of the loopback only (the workspace's,
 * or the run's own with an egress proxy) TCP and UDP pass, and unix sockets
 * are refused instead (SECCOMP_PART_LOOPBACK). Sets the bits it enforced. */
int apply_seccomp(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err);

/* The parts (enum seccomp_part's bits) of the PROT_SECCOMP_* bits in
 * planned, without SECCOMP_PART_LOOPBACK (which depends on the network
 * the process is in). */
uint32_t seccomp_parts_for_plan(uint32_t planned);

/* Load the ready program for parts (enum seccomp_part's bits, OR'ed), as
 * apply_seccomp() does; for a process of the launcher's own (the egress
 * proxy). Needs no_new_privs. 0, or -errno with a detail. */
int seccomp_load_parts(uint32_t parts, struct sluice_error *err);

#endif
