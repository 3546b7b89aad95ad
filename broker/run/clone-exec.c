/* SPDX-License-Identifier: MIT */
/*
 * clone_exec(): clone(CLONE_VM) without CLONE_VFORK (clone-exec.h). Until
 * its exec the child shares this process's memory, thread-local storage
 * (errno) included, while this process goes on. So the child writes only
 * its own mapping and makes its system calls directly, never through the
 * C library's wrappers, which would set the shared errno when one fails;
 * and it starts with every signal blocked, so that no handler of this
 * process runs in it before its signals are reset to their defaults.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "launch-spec.h"
#include "run/clone-exec.h"

extern char **environ;

/* The most descriptors the child dup2s (spawner.c passes six). */
#define CLONE_EXEC_MAX_FDS 8
/* The child's stack: a few frames of its own code and nothing else. */
#define CLONE_EXEC_STACK (32 * 1024)

/* Everything the child reads, in its own mapping: this process may change
 * or free its own copies while the child runs. */
struct clone_exec_args {
	char *path;
	char **argv, **envp;
	int src[CLONE_EXEC_MAX_FDS], dst[CLONE_EXEC_MAX_FDS];
	size_t n;
	int exec_w;
	bool apart;
	cpu_set_t others, cpus;
};

#if defined(__x86_64__) || defined(__aarch64__)
/* The child shares this process's memory until its exec. */
#define CLONE_EXEC_FLAGS CLONE_VM

/* A system call that leaves errno alone: -errno on failure. */
__attribute__((no_sanitize("address", "undefined"))) static long
child_syscall(long nr, long a, long b, long c, long d)
{
#if defined(__x86_64__)
	long ret;
	register long r10 __asm__("r10") = d;
	__asm__ volatile("syscall"
	                 : "=a"(ret)
	                 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
	                 : "rcx", "r11", "memory");
	return ret;
#else
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory", "cc");
	return x0;
#endif
}
#else
/* Elsewhere the child has a copy of this process's memory, as after a
 * fork, and the C library's syscall() may set its errno. */
#define CLONE_EXEC_FLAGS 0

static long child_syscall(long nr, long a, long b, long c, long d)
{
	long r = syscall(nr, a, b, c, d);
	return r < 0 ? -errno : r;
}
#endif

/* The child until its exec; returns only by exiting. The kernel's struct
 * sigaction all zero is SIG_DFL with no flags and an empty mask; SIGKILL
 * and SIGSTOP refuse it, which changes nothing. */
__attribute__((no_sanitize("address", "undefined"))) static int child(void *arg)
{
	const struct clone_exec_args *a = arg;
	const unsigned long dfl[4] = { 0 }, none = 0;
	long r = 0;
	/* off this process's CPU, if it took it, then free to go anywhere */
	if (a->apart &&
	    child_syscall(SYS_sched_setaffinity, 0, sizeof(a->others), (long)&a->others, 0) == 0)
		(void)child_syscall(SYS_sched_setaffinity, 0, sizeof(a->cpus), (long)&a->cpus, 0);
	for (long sig = 1; sig < _NSIG; sig++)
		(void)child_syscall(SYS_rt_sigaction, sig, (long)dfl, 0, sizeof(none));
	for (size_t i = 0; r >= 0 && i < a->n; i++)
		if (a->src[i] >= 0)
			r = child_syscall(SYS_dup3, a->src[i], a->dst[i], 0, 0);
	(void)child_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&none, 0, sizeof(none));
	if (r >= 0)
		r = child_syscall(SYS_execve, (long)a->path, (long)a->argv, (long)a->envp, 0);
	int e = (int)-r;
	(void)child_syscall(SYS_write, a->exec_w, (long)&e, sizeof(e), 0);
	(void)child_syscall(SYS_exit_group, LAUNCH_EXIT_FAILURE, 0, 0, 0);
	return LAUNCH_EXIT_FAILURE; /* not reached: the C library's clone would exit with it */
}

/* The size of what clone_exec() copies after the struct. */
static size_t args_size(const char *path, char *const argv[], size_t *ret_argc, size_t *ret_envc)
{
	size_t size = strlen(path) + 1, argc = 0, envc = 0;
	for (; argv[argc]; argc++)
		size += strlen(argv[argc]) + 1;
	for (; environ && environ[envc]; envc++)
		;
	size += (argc + 1 + envc + 1) * sizeof(char *);
	*ret_argc = argc;
	*ret_envc = envc;
	return size;
}

/* A copy of s at *at, which moves on past it. */
static char *copy_string(char **at, const char *s)
{
	size_t len = strlen(s) + 1;
	char *copy = memcpy(*at, s, len);
	*at += len;
	return copy;
}

int clone_exec(const char *path, char *const argv[], const int src[], const int dst[], size_t n,
               int exec_w, const struct cpu_placement *placement, pid_t *ret_pid)
{
	if (n > CLONE_EXEC_MAX_FDS)
		return -EINVAL;
	size_t argc, envc;
	size_t size = CLONE_EXEC_STACK + sizeof(struct clone_exec_args) +
	              args_size(path, argv, &argc, &envc);
	char *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	/* the stack grows down from the start of the arguments */
	struct clone_exec_args *a = (struct clone_exec_args *)(map + CLONE_EXEC_STACK);
	char **ptrs = (char **)(a + 1);
	a->argv = ptrs;
	a->envp = ptrs + argc + 1;
	char *at = (char *)(a->envp + envc + 1);
	for (size_t i = 0; i < argc; i++)
		a->argv[i] = copy_string(&at, argv[i]);
	a->argv[argc] = NULL;
	if (envc)
		memcpy(a->envp, environ, envc * sizeof(char *));
	a->envp[envc] = NULL;
	a->path = copy_string(&at, path);
	a->n = n;
	for (size_t i = 0; i < n; i++) {
		a->src[i] = src[i];
		a->dst[i] = dst[i];
	}
	a->exec_w = exec_w;
	a->apart = placement && placement->apart;
	if (a->apart) {
		a->others = placement->others;
		a->cpus = placement->cpus;
	}

	sigset_t all, old;
	sigfillset(&all);
	(void)sigprocmask(SIG_SETMASK, &all, &old);
	pid_t pid = clone(child, a, CLONE_EXEC_FLAGS | SIGCHLD, a);
	int e = errno;
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		(void)munmap(map, size);
		return -e;
	}
	*ret_pid = pid;
	return 0;
}
