/* SPDX-License-Identifier: MIT */
/*
 * unshare(CLONE_NEWNET), then the loopback's IFF_UP by ioctl: the one
 * device a new network namespace has, and it starts down. No netlink
 * message and no `ip` program: SIOCSIFFLAGS on a datagram socket is one
 * call, and the socket is made before seccomp, which would refuse it.
 */
#include "config.h"

#include <net/if.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cleanup.h"
#include "net-namespace.h"

int net_namespace_enter(bool *ret_entered, struct sluice_error *err)
{
	*ret_entered = false;
	if (unshare(CLONE_NEWNET) < 0)
		return sluice_error_set(err, neg_errno(), "unshare(CLONE_NEWNET)");
	*ret_entered = true;
	/* AF_UNIX would do for the ioctl on a kernel with inet; AF_INET is
	 * what every kernel with a loopback device answers it on. */
	_cleanup_close_ int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sluice_error_set(err, neg_errno(), "a socket for the loopback's flags");
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, "lo", sizeof(ifr.ifr_name) - 1);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return sluice_error_set(err, neg_errno(), "reading the flags of 'lo'");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		return sluice_error_set(err, neg_errno(), "bringing 'lo' up");
	return 0;
}
