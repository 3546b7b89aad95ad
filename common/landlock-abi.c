/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <linux/landlock.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock-abi.h"

int landlock_abi_version(void)
{
	long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	return abi < 0 ? 0 : (int)abi;
}
