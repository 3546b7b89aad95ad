/* SPDX-License-Identifier: MIT */
/*
 * No controlling terminal, no inherited stdin, no inherited descriptors:
 * a sandboxed program must not push keystrokes into the caller's terminal
 * (TIOCSTI needs the terminal to be the caller's controlling one) or use a
 * descriptor the caller forgot to close.
 */
#include "config.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "protections.h"
#include "options.h"
#include "session.h"

/* Give up the controlling terminal, if any, without being a session leader:
 * TIOCNOTTY then only detaches this process (a session leader would also
 * hang up its foreground group, so that case is refused). */
static int detach_terminal(struct sluice_error *err)
{
	_cleanup_close_ int tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (tty < 0) {
		if (errno == ENXIO)
			return 0; /* no controlling terminal */
		return sluice_error_set(err, neg_errno(), "opening /dev/tty");
	}
	if (getsid(0) == getpid())
		return sluice_error_set(err, -EPERM,
		                        "a session leader with a controlling terminal "
		                        "(start sluice-launch from a child process)");
	if (ioctl(tty, TIOCNOTTY) < 0)
		return sluice_error_set(err, neg_errno(), "TIOCNOTTY");
	return 0;
}

int apply_session(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err)
{
	if (setsid() < 0) {
		if (errno != EPERM)
			return sluice_error_set(err, neg_errno(), "setsid");
		int r = detach_terminal(err);
		if (r < 0)
			return r;
	}
	/* Belt and braces: whatever happened above, the terminal must be gone. */
	_cleanup_close_ int tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (tty >= 0)
		return sluice_error_set(err, -EBUSY, "/dev/tty is still reachable");

	if (!spec->keep_stdin) {
		_cleanup_close_ int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null < 0)
			return sluice_error_set(err, neg_errno(), "opening /dev/null");
		if (dup2(null, STDIN_FILENO) < 0)
			return sluice_error_set(err, neg_errno(), "stdin from /dev/null");
	}
	state->enforced |= PROT_SESSION;
	return 0;
}

/* Keep fd open across the close, close-on-exec; -EBADF when it is not open. */
static int keep_fd(int fd, const char *what, struct sluice_error *err)
{
	int r = fd_set_cloexec(fd, true);
	return r < 0 ? sluice_error_set(err, r, "%s descriptor %d", what, fd) : 0;
}

int apply_close_fds(const struct launch_spec *spec, struct launch_state *state,
                    struct sluice_error *err)
{
	/* The descriptors kept; everything else above 2 closes. The egress
	 * proxy's audit channel is kept only until step "egress-audit", once
	 * the proxy has its copy; so is its ask channel. The end descriptor
	 * is the monitor's alone (step "monitor"). */
	int keep[5], n = 0;
	if (spec->report_fd >= 0)
		keep[n++] = spec->report_fd;
	if (spec->command_fd >= 0)
		keep[n++] = spec->command_fd;
	if (spec->end_fd >= 0)
		keep[n++] = spec->end_fd;
	if (spec->egress_audit_fd >= 0)
		keep[n++] = spec->egress_audit_fd;
	if (spec->egress_ask_fd >= 0)
		keep[n++] = spec->egress_ask_fd;
	for (int i = 0; i < n; i++) {
		const char *what = keep[i] == spec->report_fd       ? "report"
		                   : keep[i] == spec->command_fd    ? "command"
		                   : keep[i] == spec->end_fd        ? "end"
		                   : keep[i] == spec->egress_ask_fd ? "egress ask"
		                                                    : "egress audit";
		int r = keep_fd(keep[i], what, err);
		if (r < 0)
			return r;
	}
	int r = fd_close_from_except(3, keep, (size_t)n);
	if (r < 0)
		return sluice_error_set(err, r, "close_range");
	state->enforced |= PROT_CLOSE_FDS;
	return 0;
}
