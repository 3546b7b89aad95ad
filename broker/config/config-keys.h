/* SPDX-License-Identifier: MIT */
/*
 * Every key of the core INI sections, once: section, key, type, default,
 * lock rule, allowed values (ENUM) and the line of documentation. This table
 * generates struct broker_config's fields (named SECTION_KEY), the defaults,
 * the parser's dispatch and `sluice plugins` output; a test checks that
 * docs/configuration.md mentions every key.
 * The keys sluice reads itself in every [plugin NAME] section are the second
 * table, CONFIG_PLUGIN_KEYS.
 * Not for: a plugin's own settings, which each plugin declares itself.
 *
 * Types and their C fields:
 *   STRING, PATH   char *    (PATH: empty or absolute)
 *   DURATION       uint64_t  milliseconds ("500ms", "30s", "15m", "24h")
 *   SIZE           uint64_t  bytes ("4096", "128KiB", "64MiB")
 *   BOOL           bool      yes/no, true/false, on/off, 1/0
 *   ENUM           int       index into the '|'-separated choices
 *   WORDS          char **   whitespace-separated words; each line appends,
 *                            an empty value clears the list
 *   ASSIGN         char **   one NAME=VALUE per line, appended
 *   OPT_SIZE, OPT_DURATION, OPT_COUNT  uint64_t, CONFIG_UNSET when empty
 * Locks (what a user layer -- the user's file and --config -- may do):
 *   FREE    override it;  SYSTEM  nothing (an error) once the system layer set
 *   it;  APPEND  add words only once the system layer set it;  ONLY  nothing
 *   at all: the key is read from the system layer only (some a system key
 *   unlocks, see config_unlocks in config-key-table.c).
 */
#ifndef SLUICE_CONFIG_KEYS_H
#define SLUICE_CONFIG_KEYS_H

#include "core/run-settings.h"
#include "core/sandbox-mode.h"

#define CONFIG_LIST_WORD(word) word " "
#define CONFIG_DEFAULT_ENV_DROP RUN_SETTINGS_ENV_DROP(CONFIG_LIST_WORD)

#define CONFIG_LIST_PATH(path, why) path " "
#define CONFIG_DEFAULT_SANDBOX_HIDE RUN_SETTINGS_SANDBOX_HIDE(CONFIG_LIST_PATH)
#define CONFIG_DEFAULT_SANDBOX_PROTECT RUN_SETTINGS_SANDBOX_PROTECT(CONFIG_LIST_PATH)

/* X(section, key, type, default, lock, choices, doc) */
#define CONFIG_KEYS(X)                                                                            \
	X(broker, shell, PATH, "/bin/bash", ONLY, NULL,                                           \
	  "the bash that runs COMMAND as SHELL -c COMMAND (bash only: the policies judge the "    \
	  "command as bash reads it)")                                                            \
	X(broker, timeout, DURATION, "30s", FREE, NULL, "timeout of a command in default mode")   \
	X(broker, slow_timeout, DURATION, "15m", FREE, NULL, "timeout of a command in slow mode") \
	X(broker, max_timeout, DURATION, "15m", FREE, NULL,                                       \
	  "the largest timeout a request may ask for")                                            \
	X(broker, background_timeout, DURATION, "0", FREE, NULL,                                  \
	  "timeout of a background job (0: none)")                                                \
	X(broker, kill_grace, DURATION, "2s", FREE, NULL,                                         \
	  "time between SIGTERM and SIGKILL on timeout")                                          \
	X(broker, output_cap, SIZE, "128KiB", FREE, NULL, "cap on the combined output kept")      \
	X(broker, output_head, SIZE, "4KiB", FREE, NULL,                                          \
	  "bytes kept from the start when output is cut")                                         \
	X(broker, output_tail, SIZE, "4KiB", FREE, NULL,                                          \
	  "bytes kept from the end when output is cut")                                           \
	X(broker, output_file_cap, SIZE, "64MiB", FREE, NULL,                                     \
	  "cap on a background job's output file and on a cut run's whole-output file")           \
	X(broker, max_command_size, SIZE, "64KiB", FREE, NULL,                                    \
	  "the longest COMMAND accepted (at most 131071 bytes)")                                  \
	X(broker, drain_window, DURATION, "250ms", FREE, NULL,                                    \
	  "how long output is still read after the shell exits")                                  \
	X(broker, background_survivors, ENUM, "kill", FREE, "leave|kill",                         \
	  "what happens to processes left running when the shell exits")                          \
	X(broker, jobs_dir, PATH, "", FREE, NULL,                                                 \
	  "directory of background jobs (empty: the per-user default)")                           \
	X(broker, jobs_max_age, DURATION, "24h", FREE, NULL,                                      \
	  "age after which finished jobs are removed")                                            \
	X(broker, plugin_timeout, DURATION, "5s", FREE, NULL,                                     \
	  "time the policy plugins get for one request")                                          \
	X(sandbox, mode, ENUM, LAUNCH_PROFILE_WORKSPACE_WRITE, SYSTEM, SANDBOX_MODE_CHOICES,      \
	  "sandbox mode")                                                                         \
	X(sandbox, writable, WORDS, "", SYSTEM, NULL,                                             \
	  "extra writable paths in workspace-write mode")                                         \
	X(sandbox, network, ENUM, "default", SYSTEM, "default|allow|deny",                        \
	  "network access (default: as the mode says)")                                           \
	X(sandbox, git_writable, BOOL, "no", SYSTEM, NULL,                                        \
	  "workspace-write: let commands write the workspace's .git (hooks and config too)")      \
	X(sandbox, git_sweep, BOOL, "yes", SYSTEM, NULL,                                          \
	  "after a sandboxed run, disable what it planted in the repository for git to follow")   \
	X(sandbox, hide, WORDS, CONFIG_DEFAULT_SANDBOX_HIDE, APPEND, NULL,                        \
	  "files and folders made unreadable in the sandboxed modes")                             \
	X(sandbox, protect, WORDS, CONFIG_DEFAULT_SANDBOX_PROTECT, APPEND, NULL,                  \
	  "workspace-write: paths in the workspace (relative) kept read-only, as other programs " \
	  "run them later")                                                                       \
	X(sandbox, protect_folders_idle, DURATION, "60s", SYSTEM, NULL,                           \
	  "workspace-write: how long the empty folders made for missing protect folders stay "    \
	  "after the workspace's last run or job; 0: removed as each run ends")                   \
	X(sandbox, tmpdir_size, SIZE, "1GiB", SYSTEM, NULL,                                       \
	  "the size cap of a sandboxed command's private TMPDIR (a tmpfs)")                       \
	X(sandbox, tool_caches, BOOL, "yes", SYSTEM, NULL,                                        \
	  "workspace-write: tools' caches (npm, pip, Go, XDG_CACHE_HOME ...) in a folder of the " \
	  "workspace's own that persists across its runs")                                        \
	X(sandbox, tool_caches_size, SIZE, "2GiB", SYSTEM, NULL,                                  \
	  "the total size of the workspaces' tool caches kept; beyond it the least recently "     \
	  "used go")                                                                              \
	X(sandbox, workspace_network_idle, DURATION, "60s", SYSTEM, NULL,                         \
	  "how long a workspace's shared network (its loopback) outlives its last run or job; "   \
	  "0: each run has a network of its own")                                                 \
	X(sandbox, namespace, ENUM, "auto", SYSTEM, "auto|off",                                   \
	  "a private mount and IPC namespace where the system allows one")                        \
	X(sandbox, best_effort, BOOL, "no", SYSTEM, NULL,                                         \
	  "run with what the kernel offers instead of refusing")                                  \
	X(sandbox, rlimit_as, OPT_SIZE, "", SYSTEM, NULL,                                         \
	  "RLIMIT_AS of the command (empty: unchanged)")                                          \
	X(sandbox, rlimit_cpu, OPT_DURATION, "", SYSTEM, NULL,                                    \
	  "RLIMIT_CPU of the command (empty: unchanged)")                                         \
	X(sandbox, rlimit_nproc, OPT_COUNT, "", SYSTEM, NULL,                                     \
	  "RLIMIT_NPROC of the command (empty: unchanged)")                                       \
	X(sandbox, rlimit_fsize, OPT_SIZE, RUN_SETTINGS_DEFAULT_FSIZE, SYSTEM, NULL,              \
	  "RLIMIT_FSIZE of the command (empty: unchanged)")                                       \
	X(sandbox, rlimit_nofile, OPT_COUNT, "", SYSTEM, NULL,                                    \
	  "RLIMIT_NOFILE of the command (empty: unchanged)")                                      \
	X(sandbox, rlimit_pids, OPT_COUNT, RUN_SETTINGS_DEFAULT_PIDS, SYSTEM, NULL,               \
	  "the most tasks at once in a sandboxed command's PID namespace (empty: no limit)")      \
	X(sandbox, user, STRING, "", SYSTEM, NULL,                                                \
	  "user to run commands as (needs privileges; empty: the caller)")                        \
	X(network, allow, WORDS, "", SYSTEM, NULL,                                                \
	  "hosts (HOST, *.NAME, IP; optional :PORT) sandboxed commands reach through sluice's "   \
	  "egress proxy when the network is denied (a user layer may not set it once the "        \
	  "system layer set it or [sandbox] network)")                                            \
	X(network, allow_internal, WORDS, "", ONLY, NULL,                                         \
	  "names of allow (HOST, *.NAME; optional :PORT) that may also lead to an address of "    \
	  "the machine or its local networks (private, loopback...), never to a link-local or "   \
	  "cloud metadata address; each covered by allow (a user layer may then not set allow)")  \
	X(network, ask, BOOL, "yes", SYSTEM, NULL,                                                \
	  "put a host not in allow to the approver ([approval] method), to allow it for the "     \
	  "session; no: refused at once (a user layer may not set it once the system layer did)") \
	X(network, ask_internal, BOOL, "no", ONLY, NULL,                                          \
	  "with ask: an IP address of the machine or its local networks (loopback, private, "     \
	  "link-local...) is put to the approver too; no: refused at once, only allow opens it")  \
	X(env, drop, WORDS, CONFIG_DEFAULT_ENV_DROP, APPEND, NULL,                                \
	  "glob patterns of environment variables removed")                                       \
	X(env, set, ASSIGN, "", FREE, NULL,                                                       \
	  "NAME=VALUE set in the command's environment (repeatable)")                             \
	X(approval, method, ENUM, "deny", SYSTEM, "deny|program|terminal",                        \
	  "how an ask verdict is answered")                                                       \
	X(approval, program, PATH, "", ONLY, NULL,                                                \
	  "approver program: request JSON on stdin, exit 0 approves (a user layer may name "      \
	  "one only when user_program = yes)")                                                    \
	X(approval, user_program, BOOL, "no", ONLY, NULL,                                         \
	  "lets user layers name their own approver program")                                     \
	X(approval, timeout, DURATION, "60s", SYSTEM, NULL,                                       \
	  "time an approver gets before the answer is no")                                        \
	X(audit, file, PATH, "", SYSTEM, NULL,                                                    \
	  "audit log file, one JSON line per request (empty: none)")                              \
	X(audit, syslog, BOOL, "no", SYSTEM, NULL, "also send audit lines to syslog")             \
	X(audit, required, BOOL, "no", SYSTEM, NULL,                                              \
	  "refuse a command when its audit line cannot be written")

/*
 * The keys sluice reads itself in a [plugin NAME] section (every other key
 * there is the plugin's own setting): X(key, type, rule, doc), each read
 * into the struct config_plugin field of the same name.
 * Types: BOOL (bool, as above); ABS_PATH (char *, an absolute path).
 * Rules (what a user layer may do with a plugin the system layer set up,
 * unless that section says user_override = yes):
 *   LOCKED      not change it;  NO_DISABLE  not turn it off;
 *   SYSTEM_ONLY nothing, whatever the plugin (read from the system layer only).
 */
#define CONFIG_PLUGIN_KEYS(X)                                                      \
	X(user_override, BOOL, SYSTEM_ONLY,                                        \
	  "lets user layers disable or re-point a plugin the system layer set up") \
	X(enabled, BOOL, NO_DISABLE, "whether the plugin runs")                    \
	X(path, ABS_PATH, LOCKED, "absolute path of the plugin's .so")

#endif
