/* SPDX-License-Identifier: MIT */
/*
 * broker/run/launcher-proc.c: the owner of a run's launcher process. A
 * launcher withdrawn once it has its command (RUNNING) is ended with its
 * process group, not waited for while its command runs on.
 * Runs the built sluice-launch ($SLUICE_LAUNCH) in the unrestricted profile.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/run-settings.h"
#include "monotonic.h"
#include "process-util.h"
#include "run/launcher-proc.h"
#include "scratch.h"

static char tmp[512];

static void setup(void)
{
	scratch_make(tmp, sizeof(tmp), "sluice-launcher-proc");
}

static void teardown(void)
{
	scratch_remove(tmp);
}

TestSuite(launcher_proc, .init = setup, .fini = teardown, .timeout = 60);

/* The pid the command wrote to path, once it has (0 after about 10 s). */
static pid_t read_pid_file(const char *path)
{
	for (int waited = 0; waited < 10000; waited += 10) {
		FILE *f = fopen(path, "r");
		int pid = 0;
		if (f) {
			bool got = fscanf(f, "%d\n", &pid) == 1;
			fclose(f);
			if (got && pid > 0)
				return (pid_t)pid;
		}
		usleep(10 * 1000);
	}
	return 0;
}

Test(launcher_proc, a_running_launcher_withdrawn_is_ended_with_its_group_not_waited_for)
{
	const char *launcher = getenv("SLUICE_LAUNCH");
	cr_assert(launcher && *launcher, "SLUICE_LAUNCH names the built launcher");
	struct run_settings s;
	run_settings_init_defaults(&s);
	s.sandbox_mode = SANDBOX_MODE_UNRESTRICTED;
	char pid_file[600], command[2048];
	snprintf(pid_file, sizeof(pid_file), "%s/sleeper.pid", tmp);
	/* a command that runs on for 20 s, in the launcher's group: the shell
	 * and a child of its own */
	snprintf(command, sizeof(command),
	         "sleep 20 & echo $! > '%s.new' && mv '%s.new' '%s'; wait", pid_file, pid_file,
	         pid_file);
	char *env[] = { (char *)"PATH=/usr/bin:/bin", NULL };
	struct spawn_request sr = {
		.launcher = launcher,
		.settings = &s,
		.workspace = tmp,
		.chdir = tmp,
		.command = command,
		.env = env,
		.command_fd = -1,
		.spec_fd = -1,
	};
	struct launcher_proc lp;
	launcher_proc_init(&lp);
	cr_assert_eq(launcher_proc_start_with_command(&lp, &sr), 0);
	cr_assert_eq(launcher_proc_state(&lp), LAUNCHER_PROC_RUNNING);
	pid_t launcher_pid = lp.pid;
	/* positive control: the command runs, its child alive */
	pid_t sleeper_pid = read_pid_file(pid_file);
	cr_assert_gt(sleeper_pid, 0, "the command did not start");
	struct process_ref sleeper = process_ref(sleeper_pid);
	cr_assert_not(process_ref_gone(sleeper), "the command's child is not running");

	uint64_t start = monotonic_ms();
	launcher_proc_withdraw(&lp);
	uint64_t took = monotonic_ms() - start;
	cr_assert_lt(took, 5000, "the withdraw waited %llu ms for the command",
	             (unsigned long long)took);
	cr_assert_eq(launcher_proc_state(&lp), LAUNCHER_PROC_NONE);
	/* the launcher was reaped; the child of its group was killed */
	errno = 0;
	cr_assert_eq(waitpid(launcher_pid, NULL, WNOHANG), -1, "the launcher was not reaped");
	cr_assert_eq(errno, ECHILD);
	cr_assert(process_ref_gone_within(sleeper, 2000),
	          "the command's child outlived the withdraw");
	while (waitpid(-1, NULL, WNOHANG) > 0) /* the killed child, given to this subreaper */
		;
}
