/* SPDX-License-Identifier: MIT */
/*
 * The parent's side of a policy child: its messages read from the pipe
 * against a deadline, each checked against the table of legal orders
 * (OpenSSH's monitor), and what they say added to the request's verdict.
 * Anything else -- garbage, a message out of order, too many bytes, a
 * child that stops -- becomes a deny that names the plugin that was running.
 * Not for: forking or feeding the child (policy-chain.c, policy-child.c).
 */
#ifndef SLUICE_POLICY_READER_H
#define SLUICE_POLICY_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/plugin-loader.h"
#include "policy/verdict.h"

/* Everything one child may send, in bytes. */
#define CHAIN_MAX_BYTES (4 * 1024 * 1024)

/* Where one model's messages have got to (the states of the table). */
enum reading_state {
	READING_START,   /* no plugin begun yet */
	READING_OPEN,    /* the current plugin is opening (or failed to) */
	READING_CHECK,   /* the current plugin is checking */
	READING_CHECKED, /* the current plugin's RESULT arrived */
};

/* One model's reading. Initialise with the chain's plugins, n, lazy and v;
 * the rest starts zeroed. */
struct reading {
	const struct loaded_plugin *plugins; /* the chain's, for their names */
	size_t n;
	bool lazy; /* the child loads the plugins: LOAD_FAILED is legal */
	struct verdict *v;
	enum reading_state state;
	bool done;              /* DONE arrived: nothing may follow */
	size_t current;         /* plugin the child last began */
	int current_max;        /* highest verdict among the current plugin's reasons */
	char *rewrite;          /* the first proposal (owned) */
	size_t rewrite_from;    /* the plugin that made it */
	size_t failed;          /* plugins that failed */
	size_t bytes;           /* of this model's messages */
	char fault[512];        /* why the child's output was refused */
	char start_error[1400]; /* the first plugin that could not start, or "" */
};

/* The child's pipe, and what was read from it but not yet handled: bytes
 * past one model's DONE belong to the next model. */
struct stream {
	int fd; /* non-blocking */
	char *buf;
	size_t len, cap;
	bool eof;
};

/* Read and handle one model's messages until its DONE, the deadline or a
 * fault. Returns 0 (at DONE, or at end of file when st->done is still
 * false), -ETIMEDOUT, -EBADMSG (st->fault says why), -ENOMEM or
 * -errno. */
int reading_read(struct stream *in, struct reading *st, uint64_t deadline);

/* A child that failed in model (its index in the child's list) before
 * that model's messages were all read: take the plugin and phase it was in
 * from its progress word (policy-msg.h), which runs ahead of its messages. */
bool reading_progress(struct reading *st, uint64_t at, size_t model);

/* Refuse the child's output: st->fault says why. Returns -EBADMSG. */
int reading_fault(struct reading *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The name of the plugin the child was in ("(chain)" before any). */
const char *reading_plugin_name(const struct reading *st);

/* Whether the child had begun a plugin (the current one) when it stopped. */
static inline bool reading_begun(const struct reading *st)
{
	return st->state != READING_START;
}

/*
 * The deny for a model whose child failed (r: what reading_read() returned;
 * w, status: waitpid()'s return and status), naming the plugin that was
 * running and what it was doing; timeout_ms as configured. Returns
 * st->failed, or -ENOMEM.
 */
int reading_fail_closed(struct reading *st, int r, int w, int status, uint64_t timeout_ms);

#endif
