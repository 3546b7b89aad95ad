/* SPDX-License-Identifier: MIT */
/*
 * The entry points of the verbs about running commands, for the verb table:
 * run, jobs, logs, kill, schema, doctor. Each returns the exit status.
 */
#ifndef SLUICE_RUN_VERBS_H
#define SLUICE_RUN_VERBS_H

int cmd_run(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_logs(int argc, char **argv);
int cmd_kill(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_doctor(int argc, char **argv);

/* Their command lines (cli/verb-options.h). */
struct verb_spec;
extern const struct verb_spec run_spec, jobs_spec, logs_spec, kill_spec, schema_spec, doctor_spec;

#endif
