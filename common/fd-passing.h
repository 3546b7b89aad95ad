/* SPDX-License-Identifier: MIT */
/*
 * Descriptors handed over a Unix socket (SCM_RIGHTS) with one byte that says
 * what they are: the network holder's namespaces, the egress proxy's
 * listening socket; or with a message: the egress proxy's questions.
 * Not for: what the byte and the descriptors mean (their callers).
 */
#ifndef SLUICE_FD_PASSING_H
#define SLUICE_FD_PASSING_H

#include <stddef.h>

/* The most descriptors one message carries. */
#define FD_PASSING_MAX 4

/* Send byte with fds[0..n) (n <= FD_PASSING_MAX; the caller keeps its
 * copies). 0, or -errno (-EINVAL for n too large). */
int fds_send(int sock, char byte, const int *fds, size_t n);

/* Receive one byte and exactly n descriptors (close-on-exec) into *byte
 * and fds[0..n). 0; -EPROTO when the message was anything else (no byte,
 * other or more descriptors, a cut control part), in which case every
 * descriptor that came is closed; or -errno. */
int fds_receive(int sock, char *byte, int *fds, size_t n);

/* Send the len bytes at data (len >= 1, one message on a SOCK_SEQPACKET
 * socket) with fds[0..n), as fds_send(). 0, or -errno. */
int fds_send_message(int sock, const void *data, size_t len, const int *fds, size_t n);

/* Receive one message of at most size bytes into buf (*ret_len its length)
 * with exactly n descriptors, as fds_receive(): -EPROTO for anything else
 * (a longer message is one), -ECONNRESET at the peer's end, or -errno. */
int fds_receive_message(int sock, void *buf, size_t size, size_t *ret_len, int *fds, size_t n);

#endif
