/* SPDX-License-Identifier: MIT */
/*
 * Whether a process is gone, for tests that check that nothing a test
 * started outlives what should have ended it. Header-only. A pid alone
 * does not name a process for long: pids are reused (pid_max may be
 * 32768, and a CI machine forks fast), so a process is taken as its pid
 * and its start time (process_ref()), and one with another start time at
 * that pid counts as gone, never as the one to kill.
 * Not for: waiting for a child (waitpid does that).
 */
#ifndef SLUICE_TEST_PROCESS_UTIL_H
#define SLUICE_TEST_PROCESS_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* A process: its pid and its start time (clock ticks after boot, field
 * 22 of /proc/PID/stat); start 0: none (it was gone when taken). */
struct process_ref {
	pid_t pid;
	unsigned long long start;
};

/* pid's state and start time from /proc; false when it is gone. */
static inline bool process_stat(pid_t pid, char *state, unsigned long long *start)
{
	char path[64], line[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool read = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	/* after the command's name, which may hold spaces and parentheses */
	char *after = read ? strrchr(line, ')') : NULL;
	return after && sscanf(after + 1,
	                       " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
	                       "%*s %*s %*s %*s %*s %llu",
	                       state, start) == 2;
}

/* The process at pid now (start 0 where there is none). */
static inline struct process_ref process_ref(pid_t pid)
{
	struct process_ref p = { .pid = pid, .start = 0 };
	char state;
	if (!process_stat(pid, &state, &p.start) || state == 'Z' || state == 'X')
		p.start = 0;
	return p;
}

/* The process at pid now, where its argv[0] is name (or ends in /name):
 * for a pid learned after the fact, when no start time could be taken
 * while it surely was the one (start 0 otherwise). */
static inline struct process_ref process_ref_named(pid_t pid, const char *name)
{
	struct process_ref p = process_ref(pid);
	char path[64], argv0[256] = "";
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	FILE *f = p.start ? fopen(path, "r") : NULL;
	if (f) {
		size_t n = fread(argv0, 1, sizeof(argv0) - 1, f);
		argv0[n] = '\0';
		fclose(f);
	}
	const char *base = strrchr(argv0, '/');
	if (strcmp(base ? base + 1 : argv0, name) != 0)
		p.start = 0;
	return p;
}

/* Whether p is gone (or dead, waiting to be reaped): its pid names no
 * process, a dead one, or another (a later start time). */
static inline bool process_ref_gone(struct process_ref p)
{
	char state;
	unsigned long long start;
	if (p.start == 0 || !process_stat(p.pid, &state, &start))
		return true;
	return state == 'Z' || state == 'X' || start != p.start;
}

/* Whether p is gone within about timeout_ms (checked every 10 ms). */
static inline bool process_ref_gone_within(struct process_ref p, int timeout_ms)
{
	for (int waited = 0; waited < timeout_ms && !process_ref_gone(p); waited += 10)
		usleep(10 * 1000);
	return process_ref_gone(p);
}

/* p killed, if it is still p (never another process at its pid). */
static inline void process_ref_kill(struct process_ref p)
{
	if (!process_ref_gone(p))
		(void)kill(p.pid, SIGKILL);
}

#endif
