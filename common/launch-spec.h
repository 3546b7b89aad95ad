/* SPDX-License-Identifier: MIT */
/*
 * The sluice-launch command line as constants: option names, profile names,
 * network values, rlimit names, protection names and the exit status. The
 * broker includes this header to build the launcher's argv, so no string is
 * spelt twice; it sits in common/ where both programs see it.
 * Not for: parsing (launcher/options.c) or any type definitions.
 */
#ifndef SLUICE_LAUNCH_SPEC_H
#define SLUICE_LAUNCH_SPEC_H

/* The program, as its messages name it. */
#define LAUNCH_PROGRAM_NAME "sluice-launch"

/* Options; each takes the argument shown in --help ("--name VALUE" or
 * "--name=VALUE"). Options end at "--" or at the first non-option word. */
#define LAUNCH_OPT_PROFILE "--profile"             /* LAUNCH_PROFILE_* */
#define LAUNCH_OPT_WORKSPACE "--workspace"         /* DIR */
#define LAUNCH_OPT_RW "--rw"                       /* PATH, repeatable */
#define LAUNCH_OPT_TMPDIR "--tmpdir"               /* DIR, also exported as TMPDIR */
#define LAUNCH_OPT_NETWORK "--network"             /* LAUNCH_NETWORK_* */
#define LAUNCH_OPT_UNIX_CONNECT "--unix-connect"   /* LAUNCH_NETWORK_* */
#define LAUNCH_OPT_GIT_WRITABLE "--git-writable"   /* no argument */
#define LAUNCH_OPT_GIT_READ_ONLY "--git-read-only" /* no argument */
#define LAUNCH_OPT_HIDE "--hide"                   /* PATH, repeatable: made unreadable */
/* PATH, repeatable: made unreadable by a mount alone (Landlock too only
 * where there are no mounts): the system's files uid 0 owns */
#define LAUNCH_OPT_COVER "--cover"
/* DIR, repeatable: a tool's cache made writable through an overlay whose
 * layer lies in --overlay-state's folder */
#define LAUNCH_OPT_OVERLAY "--overlay"
#define LAUNCH_OPT_OVERLAY_STATE "--overlay-state" /* DIR: where the overlays' layers are */
#define LAUNCH_OPT_READ_ONLY "--read-only"         /* PATH, repeatable: kept read-only */
#define LAUNCH_OPT_PROTECT "--protect"             /* PATH in the workspace, repeatable */
/* The extended attribute the launcher gives a folder it made for a missing
 * --protect folder entry, so that sluice can take it away once no run
 * covers it (broker/run/protect-folders.h); a mark, not a proof: only an
 * empty folder is ever removed. */
#define LAUNCH_MADE_XATTR "user.sluice.made"
#define LAUNCH_MADE_XATTR_VALUE "protect"
#define LAUNCH_OPT_TMPDIR_SIZE "--tmpdir-size"         /* SIZE: the private TMPDIR's cap */
#define LAUNCH_OPT_TMPDIR_FALLBACK "--tmpdir-fallback" /* DIR: made, the TMPDIR, if no tmpfs */
#define LAUNCH_OPT_NAMESPACE "--namespace"             /* LAUNCH_NAMESPACE_* */
#define LAUNCH_OPT_RLIMIT "--rlimit"                   /* NAME=VALUE, repeatable */
#define LAUNCH_OPT_KEEP_STDIN "--keep-stdin"           /* no argument */
#define LAUNCH_OPT_WAIT_ALL \
	"--wait-all"             /* no argument: the PID namespace ends with its last process */
#define LAUNCH_OPT_USER "--user" /* NAME */
#define LAUNCH_OPT_USER_IDS "--user-ids"       /* UID:GID[:GID,...], --user's ids */
#define LAUNCH_OPT_CHDIR "--chdir"             /* DIR */
#define LAUNCH_OPT_BEST_EFFORT "--best-effort" /* no argument */
#define LAUNCH_OPT_REPORT_FD "--report-fd"     /* N */
#define LAUNCH_OPT_COMMAND_FD "--command-fd"   /* N: the last argument arrives there */
/* N: with a PID namespace, the program's wait status (an int, 4 bytes in
 * this machine's order) once every process of the run has ended, stdout
 * and stderr closed just before; the caller may take the run as over
 * then, without waiting for the launcher's own exit (its namespaces' end).
 * Nothing is written without a PID namespace: the caller waits for the
 * launcher's exit there. */
#define LAUNCH_OPT_END_FD "--end-fd"
#define LAUNCH_OPT_DIE_WITH_PARENT "--die-with-parent" /* PID: the parent; SIGKILL when it ends */
#define LAUNCH_OPT_PRINT_FEATURES "--print-features"   /* no argument; prints JSON, exits 0 */
#define LAUNCH_OPT_SPEC_FD "--spec-fd"                 /* N, alone: the options arrive there */
/* SOCKET: join the network namespace of the workspace's holder there */
#define LAUNCH_OPT_NETWORK_HOLDER "--network-holder"
/* --network-holder's word for "wanted, but none could be had": the run
 * makes its own network namespace, and reports workspace-network missing */
#define LAUNCH_NETWORK_HOLDER_NONE "none"
/* PATTERN (repeatable): with the network denied, the hosts reached through
 * the egress proxy (common/egress-allow.h) */
#define LAUNCH_OPT_EGRESS_ALLOW "--egress-allow"
/* PATTERN (repeatable): a name of --egress-allow's (each pattern covered by
 * them) that may also lead to an address of the machine or its local
 * networks, link-local and the clouds' metadata addresses excepted */
#define LAUNCH_OPT_EGRESS_ALLOW_INTERNAL "--egress-allow-internal"
/* N: the egress proxy's audit channel (common/egress-audit.h), which only
 * the proxy keeps: the program never has it */
#define LAUNCH_OPT_EGRESS_AUDIT_FD "--egress-audit-fd"
/* N: where the egress proxy asks the broker about a host not on the list
 * (common/egress-ask.h), which only the proxy keeps */
#define LAUNCH_OPT_EGRESS_ASK_FD "--egress-ask-fd"
/* DURATION: how long the proxy waits for an answer (default 60s) */
#define LAUNCH_OPT_EGRESS_ASK_WAIT "--egress-ask-wait"
#define LAUNCH_EGRESS_ASK_WAIT_DEFAULT "60s"
/* with --egress-ask-fd: an IP literal of an internal address (loopback,
 * private, link-local...) is asked about too, not refused at once */
#define LAUNCH_OPT_EGRESS_ASK_INTERNAL "--egress-ask-internal"
/* SOCKET: become the holder of a workspace's network namespace, listening
 * there; the launcher's process exits 0 once the holder is ready */
#define LAUNCH_OPT_HOLD_NETWORK "--hold-network"
/* DURATION: how long the holder stays without a connection (default 60s) */
#define LAUNCH_OPT_HOLD_IDLE "--hold-idle"
#define LAUNCH_HOLD_IDLE_DEFAULT "60s"
/* LOCK: remove the --workspace's empty folders that a run made for its
 * --protect folder entries and no run holds now (launcher/protect-tidy.h),
 * --tidy-after from now; LOCK (taken without waiting) is held meanwhile,
 * and a tidier that finds it held leaves at once. With a wait, the
 * launcher's process exits 0 and the tidier stays in the background. */
#define LAUNCH_OPT_TIDY_PROTECTED "--tidy-protected"
/* PATH: the lock file of the workspace's runs in sluice's jobs directory,
 * which no sandboxed command sees: a run's launcher holds it shared while
 * it covers --protect folders, a tidier takes it exclusively before it
 * removes any (launcher/protect-tidy.h) */
#define LAUNCH_OPT_PROTECT_LOCK "--protect-lock"
#define LAUNCH_OPT_TIDY_AFTER "--tidy-after" /* DURATION (default 60s; 0: now) */
#define LAUNCH_TIDY_AFTER_DEFAULT "60s"

/* The holder answers each connection with this byte and, as SCM_RIGHTS,
 * the descriptors of its user and network namespaces (in that order). A
 * starter connects holding the lock file SOCKET NET_HOLDER_LOCK_SUFFIX,
 * which the holder takes before it removes SOCKET and leaves. */
#define NET_HOLDER_ANSWER 'N'
#define NET_HOLDER_LOCK_SUFFIX ".lock"

/* A failed step reads "sluice-launch: STEP: ..." on stderr and is the line
 * {"error":STEP,"errno":N,"message":"...","detail":"..."} on --report-fd.
 * These two the broker tells apart: the step that refuses a profile this
 * kernel cannot enforce (sandbox_unavailable), and the exec of the program. */
#define LAUNCH_STEP_FEATURES "features"
#define LAUNCH_STEP_EXEC "exec"
#define LAUNCH_OPT_HELP "--help"
#define LAUNCH_OPT_VERSION "--version"
#define LAUNCH_OPT_END "--"

/* Values of --profile; the default is LAUNCH_PROFILE_RESTRICTED. */
#define LAUNCH_PROFILE_UNRESTRICTED "unrestricted"
#define LAUNCH_PROFILE_WORKSPACE_WRITE "workspace-write"
#define LAUNCH_PROFILE_RESTRICTED "restricted"

/* Values of --namespace: use a private mount and IPC namespace where one
 * can be had (the default), or never. */
#define LAUNCH_NAMESPACE_AUTO "auto"
#define LAUNCH_NAMESPACE_OFF "off"

/* The private TMPDIR's size when --tmpdir-size is not given. */
#define LAUNCH_TMPDIR_SIZE_DEFAULT "1GiB"

/* Values of --network and --unix-connect (default: deny in the sandboxed
 * profiles; the unrestricted profile ignores both). */
#define LAUNCH_NETWORK_ALLOW "allow"
#define LAUNCH_NETWORK_DENY "deny"

/* NAME in --rlimit NAME=VALUE. as, fsize, core: sizes ("512MiB");
 * cpu: a duration ("30s", "15m"; a bare number is seconds);
 * nproc, nofile, pids: plain counts. pids is not a setrlimit(2) limit: the
 * most tasks (processes and threads) at once in the run's PID namespace. */
#define LAUNCH_RLIMIT_AS "as"
#define LAUNCH_RLIMIT_CPU "cpu"
#define LAUNCH_RLIMIT_NPROC "nproc"
#define LAUNCH_RLIMIT_FSIZE "fsize"
#define LAUNCH_RLIMIT_NOFILE "nofile"
#define LAUNCH_RLIMIT_CORE "core"
#define LAUNCH_RLIMIT_PIDS "pids"

/* Names of the protections in the "enforced" and "missing" arrays of
 * --report-fd and --print-features. */
#define LAUNCH_PROT_SESSION "session"               /* setsid or TIOCNOTTY: no controlling tty */
#define LAUNCH_PROT_CLOSE_FDS "close-fds"           /* descriptors above 2 closed */
#define LAUNCH_PROT_NO_NEW_PRIVS "no-new-privs"     /* PR_SET_NO_NEW_PRIVS */
#define LAUNCH_PROT_NO_CAPS "no-capabilities"       /* every capability set empty */
#define LAUNCH_PROT_RLIMIT_NPROC "rlimit-nproc"     /* asked for, and binding for this uid */
#define LAUNCH_PROT_LANDLOCK_FS "landlock-fs"       /* ABI 1: filesystem rules */
#define LAUNCH_PROT_LANDLOCK_REFER "landlock-refer" /* ABI 2: rename/link across dirs */
#define LAUNCH_PROT_LANDLOCK_TRUNCATE "landlock-truncate"              /* ABI 3 */
#define LAUNCH_PROT_LANDLOCK_TCP "landlock-tcp"                        /* ABI 4: bind/connect */
#define LAUNCH_PROT_LANDLOCK_IOCTL_DEV "landlock-ioctl-dev"            /* ABI 5 */
#define LAUNCH_PROT_LANDLOCK_SCOPE_UNIX "landlock-scope-abstract-unix" /* ABI 6 */
#define LAUNCH_PROT_LANDLOCK_SCOPE_SIGNAL "landlock-scope-signal"      /* ABI 6 */
#define LAUNCH_PROT_SECCOMP_SOCKETS "seccomp-sockets"                  /* only AF_UNIX sockets */
#define LAUNCH_PROT_SECCOMP_UNIX_CONNECT "seccomp-unix-connect"        /* connect(2) refused */
#define LAUNCH_PROT_SECCOMP_IO_URING "seccomp-io-uring"                /* io_uring_* refused */
/* prlimit, setpriority, ioprio_set, sched_set* on other processes refused */
#define LAUNCH_PROT_SECCOMP_OTHER_PROCESSES "seccomp-other-processes"
#define LAUNCH_PROT_SECCOMP_SETID_MODES "seccomp-setid-modes" /* no setuid/setgid modes */
/* add_key, keyctl, request_key and fcntl F_SETLEASE refused */
#define LAUNCH_PROT_SECCOMP_KEYRINGS_LEASES "seccomp-keyrings-leases"
/* The namespace layer, where one can be had (never a reason to refuse): */
#define LAUNCH_PROT_MOUNT_NAMESPACE "mount-namespace" /* read-only but the writable paths */
#define LAUNCH_PROT_IPC_NAMESPACE "ipc-namespace"     /* private System V IPC, POSIX mq */
#define LAUNCH_PROT_TMPDIR_TMPFS "tmpdir-tmpfs"       /* TMPDIR a size-capped tmpfs */
#define LAUNCH_PROT_PRIVATE_TMP "private-tmp"         /* /tmp that tmpfs: the host's out of sight */
#define LAUNCH_PROT_HIDDEN_PATHS "hidden-paths"       /* every --hide path unreadable */
#define LAUNCH_PROT_READ_ONLY_PATHS "read-only-paths" /* every --read-only path read-only */
/* workspace-write: the files git's configuration includes and its
 * core.hooksPath folders, where they lie in a writable path, read-only */
#define LAUNCH_PROT_GIT_INCLUDES "git-includes"

/* The key of the --report-fd line saying why the repository a ".git" file
 * names outside the workspace was left read-only (absent when it was not). */
#define LAUNCH_REPORT_GIT_READ_ONLY "git_read_only"
/* The key of the --report-fd line's object of each step's wall time, in
 * microseconds, by step name, in the order they ran ("namespace-ahead"
 * first when --spec-fd sent it): what building the sandbox cost. */
#define LAUNCH_REPORT_STEPS_US "steps_us"
#define LAUNCH_STEP_NAMESPACE_AHEAD "namespace-ahead"
#define LAUNCH_PROT_PROTECTED_PATHS "protected-paths" /* --protect paths kept read-only */
#define LAUNCH_PROT_MINIMAL_DEV "minimal-dev"         /* /dev: a few devices, no terminals */
#define LAUNCH_PROT_PID_NAMESPACE "pid-namespace" /* own PIDs and /proc; all end with the program */
#define LAUNCH_PROT_NET_NAMESPACE "net-namespace" /* own network: loopback only, abstract names */
/* --network-holder: the network namespace is the workspace's, shared with
 * its other runs and jobs (a server one starts, the next reaches) */
#define LAUNCH_PROT_WORKSPACE_NETWORK "workspace-network"
#define LAUNCH_PROT_PIDS_LIMIT "pids-limit" /* --rlimit pids: at most N tasks at once */
/* Without a PID namespace, with --die-with-parent: the launcher stays as
 * the subreaper of the program's tree and kills all of it (whatever left
 * the process group) when that parent ends */
#define LAUNCH_PROT_REAPER "reaper"

/* With --command-fd N, the launcher builds the whole sandbox first, then
 * reads from descriptor N up to end of file: a directory (empty: keep
 * --chdir), one NUL byte, the command text, which becomes PROGRAM's last
 * argument, and a final NUL byte. End of file before any byte means the
 * caller withdrew; end of file before the final NUL, that the caller
 * withdrew or died while sending: either way nothing runs. The text is at
 * most LAUNCH_COMMAND_MAX bytes (one argument's limit in the kernel, 128 KiB
 * with the string's NUL) and holds no NUL byte. */
#define LAUNCH_COMMAND_MAX (128 * 1024 - 1)

/* The longest whole message on --command-fd: a directory (a path, at most
 * PATH_MAX bytes from <limits.h>) and its NUL, the command and its NUL. */
#define LAUNCH_COMMAND_MESSAGE_MAX (PATH_MAX + 1 + LAUNCH_COMMAND_MAX + 1)

/* With --spec-fd N as its only option, the launcher reads its options and
 * the program's environment from descriptor N up to end of file, instead of
 * its command line and its own environment, so that a caller can start it
 * before it knows them: each option word and its NUL byte, an empty word
 * (one more NUL), then each NAME=VALUE of the environment and its NUL. End
 * of file before any option means the caller withdrew: nothing runs. At
 * most LAUNCH_SPEC_MAX bytes, LAUNCH_SPEC_NAMESPACE_AHEAD included. */
#define LAUNCH_SPEC_MAX (8 * 1024 * 1024)

/* The word a caller of --spec-fd may send first, with its NUL, alone and as
 * soon as it knows that the options will plan the namespace layer (a
 * sandboxed profile, not --namespace off) with the network denied: the
 * launcher enters its namespaces (the network namespace included) at once,
 * while the caller prepares the rest, instead of in step "namespaces".
 * Options that then plan none, or allow the network, are refused. */
#define LAUNCH_SPEC_NAMESPACE_AHEAD "--namespace-ahead"

/* Every failure of sluice-launch's own exits with this status; once the
 * program is exec'd, the status is the program's. */
#define LAUNCH_EXIT_FAILURE 125

#endif
