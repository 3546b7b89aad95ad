/* SPDX-License-Identifier: MIT */
/*
 * The one clock for deadlines and durations: CLOCK_MONOTONIC in
 * milliseconds (microseconds for the parser's time limit).
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

#endif
