/* SPDX-License-Identifier: MIT */
/*
 * Scope-bound cleanup for both programs: _cleanup_free_, _cleanup_close_,
 * _cleanup_fclose_, _cleanup_closedir_ and the TAKE_PTR / TAKE_FD hand-off macros.
 * Not for: anything that can fail; destructors here only release.
 */
#ifndef SLUICE_CLEANUP_H
#define SLUICE_CLEANUP_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(fn) __attribute__((cleanup(fn)))

static inline void freep(void *p)
{
	free(*(void **)p);
}

/* close(2) that keeps the caller's errno, and ignores -1. */
static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		(void)close(*fd);
		errno = saved;
	}
}

static inline void fclosep(FILE **f)
{
	if (*f) {
		int saved = errno;
		(void)fclose(*f);
		errno = saved;
	}
}

static inline void closedirp(DIR **d)
{
	if (*d) {
		int saved = errno;
		(void)closedir(*d);
		errno = saved;
	}
}

#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define _cleanup_closedir_ _cleanup_(closedirp)

/* Hand an owned pointer or descriptor out of a cleanup scope. */
#define TAKE_PTR(p)                                \
	({                                         \
		__typeof__(p) take_ptr_tmp_ = (p); \
		(p) = NULL;                        \
		take_ptr_tmp_;                     \
	})
#define TAKE_FD(fd)                      \
	({                               \
		int take_fd_tmp_ = (fd); \
		(fd) = -1;               \
		take_fd_tmp_;            \
	})

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

#endif
