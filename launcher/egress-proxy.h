/* SPDX-License-Identifier: MIT */
/*
 * The egress proxy (--egress-allow): the one way out of a run's network
 * namespace, to the hosts of the allowlist only. No setuid is needed: the
 * proxy is forked before the launcher leaves the host's network, so its own
 * connections are made there; the launcher, once in the new namespace,
 * makes the listening socket on 127.0.0.1 there and hands it over
 * (SCM_RIGHTS). The proxy is locked down before it serves anything: no
 * capability, no_new_privs, Landlock with no file but the resolver's to
 * read, not dumpable, a seccomp filter that lets it make AF_INET and AF_INET6
 * sockets only (egress_proxy_seccomp_parts()). The
 * monitor kills its process group when the run ends (monitor.c), and it
 * dies with the launcher's process anyway (PR_SET_PDEATHSIG).
 * Not for: one connection's request and relay (egress-connect.h), the
 * allowlist's patterns (common/egress-allow.h).
 */
#ifndef SLUICE_LAUNCHER_EGRESS_PROXY_H
#define SLUICE_LAUNCHER_EGRESS_PROXY_H

#include <stdint.h>
#include <sys/types.h>

#include "egress-connect.h"
#include "errors.h"

struct launch_spec;
struct launch_state;

/* The proxy as the launcher sees it. */
struct egress_proxy {
	pid_t pid;     /* 0: none */
	int channel;   /* the launcher's end of the socketpair; -1 once handed over */
	uint16_t port; /* the port on 127.0.0.1 in the run's network; 0 until handed over */
	char token[EGRESS_TOKEN_HEX + 1]; /* the run's credentials' password (egress-connect.h) */
};

/* Fork the proxy (spec->egress_allow's rules; state->planned says which
 * Landlock and seccomp parts this kernel has). Call it before the network
 * namespace is made or joined. 0, or -errno with a detail. */
int egress_proxy_start(const struct launch_spec *spec, const struct launch_state *state,
                       struct egress_proxy *p, struct sluice_error *err);

/* In the run's network namespace: listen on 127.0.0.1 (a port the kernel
 * picks), hand the socket to the proxy and wait until it says it is
 * locked down and serving; p->port is then set. 0, or -errno with the
 * proxy's detail. */
int egress_proxy_hand_over(struct egress_proxy *p, struct sluice_error *err);

/* The seccomp parts (enum seccomp_part) the proxy loads, for a plan's
 * PROT_SECCOMP_* bits: those of the plan, with sockets of AF_INET and
 * AF_INET6 only (its connections, the resolver's queries; no unix socket,
 * so that a fault in its parsing reaches no daemon listening on a path,
 * no netlink) and connect(2) allowed. 0 when the plan has no seccomp. */
uint32_t egress_proxy_seccomp_parts(uint32_t planned);

/* Step "egress-audit": close --egress-audit-fd and --egress-ask-fd, which
 * the proxy (forked in step "namespaces") has its copies of: before the
 * monitor's fork, so that no process of the program's ever holds them,
 * and records in the audit channel and questions on the ask channel come
 * from the proxy alone. */
int apply_egress_audit(const struct launch_spec *spec, struct launch_state *state,
                       struct sluice_error *err);

/* Step "egress-env": with a proxy, HTTPS_PROXY, HTTP_PROXY, their lower-case
 * spellings and ALL_PROXY name it, and NO_PROXY the loopback, in the
 * program's environment. */
int apply_egress_env(const struct launch_spec *spec, struct launch_state *state,
                     struct sluice_error *err);

#endif
