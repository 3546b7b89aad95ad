/* SPDX-License-Identifier: MIT */
/*
 * The escape suite's probe: one attempt per invocation, then the outcome on
 * stdout as one line, "OK" or the errno's name ("EACCES"), sometimes with a
 * word naming the call that failed. Also the suite's listeners ("serve").
 * Built without sanitizers, so it can run under a small RLIMIT_AS.
 * Not for: asserting anything; tests/integration/launch-*.sh do that.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif

/* Print the outcome: 0 -> "OK", else the errno's name, then what failed. */
static int outcome(int err, const char *what)
{
	if (err == 0)
		printf("OK\n");
	else if (what)
		printf("%s %s\n", strerrorname_np(err), what);
	else
		printf("%s\n", strerrorname_np(err));
	return 0;
}

static int result(int rc)
{
	return outcome(rc < 0 ? errno : 0, NULL);
}

static int do_create(char **a)
{
	return result(open(a[0], O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644));
}

static int do_write(char **a)
{
	return result(open(a[0], O_WRONLY | O_CLOEXEC));
}

static int do_truncate(char **a)
{
	return result(truncate(a[0], 0));
}

static int do_unlink(char **a)
{
	return result(unlink(a[0]));
}

static int do_rename(char **a)
{
	return result(rename(a[0], a[1]));
}

static int do_link(char **a)
{
	return result(link(a[0], a[1]));
}

static int do_symlink(char **a)
{
	return result(symlink(a[0], a[1]));
}

static int do_mkdir(char **a)
{
	return result(mkdir(a[0], 0755));
}

static int do_mkfifo(char **a)
{
	return result(mknod(a[0], S_IFIFO | 0644, 0));
}

/* Open read-only, then reopen the same file for writing through
 * /proc/self/fd (a known way around path-based checks). */
static int do_reopen(char **a)
{
	int fd = open(a[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return outcome(errno, "open");
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return outcome(open(path, O_WRONLY | O_CLOEXEC) < 0 ? errno : 0, NULL);
}

static struct sockaddr_in loopback(const char *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
		                   .sin_port = htons((uint16_t)atoi(port)),
		                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	return sin;
}

/* socket(family, type, proto), then connect to 127.0.0.1:port if given. */
static int socket_connect(int family, int type, int proto, const char *port)
{
	int fd = socket(family, type | SOCK_CLOEXEC, proto);
	if (fd < 0)
		return outcome(errno, "socket");
	if (!port)
		return outcome(0, NULL);
	struct sockaddr_in sin = loopback(port);
	return outcome(connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ? errno : 0,
	               "connect");
}

static int do_tcp_connect(char **a)
{
	return socket_connect(AF_INET, SOCK_STREAM, 0, a[0]);
}

static int do_tcp6_socket(char **a)
{
	(void)a;
	return socket_connect(AF_INET6, SOCK_STREAM, 0, NULL);
}

static int do_mptcp_connect(char **a)
{
	return socket_connect(AF_INET, SOCK_STREAM, IPPROTO_MPTCP, a[0]);
}

static int do_tcp_bind(char **a)
{
	(void)a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return outcome(errno, "socket");
	struct sockaddr_in sin = loopback("0");
	return outcome(bind(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ? errno : 0, "bind");
}

static int do_udp_send(char **a)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return outcome(errno, "socket");
	struct sockaddr_in sin = loopback(a[0]);
	ssize_t n = sendto(fd, "x", 1, 0, (struct sockaddr *)&sin, sizeof(sin));
	return outcome(n < 0 ? errno : 0, "sendto");
}

static int do_raw_socket(char **a)
{
	(void)a;
	return socket_connect(AF_INET, SOCK_RAW, IPPROTO_ICMP, NULL);
}

static int do_packet_socket(char **a)
{
	(void)a;
	return socket_connect(AF_PACKET, SOCK_RAW, 0, NULL);
}

static int do_netlink_socket(char **a)
{
	(void)a;
	return socket_connect(AF_NETLINK, SOCK_RAW, 0 /* NETLINK_ROUTE */, NULL);
}

static int do_vsock_socket(char **a)
{
	(void)a;
	return socket_connect(AF_VSOCK, SOCK_STREAM, 0, NULL);
}

/* Connect to a unix socket: "@name" is abstract, anything else a path. */
static int do_unix_connect(char **a)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return outcome(errno, "socket");
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	size_t len = strlen(a[0]);
	if (len >= sizeof(sun.sun_path))
		return outcome(ENAMETOOLONG, NULL);
	memcpy(sun.sun_path, a[0], len);
	if (a[0][0] == '@')
		sun.sun_path[0] = '\0';
	socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len +
	                             (a[0][0] == '@' ? 0 : 1));
	return outcome(connect(fd, (struct sockaddr *)&sun, size) < 0 ? errno : 0, "connect");
}

static int do_io_uring(char **a)
{
	(void)a;
	struct io_uring_params p = { 0 };
	return result((int)syscall(__NR_io_uring_setup, 1, &p));
}

static int do_kill(char **a)
{
	return result(kill(atoi(a[0]), atoi(a[1])));
}

/* Set another process's limit, priority or CPU placement to what it is
 * (no change, so the positive control harms nothing). */
static int do_prlimit(char **a)
{
	struct rlimit old;
	pid_t pid = atoi(a[0]);
	if (prlimit(pid, RLIMIT_NOFILE, NULL, &old) < 0)
		return outcome(errno, "get");
	return result(prlimit(pid, RLIMIT_NOFILE, &old, NULL));
}

static int do_setpriority(char **a)
{
	id_t pid = (id_t)atoi(a[0]);
	errno = 0;
	int nice = getpriority(PRIO_PROCESS, pid);
	if (nice == -1 && errno)
		return outcome(errno, "get");
	return result(setpriority(PRIO_PROCESS, pid, nice));
}

static int do_setaffinity(char **a)
{
	cpu_set_t set;
	pid_t pid = atoi(a[0]);
	if (sched_getaffinity(pid, sizeof(set), &set) < 0)
		return outcome(errno, "get");
	return result(sched_setaffinity(pid, sizeof(set), &set));
}

/* Hop: fork, the parent exits, the child starts a session of its own, again
 * and again for a[0] seconds (a[1] only marks the processes for pgrep),
 * then waits. Each process lives microseconds: a scan of /proc misses it. */
static int do_hop(char **a)
{
	(void)signal(SIGTERM, SIG_IGN);
	time_t end = time(NULL) + atoi(a[0]);
	for (;;) {
		pid_t pid = fork();
		if (pid > 0)
			_exit(0);
		if (pid == 0)
			(void)setsid();
		if (time(NULL) >= end)
			for (;;)
				pause();
	}
}

static int do_chmod_setuid(char **a)
{
	return result(chmod(a[0], 04755));
}

static int do_create_setuid(char **a)
{
	return result(open(a[0], O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 04755));
}

static int do_ptrace(char **a)
{
	pid_t pid = atoi(a[0]);
	if (ptrace(PTRACE_ATTACH, pid, 0, 0) < 0)
		return outcome(errno, NULL);
	(void)waitpid(pid, NULL, __WALL);
	(void)ptrace(PTRACE_DETACH, pid, 0, 0);
	return outcome(0, NULL);
}

static int do_environ(char **a)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/environ", atoi(a[0]));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return outcome(errno, "open");
	char buf[16];
	return outcome(read(fd, buf, sizeof(buf)) < 0 ? errno : 0, "read");
}

/* A new user namespace (as `unshare -Ur` makes), then a create. */
static int do_unshare_create(char **a)
{
	if (unshare(CLONE_NEWUSER) < 0)
		return outcome(errno, "unshare");
	return outcome(open(a[0], O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644) < 0 ? errno : 0,
	               "create");
}

/* Create a POSIX message queue (a[0] = "/name"). The kernel creates it
 * before checking the access asked for, so only a private IPC namespace
 * keeps it from outliving the run. */
static int do_mq_create(char **a)
{
	mqd_t q = mq_open(a[0], O_CREAT | O_RDWR | O_CLOEXEC, 0600, NULL);
	if (q == (mqd_t)-1)
		return result(-1);
	mq_close(q);
	return outcome(0, NULL);
}

static int do_mq_unlink(char **a)
{
	return result(mq_unlink(a[0]));
}

/* The user's keyrings, shared with every program of the user's: add a key
 * to the session keyring, then take it out again. */
#define KEY_SPEC_SESSION_KEYRING_ -3
#define KEYCTL_UNLINK_ 9
static int do_keyring(char **a)
{
	(void)a;
	long key = syscall(SYS_add_key, "user", "sluice-probe", "x", 1, KEY_SPEC_SESSION_KEYRING_);
	if (key < 0)
		return outcome(errno, "add_key");
	(void)syscall(SYS_keyctl, KEYCTL_UNLINK_, key, KEY_SPEC_SESSION_KEYRING_);
	return outcome(0, NULL);
}

/* A read lease on a file opened for reading: the lease holder is told, and
 * every program that opens the file for writing waits, up to
 * lease-break-time. "lease-high" passes the command with a high bit set in
 * the register: the kernel reads 32 bits of it, a filter must too. */
static int take_lease(const char *path, unsigned long cmd)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return outcome(errno, "open");
	int r = (int)syscall(SYS_fcntl, fd, cmd, F_RDLCK);
	int err = r < 0 ? errno : 0;
	if (r == 0)
		(void)fcntl(fd, F_SETLEASE, F_UNLCK);
	close(fd);
	return outcome(err, NULL);
}

static int do_lease(char **a)
{
	return take_lease(a[0], F_SETLEASE);
}

static int do_lease_high(char **a)
{
	return take_lease(a[0], (1ul << 32) | F_SETLEASE);
}

/* Metadata Landlock has no right for: mode, times, a user xattr, a
 * POSIX ACL granting another user, an inode flag (chattr +A) set through
 * a read-only descriptor. */
static int do_chmod(char **a)
{
	return result(chmod(a[0], 0666));
}

static int do_utime(char **a)
{
	struct timespec t[2] = { { 978307200, 0 }, { 978307200, 0 } };
	return result(utimensat(AT_FDCWD, a[0], t, 0));
}

static int do_xattr(char **a)
{
	return result(setxattr(a[0], "user.sluice-probe", "x", 1, 0));
}

static int do_acl(char **a)
{
	/* the kernel's little-endian ACL format: user::rw-, user:65534:rw-,
	 * group::r--, mask::rw-, other::--- */
	struct {
		uint32_t version;
		struct {
			uint16_t tag, perm;
			uint32_t id;
		} e[5];
	} acl = { 2,
		  { { 0x01, 6, ~0u },
		    { 0x02, 6, 65534 },
		    { 0x04, 4, ~0u },
		    { 0x10, 6, ~0u },
		    { 0x20, 0, ~0u } } };
	return result(setxattr(a[0], "system.posix_acl_access", &acl, sizeof(acl), 0));
}

static int do_chattr(char **a)
{
	int fd = open(a[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return outcome(errno, "open");
	int flags = 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		return outcome(errno, "get");
	flags |= FS_NOATIME_FL;
	return outcome(ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0 ? errno : 0, NULL);
}

/* The effective uid and the no_new_privs flag: "euid N nnp N". */
static int do_ids(char **a)
{
	(void)a;
	printf("euid %u nnp %d\n", (unsigned)geteuid(), prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	return 0;
}

/* The open descriptors: "fds N N ...". */
static int do_fds(char **a)
{
	(void)a;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return outcome(errno, "opendir");
	int self = dirfd(d);
	printf("fds");
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.' || atoi(de->d_name) == self)
			continue;
		printf(" %s", de->d_name);
	}
	printf("\n");
	return 0;
}

static int do_tty(char **a)
{
	(void)a;
	return result(open("/dev/tty", O_RDWR | O_CLOEXEC));
}

/* Push a character into the terminal on fd 1 (TIOCSTI). */
static int do_tiocsti(char **a)
{
	(void)a;
	char c = ' ';
	if (!isatty(STDOUT_FILENO))
		return outcome(ENOTTY, "isatty");
	int r = ioctl(STDOUT_FILENO, TIOCSTI, &c);
	/* stdout is the terminal; say it on stderr */
	fprintf(stderr, "%s\n", r < 0 ? strerrorname_np(errno) : "OK");
	return 0;
}

/* A device ioctl: TCGETS on a device that is not a terminal. Without
 * Landlock, ENOTTY; with its IOCTL_DEV right handled, EACCES. */
static int do_ioctl_dev(char **a)
{
	int fd = open(a[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return outcome(errno, "open");
	struct termios t;
	return result(ioctl(fd, TCGETS, &t));
}

/* Fork up to N children that wait; print the first fork error or OK. */
static int do_forkbomb(char **a)
{
	int n = atoi(a[0]), err = 0;
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return outcome(errno, "pipe");
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			err = errno;
			break;
		}
		if (pid == 0) {
			char c;
			(void)close(p[1]);
			(void)read(p[0], &c, 1); /* until the parent closes */
			_exit(0);
		}
	}
	(void)close(p[1]);
	while (wait(NULL) > 0)
		;
	return outcome(err, "fork");
}

/* Allocate and touch N MiB; ENOMEM when the address space runs out. */
static int do_membomb(char **a)
{
	int n = atoi(a[0]);
	for (int i = 0; i < n; i++) {
		char *m = malloc(1 << 20);
		if (!m)
			return outcome(ENOMEM, "malloc");
		memset(m, 1, 1 << 20);
	}
	return outcome(0, NULL);
}

/* Write N KiB to a new file; EFBIG past RLIMIT_FSIZE. */
static int do_bigfile(char **a)
{
	signal(SIGXFSZ, SIG_IGN);
	int fd = open(a[0], O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return outcome(errno, "open");
	char buf[1024];
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < atoi(a[1]); i++)
		if (write(fd, buf, sizeof(buf)) < 0)
			return outcome(errno, "write");
	return outcome(0, NULL);
}

/* Listeners for the suite: TCP and UDP on 127.0.0.1, an abstract and a
 * pathname unix socket; prints "PID TCPPORT UDPPORT" once all listen, then
 * accepts until stdin reaches end of file. */
static int do_serve(char **a)
{
	int tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int abst = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int path = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sin = loopback("0");
	socklen_t len = sizeof(sin);
	if (tcp < 0 || udp < 0 || abst < 0 || path < 0 ||
	    bind(tcp, (struct sockaddr *)&sin, sizeof(sin)) < 0 || listen(tcp, 64) < 0 ||
	    bind(udp, (struct sockaddr *)&sin, sizeof(sin)) < 0)
		return outcome(errno, "listen");
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	snprintf(sun.sun_path + 1, sizeof(sun.sun_path) - 1, "%s", a[0]);
	if (bind(abst, (struct sockaddr *)&sun,
	         (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(a[0]))) < 0 ||
	    listen(abst, 64) < 0)
		return outcome(errno, "abstract");
	memset(sun.sun_path, 0, sizeof(sun.sun_path));
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", a[1]);
	if (bind(path, (struct sockaddr *)&sun, sizeof(sun)) < 0 || listen(path, 64) < 0)
		return outcome(errno, "pathname");
	int tcp_port, udp_port;
	if (getsockname(tcp, (struct sockaddr *)&sin, &len) < 0)
		return outcome(errno, "getsockname");
	tcp_port = ntohs(sin.sin_port);
	len = sizeof(sin);
	if (getsockname(udp, (struct sockaddr *)&sin, &len) < 0)
		return outcome(errno, "getsockname");
	udp_port = ntohs(sin.sin_port);
	printf("%d %d %d\n", (int)getpid(), tcp_port, udp_port);
	fflush(stdout);
	struct pollfd fds[] = { { STDIN_FILENO, POLLIN, 0 },
		                { tcp, POLLIN, 0 },
		                { udp, POLLIN, 0 },
		                { abst, POLLIN, 0 },
		                { path, POLLIN, 0 } };
	for (;;) {
		if (poll(fds, 5, -1) < 0 && errno != EINTR)
			return 1;
		if (fds[0].revents) {
			char c;
			if (read(STDIN_FILENO, &c, 1) <= 0)
				return 0;
		}
		for (int i = 1; i < 5; i++) {
			if (!fds[i].revents)
				continue;
			if (i == 2) {
				char buf[64];
				(void)recv(udp, buf, sizeof(buf), MSG_DONTWAIT);
			} else {
				int c = accept4(fds[i].fd, NULL, NULL, SOCK_CLOEXEC);
				if (c >= 0)
					(void)close(c);
			}
		}
	}
}

struct probe_cmd {
	const char *name;
	int nargs;
	int (*run)(char **args);
};

static const struct probe_cmd cmds[] = {
	{ "create", 1, do_create },
	{ "write", 1, do_write },
	{ "truncate", 1, do_truncate },
	{ "unlink", 1, do_unlink },
	{ "rename", 2, do_rename },
	{ "link", 2, do_link },
	{ "symlink", 2, do_symlink },
	{ "mkdir", 1, do_mkdir },
	{ "mkfifo", 1, do_mkfifo },
	{ "reopen-write", 1, do_reopen },
	{ "tcp-connect", 1, do_tcp_connect },
	{ "tcp6-socket", 0, do_tcp6_socket },
	{ "mptcp-connect", 1, do_mptcp_connect },
	{ "tcp-bind", 0, do_tcp_bind },
	{ "udp-send", 1, do_udp_send },
	{ "raw-socket", 0, do_raw_socket },
	{ "packet-socket", 0, do_packet_socket },
	{ "netlink-socket", 0, do_netlink_socket },
	{ "vsock-socket", 0, do_vsock_socket },
	{ "unix-connect", 1, do_unix_connect },
	{ "io-uring", 0, do_io_uring },
	{ "kill", 2, do_kill },
	{ "ptrace", 1, do_ptrace },
	{ "prlimit", 1, do_prlimit },
	{ "setpriority", 1, do_setpriority },
	{ "setaffinity", 1, do_setaffinity },
	{ "chmod-setuid", 1, do_chmod_setuid },
	{ "hop", 2, do_hop },
	{ "create-setuid", 1, do_create_setuid },
	{ "environ", 1, do_environ },
	{ "unshare-create", 1, do_unshare_create },
	{ "ids", 0, do_ids },
	{ "mq-create", 1, do_mq_create },
	{ "mq-unlink", 1, do_mq_unlink },
	{ "keyring", 0, do_keyring },
	{ "lease", 1, do_lease },
	{ "lease-high", 1, do_lease_high },
	{ "chmod", 1, do_chmod },
	{ "utime", 1, do_utime },
	{ "xattr", 1, do_xattr },
	{ "acl", 1, do_acl },
	{ "chattr", 1, do_chattr },
	{ "fds", 0, do_fds },
	{ "tty", 0, do_tty },
	{ "tiocsti", 0, do_tiocsti },
	{ "ioctl-dev", 1, do_ioctl_dev },
	{ "forkbomb", 1, do_forkbomb },
	{ "membomb", 1, do_membomb },
	{ "bigfile", 2, do_bigfile },
	{ "serve", 2, do_serve },
};

int main(int argc, char **argv)
{
	if (argc >= 2)
		for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
			if (strcmp(argv[1], cmds[i].name) == 0 && argc - 2 == cmds[i].nargs)
				return cmds[i].run(argv + 2);
	fprintf(stderr, "usage: probe COMMAND ARGS (see tests/launcher/probe.c)\n");
	return 2;
}
