/* SPDX-License-Identifier: MIT */
/*
 * launcher steps called in-process: rlimits, privileges, and, in a forked
 * child checked by its exit status, Landlock alone and seccomp alone, so
 * that each layer is shown to hold without the other. Also checks that the
 * seccomp programs compiled at build time match the rules as libseccomp
 * compiles them now.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "egress-proxy.h"
#include "landlock.h"
#include "options.h"
#include "privileges.h"
#include "protections.h"
#include "rlimits.h"
#include "seccomp-filter.h"
#include "seccomp-programs.h"
#include "seccomp-rules.h"

static struct launch_spec spec_for(const char *const *args)
{
	static char *argv[16];
	int argc = 0;
	argv[argc++] = (char *)"sluice-launch";
	for (; *args; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	struct launch_spec spec;
	struct sluice_error err = { 0 };
	cr_assert_eq(options_parse(argc, argv, &spec, &err), 0, "%s", err.detail);
	return spec;
}

Test(launcher_steps, rlimits_set_soft_and_hard_and_core_zero)
{
	const char *args[] = { "--rlimit", "nofile=64", "--rlimit", "as=1TiB", "true", NULL };
	struct launch_spec spec = spec_for(args);
	struct launch_state state = { 0 };
	cr_assert_eq(apply_rlimits(&spec, &state, NULL), 0);
	struct rlimit rl;
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	cr_assert_eq(rl.rlim_cur, 64);
	cr_assert_eq(rl.rlim_max, 64, "the program must not raise it again");
	cr_assert_eq(getrlimit(RLIMIT_CORE, &rl), 0);
	cr_assert_eq(rl.rlim_max, 0);
}

Test(launcher_steps, privileges_leave_no_capability_and_set_no_new_privs)
{
	const char *args[] = { "true", NULL };
	struct launch_spec spec = spec_for(args);
	struct launch_state state = { 0 };
	struct sluice_error err = { 0 };
	cr_assert_eq(apply_privileges(&spec, &state, &err), 0, "%s", err.detail);
	cr_assert_eq(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 1);
	cr_assert(state.enforced & PROT_NO_CAPS);
	if (getuid() == 0)
		cr_assert_eq(prctl(PR_CAPBSET_READ, 0, 0, 0, 0), 0,
		             "root's bounding set is emptied");
	else
		cr_assert_eq(prctl(PR_CAPBSET_READ, 0, 0, 0, 0), 1,
		             "an ordinary user's bounding set cannot be touched, and need not be");
}

Test(launcher_steps, user_switch_needs_root)
{
	const char *args[] = { "--user", "root", "true", NULL };
	struct launch_spec spec = spec_for(args);
	struct launch_state state = { 0 };
	struct sluice_error err = { 0 };
	int r = apply_privileges(&spec, &state, &err);
	if (getuid() == 0)
		cr_assert_eq(r, 0, "root may 'switch' to root: %s", err.detail);
	else
		cr_assert_eq(r, -EPERM, "%s", err.detail);
}

/* A loopback TCP listener; returns its port. */
static int listener(int *ret_port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sin = { .sin_family = AF_INET,
		                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sin);
	cr_assert_geq(fd, 0);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	cr_assert_eq(listen(fd, 8), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	*ret_port = ntohs(sin.sin_port);
	return fd;
}

/* In a child: apply only the step, then connect; exit with the errno. */
static int connect_after(int (*step)(const struct launch_spec *, struct launch_state *,
                                     struct sluice_error *),
                         uint32_t planned, int port)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		const char *args[] = { "true", NULL };
		struct launch_spec spec = spec_for(args);
		struct launch_state state = { .landlock_abi = landlock_abi_version(),
			                      .planned = planned };
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || step(&spec, &state, NULL) < 0)
			_exit(100);
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			_exit(errno == EACCES ? 101 : 102);
		struct sockaddr_in sin = { .sin_family = AF_INET,
			                   .sin_port = htons((uint16_t)port),
			                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		_exit(connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ? errno : 0);
	}
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

Test(launcher_steps, landlock_alone_refuses_tcp_connect, .timeout = 20)
{
	int abi = landlock_abi_version();
	if (abi < 4)
		cr_skip_test("Landlock ABI %d < 4: no TCP rules", abi);
	int port;
	int fd = listener(&port);
	cr_assert_eq(connect_after(apply_landlock, 0, port), 0, "positive control");
	cr_assert_eq(connect_after(apply_landlock, PROT_LANDLOCK_FS | PROT_LANDLOCK_TCP, port),
	             EACCES, "socket(2) allowed, connect(2) refused by Landlock alone");
	close(fd);
}

Test(launcher_steps, seccomp_alone_refuses_ip_sockets, .timeout = 20)
{
	int port;
	int fd = listener(&port);
	cr_assert_eq(connect_after(apply_seccomp, PROT_SECCOMP_IO_URING, port), 0,
	             "positive control: io_uring alone leaves sockets");
	cr_assert_eq(connect_after(apply_seccomp, PROT_SECCOMP_SOCKETS, port), 101,
	             "socket(AF_INET) refused with EACCES");
	close(fd);
}

/* In a child: load the seccomp parts alone, then connect to the unix
 * socket at path; the errno, 0 when connected. */
static int unix_connect_after(uint32_t parts, const char *path)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    (parts != 0 && seccomp_load_parts(parts, NULL) < 0))
			_exit(100);
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			_exit(errno);
		struct sockaddr_un sun = { .sun_family = AF_UNIX };
		strncpy(sun.sun_path, path, sizeof(sun.sun_path) - 1);
		_exit(connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ? errno : 0);
	}
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* The egress proxy's filter: a daemon's unix socket (the D-Bus bus,
 * docker.sock) out of its reach, its TCP connections not. */
Test(launcher_steps, egress_proxy_filter_refuses_unix_sockets, .timeout = 20)
{
	char dir[] = "/tmp/sluice-test-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/daemon.sock", dir);
	int daemon = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	strncpy(sun.sun_path, path, sizeof(sun.sun_path) - 1);
	cr_assert_eq(bind(daemon, (struct sockaddr *)&sun, sizeof(sun)), 0);
	cr_assert_eq(listen(daemon, 8), 0);
	uint32_t planned = PROT_SECCOMP_ANY;
	cr_assert_eq(
	        unix_connect_after(seccomp_parts_for_plan(planned & ~(PROT_SECCOMP_SOCKETS |
	                                                              PROT_SECCOMP_UNIX_CONNECT)),
	                           path),
	        0, "positive control: the filter without its socket rules lets it connect");
	uint32_t parts = egress_proxy_seccomp_parts(planned);
	cr_assert_eq(unix_connect_after(parts, path), EACCES,
	             "socket(AF_UNIX) refused with EACCES under the proxy's filter");
	int port;
	int fd = listener(&port);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    seccomp_load_parts(parts, NULL) < 0)
			_exit(100);
		if (socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 0) >= 0 || errno != EACCES)
			_exit(101);
		/* glibc's resolver (this test's libc) tries nscd's unix
		 * socket first: refused, it must go on without it */
		struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *list = NULL;
		if (getaddrinfo("localhost", "80", &hints, &list) != 0)
			_exit(103);
		freeaddrinfo(list);
		int tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		struct sockaddr_in sin = { .sin_family = AF_INET,
			                   .sin_port = htons((uint16_t)port),
			                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		_exit(tcp >= 0 && connect(tcp, (struct sockaddr *)&sin, sizeof(sin)) == 0 ? 0
		                                                                          : 102);
	}
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	          "under the proxy's filter: netlink refused (101), TCP connects (102), "
	          "a name resolves (103): %d",
	          WEXITSTATUS(status));
	cr_assert_eq(egress_proxy_seccomp_parts(0), 0, "no seccomp planned, none loaded");
	close(fd);
	close(daemon);
	(void)unlink(path);
	(void)rmdir(dir);
}

Test(launcher_steps, built_seccomp_programs_match_the_rules)
{
	static struct sock_filter now[4096];
	cr_assert_eq(sizeof(seccomp_programs) / sizeof(seccomp_programs[0]), SECCOMP_PART_ALL + 1);
	for (unsigned parts = 0; parts <= SECCOMP_PART_ALL; parts++) {
		long n = seccomp_rules_export(parts, now, sizeof(now));
		cr_assert_gt(n, 0);
		cr_assert_eq((size_t)n, seccomp_programs[parts].len * sizeof(struct sock_filter),
		             "program %u: stale length", parts);
		cr_assert_eq(memcmp(now, seccomp_programs[parts].filter, (size_t)n), 0,
		             "program %u is stale: rebuild seccomp-programs.h", parts);
	}
}
