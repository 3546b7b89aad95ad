/* SPDX-License-Identifier: MIT */
/*
 * common/fd-passing.c: descriptors handed over a Unix socket arrive as sent;
 * a message that is not the one asked for is refused, and nothing it
 * carried stays open in the receiver (a holder or proxy that answers with
 * more cannot plant descriptors).
 * Not for: the holder's or the proxy's protocol (sandbox-loopback.sh,
 * sandbox-egress.sh).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fd-passing.h"

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	cr_assert_not_null(d);
	int n = 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

Test(fd_passing, descriptors_arrive_as_sent)
{
	int sv[2];
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	int a = open("/dev/null", O_RDONLY | O_CLOEXEC), b = open("/", O_RDONLY | O_CLOEXEC);
	int sent[2] = { a, b };
	cr_assert_eq(fds_send(sv[0], 'N', sent, 2), 0);
	char byte = 0;
	int got[2] = { -1, -1 };
	cr_assert_eq(fds_receive(sv[1], &byte, got, 2), 0);
	cr_assert_eq(byte, 'N');
	struct stat s1, s2;
	cr_assert_eq(fstat(got[1], &s1), 0);
	cr_assert_eq(stat("/", &s2), 0);
	cr_assert(s1.st_ino == s2.st_ino && s1.st_dev == s2.st_dev, "the second is '/'");
	cr_assert(fcntl(got[0], F_GETFD) & FD_CLOEXEC, "received close-on-exec");
	close(got[0]), close(got[1]), close(a), close(b), close(sv[0]), close(sv[1]);
}

Test(fd_passing, another_count_is_refused_and_closed)
{
	int sv[2];
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	int a = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int three[3] = { a, a, a };
	int before = open_fds();
	cr_assert_eq(fds_send(sv[0], 'N', three, 3), 0);
	char byte = 0;
	int got[2] = { -1, -1 };
	cr_assert_eq(fds_receive(sv[1], &byte, got, 2), -EPROTO);
	cr_assert_eq(open_fds(), before, "the three that came were closed");
	/* a byte with no descriptor at all */
	cr_assert_eq(write(sv[0], "N", 1), 1);
	cr_assert_eq(fds_receive(sv[1], &byte, got, 2), -EPROTO);
	/* the peer gone */
	close(sv[0]);
	cr_assert_eq(fds_receive(sv[1], &byte, got, 2), -EPROTO);
	close(a), close(sv[1]);
}
