/* SPDX-License-Identifier: MIT */
/*
 * The built-in plugins checked in the broker's own process (see
 * policy-inproc.h): whether a chain may, its built-ins loaded here, and one
 * model's pass under handlers that turn a crash of plugin code, or plugin
 * code past the plugin timeout, into the end of the pass, as the death of
 * a child would be.
 * Not for: reading the pass's messages (policy-chain.c), a child's pass
 * (policy-child.c).
 */
#include "config.h"

#include <errno.h>
#include <link.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include "cleanup.h"
#include "policy/plugin-loader.h"
#include "policy/policy-child.h"
#include "policy/policy-inproc.h"

/* The crashes that end a child (policy_child_crash_by_signal()) and the
 * timer's signal: each ends the pass here. */
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
#define TIMER_SIGNAL SIGALRM

/* AddressSanitizer's handler keeps the crash signals (policy-child.c):
 * a crash here would end the broker with its report, so that under it the
 * built-ins are checked in a child as any plugin is. */
#if defined(__SANITIZE_ADDRESS__)
#define CRASHES_ARE_THE_SANITIZERS true
#else
#define CRASHES_ARE_THE_SANITIZERS false
#endif

/* Where the timer interrupted: the program counter of the interrupted
 * context, on the architectures where it is known (elsewhere a child
 * checks: policy_inproc_usable()). */
#if defined(__x86_64__)
#define INTERRUPTED_PC(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_RIP])
#define INTERRUPTED_PC_KNOWN true
#elif defined(__aarch64__)
#define INTERRUPTED_PC(uc) ((uintptr_t)(uc)->uc_mcontext.pc)
#define INTERRUPTED_PC_KNOWN true
#else
#define INTERRUPTED_PC(uc) ((void)(uc), (uintptr_t)0)
#define INTERRUPTED_PC_KNOWN false
#endif

/* The code of the C library and the dynamic loader, which hold locks of
 * the whole process while they run (the allocator's, stdio's, the
 * loader's): a jump out of them would leave the lock held, and the broker
 * would hang at its next malloc. The timer is put off while it lands
 * there (a millisecond at a time, up to TIMER_PUT_OFF_MAX), and the jump
 * made once plugin code or the broker's own runs again. A pass that stays
 * inside the C library longer (a regexec of a pathological pattern) is
 * jumped out of all the same: a hang of the broker then refuses too (the
 * command is never sent), only without the message. */
#define LOCKING_CODE_MAX 8
static struct {
	uintptr_t start, end;
} locking_code[LOCKING_CODE_MAX];
static size_t n_locking_code;
#define TIMER_PUT_OFF_MAX 1000

static int note_locking_code(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
	base = base ? base + 1 : info->dlpi_name;
	if (!base || (strncmp(base, "libc.so", 7) != 0 && strncmp(base, "ld-linux", 8) != 0 &&
	              strncmp(base, "ld-musl", 7) != 0 && strncmp(base, "libc.musl", 9) != 0))
		return 0;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) ||
		    n_locking_code == LOCKING_CODE_MAX)
			continue;
		uintptr_t start = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
		locking_code[n_locking_code].start = start;
		locking_code[n_locking_code++].end = start + ph->p_memsz;
	}
	return 0;
}

static bool in_locking_code(uintptr_t pc)
{
	for (size_t i = 0; i < n_locking_code; i++)
		if (pc >= locking_code[i].start && pc < locking_code[i].end)
			return true;
	return false;
}

static sigjmp_buf pass_exit;
static volatile sig_atomic_t pass_running;
static volatile sig_atomic_t pass_ended_by;
static timer_t pass_timer;
static volatile sig_atomic_t timer_put_off;

static void on_pass_signal(int sig, siginfo_t *info, void *context)
{
	(void)info;
	if (!pass_running) {
		/* Past the pass (its handlers not yet given back): a crash is
		 * the broker's own, and ends it as it would have; a late tick
		 * of the timer is nothing. */
		if (sig != TIMER_SIGNAL) {
			(void)signal(sig, SIG_DFL);
			(void)raise(sig);
		}
		return;
	}
	if (sig == TIMER_SIGNAL && timer_put_off < TIMER_PUT_OFF_MAX &&
	    in_locking_code(INTERRUPTED_PC((const ucontext_t *)context))) {
		timer_put_off++;
		struct itimerspec soon = { .it_value = { .tv_nsec = 1000000L } };
		(void)timer_settime(pass_timer, 0, &soon, NULL); /* async-signal-safe */
		return;
	}
	pass_running = 0;
	pass_ended_by = sig;
	siglongjmp(pass_exit, 1);
}

/* The plugins loaded back to what a lazy chain holds: their
 * configuration only (the child loads them). */
static void unload_all(struct policy_chain *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct config_plugin *conf = c->plugins[i].conf;
		plugin_unload(&c->plugins[i]);
		c->plugins[i].conf = conf;
	}
}

bool policy_inproc_usable(struct policy_chain *c)
{
	if (c->strict || policy_proc_state(&c->ahead) != POLICY_PROC_NONE)
		return false;
	if (c->inproc != POLICY_INPROC_UNDECIDED)
		return c->inproc == POLICY_INPROC_LOADED;
	c->inproc = POLICY_INPROC_NO;
	/* !dir: a chain that validated its plugins; without the program
	 * counter the timer could not tell where it landed */
	if (!c->in_process_allowed || !c->dir || CRASHES_ARE_THE_SANITIZERS ||
	    !INTERRUPTED_PC_KNOWN)
		return false;
	if (n_locking_code == 0)
		(void)dl_iterate_phdr(note_locking_code, NULL);
	if (n_locking_code == 0)
		return false; /* the C library's code not found: nothing to guard */
	for (size_t i = 0; i < c->n; i++)
		if (!plugin_from_builtins(c->plugins[i].conf))
			return false;
	for (size_t i = 0; i < c->n; i++) {
		struct sluice_error err = { 0 };
		if (plugin_load(c->plugins[i].conf, c->dir, &c->plugins[i], &err) < 0) {
			/* a child loads them again, and reports this one in its place */
			unload_all(c, i);
			return false;
		}
	}
	c->inproc = POLICY_INPROC_LOADED;
	return true;
}

/* What the pass changes in this process, to give back after it. */
struct pass_signals {
	struct sigaction old_actions[ELEMENTSOF(crash_signals) + 1];
	stack_t old_stack;
	sigset_t old_mask;
};

/* Room for the handler when plugin code overflowed its stack: one pass at
 * a time, so one stack. */
static char handler_stack[64 * 1024];

static const int *pass_signal(size_t i)
{
	static const int timer_signal = TIMER_SIGNAL;
	return i < ELEMENTSOF(crash_signals) ? &crash_signals[i] : &timer_signal;
}

static int take_signals(struct pass_signals *ps)
{
	stack_t st = { .ss_sp = handler_stack, .ss_size = sizeof(handler_stack) };
	if (sigaltstack(&st, &ps->old_stack) < 0)
		return -errno;
	struct sigaction sa = { .sa_sigaction = on_pass_signal,
		                .sa_flags = SA_ONSTACK | SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigset_t ours;
	sigemptyset(&ours);
	for (size_t i = 0; i < ELEMENTSOF(ps->old_actions); i++) {
		(void)sigaction(*pass_signal(i), &sa, &ps->old_actions[i]);
		sigaddset(&ours, *pass_signal(i));
	}
	(void)sigprocmask(SIG_UNBLOCK, &ours, &ps->old_mask);
	return 0;
}

static void give_back_signals(struct pass_signals *ps)
{
	/* A tick of the timer may still be pending: taken here, before its
	 * default action (the end of the process) is back. */
	sigset_t timer_only;
	sigemptyset(&timer_only);
	sigaddset(&timer_only, TIMER_SIGNAL);
	(void)sigprocmask(SIG_BLOCK, &timer_only, NULL);
	struct timespec none = { 0 };
	while (sigtimedwait(&timer_only, NULL, &none) == TIMER_SIGNAL)
		;
	for (size_t i = 0; i < ELEMENTSOF(ps->old_actions); i++)
		(void)sigaction(*pass_signal(i), &ps->old_actions[i], NULL);
	(void)sigaltstack(&ps->old_stack, NULL);
	(void)sigprocmask(SIG_SETMASK, &ps->old_mask, NULL);
}

int policy_inproc_pass(struct policy_chain *c, const struct command_model *m, int fd)
{
	struct sigevent tick = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = TIMER_SIGNAL };
	timer_t timer;
	if (timer_create(CLOCK_MONOTONIC, &tick, &timer) < 0)
		return -errno;
	pass_timer = timer;
	timer_put_off = 0;
	struct pass_signals ps;
	int r = take_signals(&ps);
	if (r < 0) {
		(void)timer_delete(timer);
		return r;
	}
	/* the deadline a child's reader gives each model (policy-chain.c) */
	uint64_t ms = c->timeout_ms ? c->timeout_ms : 1;
	struct itimerspec when = { .it_value = { .tv_sec = (time_t)(ms / 1000),
		                                 .tv_nsec = (long)(ms % 1000) * 1000000L } };
	pass_ended_by = 0;
	if (sigsetjmp(pass_exit, 0) == 0) {
		pass_running = 1;
		r = timer_settime(timer, 0, &when, NULL) < 0 ? -errno
		                                             : policy_child_pass(c, m, 0, fd);
		pass_running = 0;
	} else {
		r = pass_ended_by == TIMER_SIGNAL ? -ETIMEDOUT : (int)pass_ended_by;
	}
	(void)timer_delete(timer);
	give_back_signals(&ps);
	return r;
}
