/* SPDX-License-Identifier: MIT */
/*
 * Step "seccomp": loads the BPF program that seccomp-gen compiled at build
 * time from seccomp-rules.c (libseccomp), for the parts the plan asks for.
 * Loading a ready program costs the kernel's check and JIT only.
 */
#include "config.h"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "options.h"
#include "protections.h"
#include "seccomp-filter.h"
#include "seccomp-programs.h"
#include "seccomp-rules.h"

/* parts below is at most SECCOMP_PART_ALL, so it always indexes a program. */
_Static_assert(ELEMENTSOF(seccomp_programs) == SECCOMP_PART_ALL + 1,
               "seccomp-programs.h has one program per combination of parts");

uint32_t seccomp_parts_for_plan(uint32_t planned)
{
	uint32_t parts = 0;
	if (planned & PROT_SECCOMP_SOCKETS)
		parts |= SECCOMP_PART_SOCKETS;
	if (planned & PROT_SECCOMP_UNIX_CONNECT)
		parts |= SECCOMP_PART_CONNECT;
	if (planned & PROT_SECCOMP_IO_URING)
		parts |= SECCOMP_PART_IO_URING;
	if (planned & PROT_SECCOMP_OTHER_PROCESSES)
		parts |= SECCOMP_PART_OTHER_PROCESSES;
	if (planned & PROT_SECCOMP_SETID_MODES)
		parts |= SECCOMP_PART_SETID_MODES;
	if (planned & PROT_SECCOMP_KEYRINGS_LEASES)
		parts |= SECCOMP_PART_KEYRINGS_LEASES;
	return parts;
}

int apply_seccomp(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err)
{
	(void)spec;
	uint32_t planned = state->planned & PROT_SECCOMP_ANY;
	if (planned == 0)
		return 0;
	uint32_t parts = seccomp_parts_for_plan(planned);
	/* the workspace's network has nothing but its loopback: TCP and UDP
	 * there are the point of it */
	if ((planned & PROT_SECCOMP_SOCKETS) && (state->enforced & PROT_WORKSPACE_NETWORK))
		parts |= SECCOMP_PART_LOOPBACK;
	/* in a network namespace of the run's own whose only way out is the
	 * egress proxy, on its loopback: the same */
	if ((planned & PROT_SECCOMP_SOCKETS) && state->egress_proxy.port != 0)
		parts |= SECCOMP_PART_LOOPBACK;
	int r = seccomp_load_parts(parts, err);
	if (r < 0)
		return r;
	state->enforced |= planned;
	return 0;
}

int seccomp_load_parts(uint32_t parts, struct sluice_error *err)
{
	if (parts > SECCOMP_PART_ALL)
		return sluice_error_set(err, -EINVAL, "no filter has the parts 0x%x", parts);
	/* no_new_privs is already set, so loading needs no privilege. */
	struct sock_fprog prog = seccomp_programs[parts];
	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return sluice_error_set(err, neg_errno(), "loading the filter");
	return 0;
}
