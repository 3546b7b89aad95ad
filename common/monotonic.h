/* SPDX-License-Identifier: MIT */
/*
 * The clocks for deadlines and durations: CLOCK_MONOTONIC in milliseconds
 * for what waits on the world (timeouts, durations), and the calling
 * thread's CPU time in microseconds for a limit on work (the shell parse):
 * that one does not run out faster on a busy machine, so a verdict never
 * depends on the load.
 * Not for: wall-clock times (job records use time(2)).
 */
#ifndef SLUICE_MONOTONIC_H
#define SLUICE_MONOTONIC_H

#include <stdint.h>
#include <time.h>

static inline uint64_t monotonic_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static inline uint64_t monotonic_ms(void)
{
	return monotonic_us() / 1000;
}

/* The CPU time this thread has used, in microseconds. */
static inline uint64_t thread_cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

#endif
