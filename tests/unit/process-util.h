/* SPDX-License-Identifier: MIT */
/*
 * Whether a process is gone, for tests that check that nothing a test
 * started outlives what should have ended it. Header-only.
 * Not for: waiting for a child (waitpid does that).
 */
#ifndef SLUICE_TEST_PROCESS_UTIL_H
#define SLUICE_TEST_PROCESS_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

/* Whether process pid is gone (or dead, waiting to be reaped). */
static inline bool process_gone(pid_t pid)
{
	char path[64], state = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	bool read = fscanf(f, "%*d (%*[^)]) %c", &state) == 1;
	fclose(f);
	return read && (state == 'Z' || state == 'X');
}

/* Whether pid is gone within about timeout_ms (checked every 10 ms). */
static inline bool process_gone_within(pid_t pid, int timeout_ms)
{
	for (int waited = 0; waited < timeout_ms && !process_gone(pid); waited += 10)
		usleep(10 * 1000);
	return process_gone(pid);
}

#endif
