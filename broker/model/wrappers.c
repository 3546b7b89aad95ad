/* SPDX-License-Identifier: MIT */
/*
 * The wrapper table and the reading of a wrapper's own options (see
 * wrappers.h). Option letters follow the GNU coreutils, sudo, doas and
 * util-linux manuals; an option not in a row is taken as a flag and the
 * match says so, so that a policy can be careful.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "cleanup.h"
#include "shell/shell-words.h"
#include "model/wrappers.h"

/* The options of setarch and of its other names (linux32, linux64). */
#define SETARCH_OPTIONS                                                                       \
	.short_flags = "BFILRSTXZ3v",                                                         \
	.longopts = "32bit,fdpic-funcptrs,short-inode,addr-compat-layout,addr-no-randomize,"  \
	            "whole-seconds,sticky-timeouts,read-implies-exec,mmap-page-zero,3gb,4gb," \
	            "uname-2.6,verbose",                                                      \
	.stop_opts = "hV", .stop_longopts = "list,help,version"

/* The options of timeout (gtimeout: its name in GNU coreutils elsewhere). */
#define TIMEOUT_OPTIONS                                                       \
	.short_with_arg = "sk", .short_flags = "v",                           \
	.longopts = "signal=,kill-after=,preserve-status,foreground,verbose", \
	.stop_longopts = "help,version", .positionals = 1

/* npx, and npm exec: [options] COMMAND [ARGS], -c a command string; -p
 * names a package to install first, not the command */
#define NPX_OPTIONS                                                              \
	.short_with_arg = "pcw", .short_flags = "yq",                            \
	.longopts = "package=,call=,yes,no,quiet,silent,workspace=,workspaces,"  \
	            "include-workspace-root,prefix=,registry=,cache=,loglevel=", \
	.stop_longopts = "help,version", .string_opts = "c", .string_longopts = "call"

/* conda run (mamba, micromamba): the environment by name or prefix */
#define CONDA_RUN_OPTIONS                                                           \
	.short_with_arg = "np", .short_flags = "v",                                 \
	.longopts = "name=,prefix=,cwd=,live-stream,no-capture-output,dev,verbose", \
	.stop_opts = "h", .stop_longopts = "help", .chdir_longopts = "cwd", .subcommands = "run"

/* One row per wrapper. Keep sorted by name (bsearch). "help,version" stop
 * a GNU or util-linux tool: it prints and runs nothing. */
static const struct wrapper wrappers[] = {
	{ .name = "builtin" },
	/* bun x: bunx; bun -e CODE is node's language (interp-invocation.c) */
	{ .name = "bun",
	  .short_with_arg = "p",
	  .longopts = "bun,package=,silent,verbose",
	  .subcommands = "x" },
	/* bun's npx: bunx [--bun] [-p PKG] COMMAND [ARGS] */
	{ .name = "bunx", .short_with_arg = "p", .longopts = "bun,package=,silent,verbose" },
	{ .name = "busybox", .stop_longopts = "list,list-full,help" },
	/* bubblewrap: its options take up to three words, never attached */
	{ .name = "bwrap",
	  .longopts = "args=,argv0=,level-prefix,unshare-all,share-net,unshare-user,"
	              "unshare-user-try,unshare-ipc,unshare-pid,unshare-net,unshare-uts,"
	              "unshare-cgroup,unshare-cgroup-try,userns=,userns2=,pidns=,disable-userns,"
	              "assert-userns-disabled,uid=,gid=,hostname=,chdir=,clearenv,setenv==,"
	              "unsetenv=,lock-file=,sync-fd=,bind==,bind-try==,dev-bind==,dev-bind-try==,"
	              "ro-bind==,ro-bind-try==,bind-fd==,ro-bind-fd==,remount-ro=,overlay-src=,"
	              "overlay===,tmp-overlay=,ro-overlay=,exec-label=,file-label=,proc=,dev=,"
	              "tmpfs=,mqueue=,dir=,file==,bind-data==,ro-bind-data==,symlink==,seccomp=,"
	              "add-seccomp-fd=,block-fd=,userns-block-fd=,info-fd=,json-status-fd=,"
	              "new-session,die-with-parent,as-pid-1,cap-add=,cap-drop=,perms=,size=,"
	              "chmod==",
	  .stop_longopts = "help,version",
	  .chdir_longopts = "chdir" },
	{ .name = "caffeinate", .short_with_arg = "tw", .short_flags = "dimsu" },
	{ .name = "catchsegv" },
	{ .name = "cgexec",
	  .short_with_arg = "g",
	  .short_flags = "r",
	  .longopts = "sticky",
	  .stop_opts = "h" },
	{ .name = "chpst", .short_with_arg = "uUbe/nlLmdopfcrt", .short_flags = "vP012" },
	{ .name = "chroot",
	  .longopts = "userspec=,groups=,skip-chdir",
	  .positionals = 1,
	  .stop_longopts = "help,version" },
	/* chrt [options] PRIORITY COMMAND; -p works on a pid, -m only prints */
	{ .name = "chrt",
	  .short_with_arg = "TPD",
	  .short_flags = "bdfioraRv",
	  .longopts = "batch,deadline,fifo,idle,other,rr,reset-on-fork,sched-runtime=,"
	              "sched-period=,sched-deadline=,all-tasks,verbose",
	  .stop_opts = "mphV",
	  .stop_longopts = "max,pid,help,version",
	  .positionals = 1 },
	{ .name = "command", .short_flags = "p", .stop_opts = "vV" },
	/* conda run [-n ENV | -p PREFIX] COMMAND (mamba, micromamba alike) */
	{ .name = "conda", CONDA_RUN_OPTIONS },
	{ .name = "dbus-run-session",
	  .longopts = "config-file=,dbus-daemon=",
	  .stop_longopts = "help,version" },
	{ .name = "doas", .short_with_arg = "uC", .short_flags = "nsL", .stop_opts = "CL" },
	{ .name = "eatmydata" },
	{ .name = "env",
	  .short_with_arg = "uCS",
	  .short_flags = "i0v",
	  .longopts = "ignore-environment,null,unset=,chdir=,split-string=,debug,block-signal?,"
	              "default-signal?,ignore-signal?",
	  .stop_longopts = "list-signal-handling,help,version",
	  .chdir_opts = "C",
	  .chdir_longopts = "chdir",
	  .string_opts = "S",
	  .string_longopts = "split-string",
	  .flags = WRAP_ASSIGNMENTS | WRAP_STRING_ARGS },
	{ .name = "exec", .short_with_arg = "a", .short_flags = "cl" },
	{ .name = "fakeroot",
	  .short_with_arg = "lisb",
	  .short_flags = "u",
	  .longopts = "lib=,faked=,unknown-is-real,fd-base=",
	  .stop_opts = "hv",
	  .stop_longopts = "help,version" },
	{ .name = "faketime",
	  .short_flags = "mf",
	  .longopts = "exclude-monotonic,disable-shm,date-prog=",
	  .stop_opts = "hv",
	  .stop_longopts = "help,version",
	  .positionals = 1 },
	{ .name = "find", .flags = WRAP_EXEC_CLAUSES | WRAP_ARGV_INCOMPLETE },
	/* firejail's options are single words (--private, --net=none) */
	{ .name = "firejail",
	  .stop_longopts = "help,version,list,tree,top,join?,join-network?,join-filesystem?,"
	                   "shutdown?,ls?,get?,put?,debug-syscalls,debug-caps,debug-protocols,"
	                   "debug-errnos,audit?,build?,netstats,overlay-clean,fs.print?,"
	                   "dns.print?,caps.print?,seccomp.print?,protocol.print?,cpu.print?,"
	                   "apparmor.print?,net.print?",
	  .flags = WRAP_LONG_ANY },
	{ .name = "flock",
	  .short_with_arg = "wE",
	  .short_flags = "sexnouF",
	  .longopts = "shared,exclusive,unlock,nonblock,nb,close,no-fork,timeout=,wait=,"
	              "conflict-exit-code=,verbose",
	  .stop_opts = "hV",
	  .stop_longopts = "help,version",
	  .positionals = 1,
	  .flags = WRAP_COMMAND_AFTER },
	{ .name = "gtimeout", TIMEOUT_OPTIONS },
	{ .name = "ionice",
	  .short_with_arg = "cnpPu",
	  .short_flags = "t",
	  .longopts = "class=,classdata=,pid=,pgid=,uid=,ignore",
	  .stop_opts = "pPuhV",
	  .stop_longopts = "pid,pgid,uid,help,version" },
	{ .name = "linux32", SETARCH_OPTIONS },
	{ .name = "linux64", SETARCH_OPTIONS },
	{ .name = "ltrace",
	  .short_with_arg = "aADeFlnopsuwx",
	  .short_flags = "bcCfhiLrStTV",
	  .longopts = "align=,demangle,library=,output=,indent=,config=,help,version",
	  .stop_opts = "hV",
	  .stop_longopts = "help,version" },
	{ .name = "mamba", CONDA_RUN_OPTIONS },
	{ .name = "micromamba", CONDA_RUN_OPTIONS },
	{ .name = "nice",
	  .short_with_arg = "n",
	  .longopts = "adjustment=",
	  .stop_longopts = "help,version",
	  .flags = WRAP_NUMERIC_OPT },
	{ .name = "nocache", .short_with_arg = "n" },
	{ .name = "nohup", .stop_longopts = "help,version" },
	/* npm exec (npm x): the options of npx */
	{ .name = "npm", NPX_OPTIONS, .subcommands = "exec,x" },
	/* nsenter: an optional argument is attached (-m/ns, --mount=/ns) */
	/* npm exec's short name */
	{ .name = "npx", NPX_OPTIONS },
	{ .name = "nsenter",
	  .short_with_arg = "tSGW",
	  .short_flags = "aFZ",
	  .short_attached = "muinpCUTrw",
	  .longopts = "all,target=,mount?,uts?,ipc?,net?,pid?,cgroup?,user?,time?,setuid=,"
	              "setgid=,preserve-credentials,root?,wd?,wdns=,no-fork,follow-context,env,"
	              "join-cgroup,keep-caps",
	  .stop_opts = "hV",
	  .stop_longopts = "help,version" },
	{ .name = "numactl",
	  .short_with_arg = "ipPCNmwMSIfLo",
	  .short_flags = "albuTt",
	  .longopts = "all,interleave=,weighted-interleave=,preferred=,preferred-many=,"
	              "physcpubind=,cpunodebind=,membind=,localalloc,balancing,huge,touch,strict,"
	              "shmmode=,shm=,shmid=,file=,length=,offset=",
	  .stop_opts = "sHdDVh",
	  .stop_longopts = "show,hardware,dump,dump-nodes,version,help" },
	{ .name = "parallel",
	  .short_with_arg = "aCdEIjlLnNPsS",
	  .short_flags = "0kmqrtuvX",
	  .longopts = "jobs=,keep-order,null,arg-file=,max-args=,max-procs=,max-lines=,colsep=,"
	              "delimiter=,joblog=,results=,halt=,timeout=,tag,will-cite,bar,eta,progress,"
	              "pipe,line-buffer,group,ungroup,verbose,quote,no-run-if-empty,dry-run",
	  .flags = WRAP_SHELL_JOIN | WRAP_ARGV_INCOMPLETE },
	{ .name = "pdm",
	  .short_with_arg = "p",
	  .short_flags = "sgvq",
	  .longopts = "project=,site-packages,global,verbose,quiet,venv=,recreate,skip=",
	  .stop_opts = "lh",
	  .stop_longopts = "list,json,help",
	  .subcommands = "run" },
	{ .name = "pipenv",
	  .short_flags = "vq",
	  .longopts = "python=,verbose,quiet,system,site-packages",
	  .stop_opts = "h",
	  .stop_longopts = "help",
	  .subcommands = "run" },
	{ .name = "pixi",
	  .short_with_arg = "e",
	  .short_flags = "vq",
	  .longopts = "manifest-path=,environment=,frozen,locked,no-install,revalidate,"
	              "clean-env,force-activate,verbose,quiet,color=,no-progress",
	  .stop_opts = "h",
	  .stop_longopts = "help",
	  .subcommands = "run" },
	{ .name = "pkexec",
	  .longopts = "user=,keep-cwd,disable-internal-agent",
	  .stop_longopts = "help,version" },
	/* pnpm exec / dlx: -c (shell mode) is not listed, so it asks */
	{ .name = "pnpm",
	  .short_flags = "r",
	  .longopts = "package=,recursive,parallel,silent,workspace-root,filter=,"
	              "resume-from=,report-summary,reporter=,dir=",
	  .stop_opts = "h",
	  .stop_longopts = "help",
	  .subcommands = "exec,dlx" },
	{ .name = "poetry",
	  .short_with_arg = "CP",
	  .short_flags = "qvn",
	  .longopts = "directory=,project=,quiet,verbose,no-interaction,no-ansi,ansi,"
	              "no-plugins,no-cache",
	  .stop_opts = "hV",
	  .stop_longopts = "help,version",
	  .subcommands = "run" },
	/* prlimit: a resource's limit is optional and attached (--nofile=64) */
	{ .name = "prlimit",
	  .short_with_arg = "o",
	  .short_attached = "cdefilmnqrstuvxy",
	  .longopts = "output=,noheadings,raw,verbose,core?,data?,nice?,fsize?,sigpending?,"
	              "memlock?,rss?,nofile?,msgqueue?,rtprio?,stack?,cpu?,nproc?,as?,locks?,"
	              "rttime?",
	  .stop_opts = "phV",
	  .stop_longopts = "pid,help,version" },
	{ .name = "proxychains", .short_with_arg = "f", .short_flags = "q" },
	{ .name = "proxychains4", .short_with_arg = "f", .short_flags = "q" },
	/* run0 [options] [COMMAND]: without one, a shell (the command itself) */
	{ .name = "run0",
	  .short_with_arg = "ugD",
	  .short_flags = "i",
	  .longopts = "no-ask-password,machine=,unit=,property=,description=,slice=,"
	              "slice-inherit,user=,group=,nice=,chdir=,setenv=,background=,"
	              "shell-prompt-prefix=,pty,pipe,via-shell,empower,lightweight=,area=",
	  .stop_opts = "hV",
	  .stop_longopts = "help,version",
	  .chdir_opts = "D",
	  .chdir_longopts = "chdir" },
	{ .name = "rye",
	  .longopts = "pyproject=",
	  .stop_opts = "lh",
	  .stop_longopts = "list,help",
	  .subcommands = "run" },
	{ .name = "script",
	  .short_with_arg = "cBEImoOT",
	  .short_flags = "aefqw",
	  .short_attached = "t",
	  .longopts = "append,command=,echo=,return,flush,force,quiet,timing,log-in=,log-out=,"
	              "log-io=,log-timing=,logging-format=,output-limit=",
	  .string_opts = "c",
	  .string_longopts = "command",
	  .flags = WRAP_PERMUTE },
	/* setarch ARCH [options] COMMAND (linux32, linux64 ... name the arch) */
	{ .name = "setarch", SETARCH_OPTIONS, .positionals = 1, .flags = WRAP_POSITIONALS_FIRST },
	/* setpriv: every option long, --dump prints and runs nothing */
	{ .name = "setpriv",
	  .longopts = "nnp,no-new-privs,ambient-caps=,inh-caps=,bounding-set=,ruid=,euid=,"
	              "rgid=,egid=,reuid=,regid=,clear-groups,keep-groups,init-groups,groups=,"
	              "securebits=,pdeathsig=,selinux-label=,apparmor-profile=,landlock-access=,"
	              "landlock-rule=,reset-env",
	  .stop_opts = "dhV",
	  .stop_longopts = "dump,help,version" },
	{ .name = "setsid",
	  .short_flags = "cfw",
	  .longopts = "ctty,fork,wait",
	  .stop_opts = "hV",
	  .stop_longopts = "help,version" },
	/* sg GROUP [-c] COMMAND: the command is a string for /bin/sh */
	{ .name = "sg", .positionals = 1, .flags = WRAP_SHELL_JOIN | WRAP_COMMAND_AFTER },
	{ .name = "ssh-agent", .short_with_arg = "aEPtO", .short_flags = "csDd", .stop_opts = "k" },
	{ .name = "stdbuf",
	  .short_with_arg = "ioe",
	  .longopts = "input=,output=,error=",
	  .stop_longopts = "help,version" },
	{ .name = "strace",
	  .short_with_arg = "abeEIoOpPsSuUX",
	  .short_flags = "cCdDfFhiknqrtTvVwxyzZ",
	  .longopts = "output=,trace=,signal=,status=,attach=,string-limit=,user=,env=,"
	              "summary-only,summary,follow-forks,output-separately,decode-fds,"
	              "seccomp-bpf,no-abbrev,verbose,raw=,read=,write=,inject=,fault=,quiet",
	  .stop_opts = "hV",
	  .stop_longopts = "help,version" },
	{ .name = "sudo",
	  .short_with_arg = "CDghpRrTtUu",
	  .short_flags = "AbBEHiKknNPSs",
	  .longopts = "user=,group=,prompt=,chdir=,chroot=,close-from=,host=,role=,type=,"
	              "command-timeout=,other-user=,preserve-env?,login,shell,non-interactive,"
	              "background,stdin,set-home,askpass,preserve-groups,reset-timestamp,"
	              "remove-timestamp,bell,no-update",
	  .stop_opts = "elvV",
	  .stop_longopts = "edit,list,validate,version,help",
	  .chdir_opts = "D",
	  .chdir_longopts = "chdir",
	  .flags = WRAP_ASSIGNMENTS },
	{ .name = "systemd-run",
	  .short_with_arg = "HMupE",
	  .short_flags = "rdtPqGS",
	  .longopts = "no-ask-password,user,system,host=,machine=,scope,unit=,property=,"
	              "description=,slice=,slice-inherit,no-block,remain-after-exit,wait,"
	              "send-sighup,service-type=,uid=,gid=,nice=,working-directory=,same-dir,"
	              "setenv=,pty,pipe,quiet,collect,shell,path-property=,socket-property=,"
	              "on-active=,on-boot=,on-startup=,on-unit-active=,on-unit-inactive=,"
	              "on-calendar=,on-timezone-change,on-clock-change,timer-property=,"
	              "expand-environment=,ignore-failure,background=,json=,job-mode=,capsule=,"
	              "pty-late",
	  .stop_opts = "h",
	  .stop_longopts = "help,version",
	  .chdir_longopts = "working-directory" },
	{ .name = "taskset",
	  .short_flags = "ac",
	  .longopts = "all-tasks,cpu-list",
	  .stop_opts = "phV",
	  .stop_longopts = "pid,help,version",
	  .positionals = 1 },
	{ .name = "time",
	  .short_with_arg = "fo",
	  .short_flags = "pvaq",
	  .longopts = "format=,output=,append,verbose,portability,quiet",
	  .stop_opts = "V",
	  .stop_longopts = "help,version" },
	{ .name = "timeout", TIMEOUT_OPTIONS },
	{ .name = "torsocks",
	  .short_with_arg = "upaP",
	  .short_flags = "idq46",
	  .longopts = "user=,pass=,address=,port=,isolate,debug,quiet",
	  .stop_opts = "h",
	  .stop_longopts = "shell,version,help" },
	/* a multiplexer as busybox is: toybox rm -rf x is rm -rf x */
	{ .name = "toybox", .stop_longopts = "help,version" },
	{ .name = "trickle", .short_with_arg = "duwtln", .short_flags = "vs", .stop_opts = "hV" },
	{ .name = "unbuffer", .short_flags = "p" },
	{ .name = "unshare",
	  .short_with_arg = "RwSG",
	  .short_flags = "frc",
	  .short_attached = "muinpUCT",
	  .longopts = "mount?,uts?,ipc?,net?,pid?,user?,cgroup?,time?,fork,map-user=,map-group=,"
	              "map-root-user,map-current-user,map-auto,map-users=,map-groups=,kill-child?,"
	              "mount-proc?,propagation=,setgroups=,keep-caps,root=,wd=,setuid=,setgid=,"
	              "monotonic=,boottime=,load-interp=",
	  .stop_opts = "hV",
	  .stop_longopts = "help,version",
	  .chdir_opts = "w",
	  .chdir_longopts = "wd" },
	/* uv run [options] COMMAND; -m MODULE runs python's module (no
	 * command of the model), --with PKG adds a package */
	{ .name = "uv",
	  .short_with_arg = "pw",
	  .short_flags = "qvs",
	  .longopts = "with=,with-editable=,with-requirements=,python=,project=,directory=,"
	              "env-file=,extra=,group=,no-group=,only-group=,package=,index=,"
	              "default-index=,index-url=,extra-index-url=,cache-dir=,config-file=,"
	              "color=,refresh-package=,reinstall-package=,upgrade-package=,"
	              "prerelease=,resolution=,link-mode=,frozen,locked,no-sync,isolated,"
	              "no-project,all-extras,no-dev,only-dev,active,no-active,quiet,verbose,"
	              "offline,no-cache,refresh,reinstall,upgrade,exact,no-editable,script,"
	              "gui-script,all-packages,all-groups,no-config,no-env-file,"
	              "compile-bytecode,no-progress,native-tls",
	  .stop_opts = "mh",
	  .stop_longopts = "module,help,version",
	  .chdir_longopts = "directory",
	  .subcommands = "run" },
	/* valgrind's options are single words (--tool=memcheck) */
	{ .name = "valgrind",
	  .short_flags = "qvsd",
	  .stop_opts = "h",
	  .stop_longopts = "help,help-debug,help-dyn-options,version",
	  .flags = WRAP_LONG_ANY },
	{ .name = "watch",
	  .short_with_arg = "nq",
	  .short_flags = "tbegcCxpw",
	  .short_attached = "d",
	  .longopts = "interval=,equexit=,differences?,no-title,beep,errexit,chgexit,color,"
	              "no-color,exec,precise,no-wrap,no-linewrap",
	  .stop_opts = "hv",
	  .stop_longopts = "help,version",
	  .direct_opts = "x",
	  .flags = WRAP_SHELL_JOIN },
	{ .name = "xargs",
	  .short_with_arg = "adEILnPs",
	  .short_flags = "0oprtx",
	  .short_attached = "eil",
	  .longopts = "arg-file=,delimiter=,eof?,replace?,max-lines?,max-args=,max-procs=,"
	              "max-chars=,null,no-run-if-empty,verbose,interactive,exit,open-tty,"
	              "process-slot-var=",
	  .stop_longopts = "show-limits,help,version",
	  .flags = WRAP_ARGV_INCOMPLETE },
	{ .name = "xvfb-run",
	  .short_with_arg = "efnpsw",
	  .short_flags = "adl",
	  .longopts = "auto-servernum,auto-display,error-file=,auth-file=,server-num=,"
	              "listen-tcp,xauth-protocol=,server-args=,wait=",
	  .stop_opts = "h",
	  .stop_longopts = "help" },
	/* yarn dlx / exec (berry) */
	{ .name = "yarn",
	  .short_with_arg = "p",
	  .short_flags = "q",
	  .longopts = "package=,quiet",
	  .stop_opts = "h",
	  .stop_longopts = "help",
	  .subcommands = "dlx,exec" },
};

static int wrapper_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct wrapper *)elem)->name);
}

const struct wrapper *wrapper_find(const char *name)
{
	return bsearch(name, wrappers, ELEMENTSOF(wrappers), sizeof(wrappers[0]), wrapper_cmp);
}

static bool has_char(const char *set, char c)
{
	return set && c && strchr(set, c);
}

/* One item of a comma list of long options, p[0..len): "name" (a flag),
 * "name=" (an argument, attached or the next word), "name==" (two: the
 * next words), "name?" (an optional argument, attached only). Returns the
 * name's length; *args: how many words of arguments it takes. */
static size_t item_name(const char *p, size_t len, unsigned *args)
{
	*args = 0;
	if (len > 0 && p[len - 1] == '?')
		return len - 1;
	while (len > 0 && p[len - 1] == '=') {
		len--;
		++*args;
	}
	return len;
}

/* Is name[0..len) in the comma list? *args: the words of arguments it takes. */
static bool in_list(const char *list, const char *name, size_t len, unsigned *args)
{
	if (!list)
		return false;
	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t item = end ? (size_t)(end - p) : strlen(p);
		unsigned n_args;
		size_t nlen = item_name(p, item, &n_args);
		if (nlen == len && strncmp(p, name, len) == 0) {
			if (args)
				*args = n_args;
			return true;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

/* The option of the comma lists that name[0..len) spells, as getopt_long
 * takes it: the one named so, else the only one it begins (--comm is
 * --command); into *item, *item_len (the name's). False when none or
 * several are (getopt_long refuses an ambiguous one: nothing runs). */
static bool resolve_long(const char *const *lists, size_t n_lists, const char *name, size_t len,
                         const char **item, size_t *item_len)
{
	const char *found = NULL;
	size_t found_len = 0;
	bool ambiguous = false;
	for (size_t l = 0; l < n_lists; l++) {
		for (const char *p = lists[l]; p && *p;) {
			const char *end = strchr(p, ',');
			unsigned n_args;
			size_t nlen = item_name(p, end ? (size_t)(end - p) : strlen(p), &n_args);
			if (nlen == len && strncmp(p, name, len) == 0) {
				*item = p;
				*item_len = nlen;
				return true; /* exact */
			}
			if (nlen > len && strncmp(p, name, len) == 0) {
				if (found && !(found_len == nlen && strncmp(found, p, nlen) == 0))
					ambiguous = true;
				found = p;
				found_len = nlen;
			}
			if (!end)
				break;
			p = end + 1;
		}
	}
	if (!found || ambiguous || len == 0)
		return false;
	*item = found;
	*item_len = found_len;
	return true;
}

bool wrapper_long_option(const char *list, const char *word, const char **item, size_t *item_len,
                         unsigned *args)
{
	const char *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	const char *const lists[] = { list };
	if (!resolve_long(lists, 1, word, len, item, item_len))
		return false;
	return in_list(list, *item, *item_len, args);
}

/* A long option at words[*i] ("--name" or "--name=value", or a prefix of
 * the name that only one option has). */
static void match_long(const struct wrapper *w, const char *const *words, size_t n, size_t *i,
                       struct wrapper_match *m)
{
	const char *opt = words[*i] + 2;
	const char *eq = strchr(opt, '=');
	size_t len = eq ? (size_t)(eq - opt) : strlen(opt);
	const char *const lists[] = { w->longopts, w->stop_longopts };
	const char *item;
	size_t item_len;
	if (resolve_long(lists, ELEMENTSOF(lists), opt, len, &item, &item_len)) {
		opt = item; /* the full name: the lists below are read with it */
		len = item_len;
	}
	unsigned args = 0;
	if (in_list(w->stop_longopts, opt, len, &args))
		m->stops = true;
	if (!in_list(w->longopts, opt, len, &args) && !m->stops && !(w->flags & WRAP_LONG_ANY))
		m->unknown_opt = true;
	size_t arg = *i, offset = eq ? (size_t)(eq + 1 - words[*i]) : 0;
	/* the words its arguments take: all of them, or the rest after `=` */
	unsigned take = eq ? (args > 0 ? args - 1 : 0) : args;
	for (unsigned k = 0; k < take && *i + 1 < n; k++) {
		++*i;
		if (k == 0 && !eq)
			arg = *i;
	}
	if (in_list(w->chdir_longopts, opt, len, NULL)) {
		m->chdir_word = (long)arg;
		m->chdir_offset = offset;
	}
	if (in_list(w->string_longopts, opt, len, NULL)) {
		m->string_word = (long)arg;
		m->string_offset = offset;
	}
}

/* A cluster of short options at words[*i] ("-u", "-uroot", "-nb"). */
static void match_short(const struct wrapper *w, const char *const *words, size_t n, size_t *i,
                        struct wrapper_match *m)
{
	const char *s = words[*i] + 1;
	if (w->flags & WRAP_NUMERIC_OPT && s[0] >= '0' && s[0] <= '9')
		return; /* nice -10 */
	for (size_t k = 0; s[k]; k++) {
		char c = s[k];
		if (has_char(w->stop_opts, c))
			m->stops = true;
		if (has_char(w->direct_opts, c))
			m->shell_join = false;
		if (has_char(w->short_attached, c))
			return; /* the rest of the cluster is its argument */
		if (has_char(w->short_with_arg, c)) {
			size_t arg = *i, offset = k + 2; /* "-Cdir": the value after 'C' */
			if (s[k + 1] == '\0' && *i + 1 < n) {
				arg = ++*i;
				offset = 0;
			}
			if (has_char(w->chdir_opts, c)) {
				m->chdir_word = (long)arg;
				m->chdir_offset = offset;
			}
			if (has_char(w->string_opts, c)) {
				m->string_word = (long)arg;
				m->string_offset = offset;
			}
			return;
		}
		if (!has_char(w->short_flags, c) && !has_char(w->stop_opts, c))
			m->unknown_opt = true;
	}
}

static bool is_assignment(const char *word)
{
	const char *eq = strchr(word, '=');
	return eq && shell_word_is_name(word, (size_t)(eq - word));
}

void wrapper_match(const struct wrapper *w, const char *const *words, size_t n, size_t start,
                   struct wrapper_match *ret)
{
	*ret = (struct wrapper_match){
		.chdir_word = -1,
		.string_word = -1,
		.shell_join = (w->flags & WRAP_SHELL_JOIN) != 0,
	};
	size_t i = start + 1;
	if (w->subcommands) {
		if (i >= n || !in_list(w->subcommands, words[i], strlen(words[i]), NULL)) {
			ret->stops = true; /* uv pip install: uv is the command */
			ret->end = n;
			return;
		}
		i++;
	}
	unsigned positionals = w->positionals;
	if (w->flags & WRAP_POSITIONALS_FIRST) {
		for (; positionals > 0 && i < n; positionals--)
			i++; /* setarch ARCH -R cmd */
	}
	for (; i < n; i++) {
		const char *word = words[i];
		if (strcmp(word, "--") == 0) {
			i++;
			break;
		}
		if (word[0] != '-' || word[1] == '\0') {
			if (strcmp(word, "-") == 0 && strcmp(w->name, "env") == 0)
				continue; /* env - : same as -i */
			if (w->flags & WRAP_PERMUTE)
				continue; /* an operand: options may follow it */
			break;
		}
		if (word[1] == '-')
			match_long(w, words, n, &i, ret);
		else
			match_short(w, words, n, &i, ret);
	}
	if (w->flags & WRAP_PERMUTE)
		i = n; /* every word was an option or an operand: no command */
	ret->assign_begin = ret->assign_end = i;
	if (w->flags & WRAP_ASSIGNMENTS) {
		while (i < n && is_assignment(words[i]))
			i++;
		ret->assign_end = i;
	}
	for (unsigned p = 0; p < positionals && i < n; p++)
		i++;
	if ((w->flags & WRAP_COMMAND_AFTER) && i + 1 < n &&
	    (strcmp(words[i], "-c") == 0 || strcmp(words[i], "--command") == 0)) {
		ret->string_word = (long)(i + 1);
		ret->string_offset = 0;
	}
	ret->end = i; /* never past n: start < n, and every step above stops at n */
}

static bool is_exec_action(const char *word)
{
	return strcmp(word, "-exec") == 0 || strcmp(word, "-execdir") == 0 ||
	       strcmp(word, "-ok") == 0 || strcmp(word, "-okdir") == 0;
}

size_t wrapper_exec_clauses(const char *const *words, size_t n, size_t start,
                            struct wrapper_clause *clauses, size_t max)
{
	size_t count = 0;
	for (size_t i = start + 1; i < n; i++) {
		if (!is_exec_action(words[i]))
			continue;
		size_t begin = i + 1, end = begin;
		while (end < n && strcmp(words[end], ";") != 0 &&
		       !(strcmp(words[end], "+") == 0 && strcmp(words[end - 1], "{}") == 0))
			end++;
		if (end > begin) {
			if (count < max)
				clauses[count] = (struct wrapper_clause){ begin, end };
			count++;
		}
		i = end;
	}
	return count;
}

/* The shells whose -c string is a command (sorted). */
static const char *const shells[] = { "ash", "bash", "csh",   "dash", "elvish", "fish",
	                              "ksh", "mksh", "nu",    "posh", "pwsh",   "rbash",
	                              "sh",  "tcsh", "xonsh", "yash", "zsh" };

/* Those among them whose language is not bash's (sorted). */
static const char *const foreign_shells[] = {
	"csh", "elvish", "fish", "nu", "pwsh", "tcsh", "xonsh"
};

static int name_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* su's and runuser's long options ('=': takes a value). */
static const char su_longopts[] =
        "command=,session-command=,login,preserve-environment,shell=,group=,supp-group=,pty,"
        "whitelist-environment=,fast,user=,help,version";

/* su / runuser [options] [-] [user] [options] -c COMMAND: COMMAND runs in
 * the user's shell. -c in a cluster (-lc CMD, -cCMD), --command,
 * --session-command and their prefixes (--comm=CMD) name it; options may
 * follow the user, as getopt reorders them. */
static enum shell_script_source su_script(const char *const *words, size_t n, size_t start,
                                          size_t *script_word, size_t *script_offset)
{
	for (size_t i = start + 1; i < n; i++) {
		const char *w = words[i];
		if (strcmp(w, "--") == 0)
			break;
		if (w[0] != '-' || w[1] == '\0')
			continue; /* the user, or "-" (a login shell) */
		if (w[1] == '-') {
			const char *eq = strchr(w + 2, '=');
			size_t len = eq ? (size_t)(eq - (w + 2)) : strlen(w + 2);
			const char *const lists[] = { su_longopts };
			const char *item;
			size_t item_len;
			if (!resolve_long(lists, 1, w + 2, len, &item, &item_len))
				continue;
			unsigned n_args;
			(void)item_name(item, strcspn(item, ","), &n_args);
			bool with_arg = n_args > 0;
			if (strncmp(item, "command=", 8) == 0 ||
			    strncmp(item, "session-command=", 16) == 0) {
				if (eq) {
					*script_word = i;
					*script_offset = (size_t)(eq + 1 - w);
					return SHELL_SCRIPT_ARG;
				}
				if (i + 1 < n) {
					*script_word = i + 1;
					*script_offset = 0;
					return SHELL_SCRIPT_ARG;
				}
				return SHELL_SCRIPT_NONE;
			}
			if (with_arg && !eq)
				i++;
			continue;
		}
		for (size_t k = 1; w[k]; k++) {
			if (w[k] == 'c') {
				if (w[k + 1]) {
					*script_word = i;
					*script_offset = k + 1;
					return SHELL_SCRIPT_ARG;
				}
				if (i + 1 < n) {
					*script_word = i + 1;
					*script_offset = 0;
					return SHELL_SCRIPT_ARG;
				}
				return SHELL_SCRIPT_NONE;
			}
			if (strchr("gGswu", w[k])) {
				if (!w[k + 1])
					i++; /* its value is the next word */
				break;
			}
		}
	}
	return SHELL_SCRIPT_NONE;
}

bool wrapper_shell_is_foreign(const char *name)
{
	return bsearch(name, foreign_shells, ELEMENTSOF(foreign_shells), sizeof(foreign_shells[0]),
	               name_cmp) != NULL;
}

bool wrapper_is_user_switch(const char *name)
{
	return strcmp(name, "su") == 0 || strcmp(name, "runuser") == 0;
}

enum shell_script_source wrapper_shell_script(const char *name, const char *const *words, size_t n,
                                              size_t start, size_t *script_word,
                                              size_t *script_offset)
{
	*script_offset = 0;
	if (wrapper_is_user_switch(name))
		return su_script(words, n, start, script_word, script_offset);
	if (!bsearch(name, shells, ELEMENTSOF(shells), sizeof(shells[0]), name_cmp))
		return SHELL_SCRIPT_NONE;
	size_t i = start + 1;
	bool dash_c = false, dash_s = false;
	for (; i < n; i++) {
		const char *w = words[i];
		if (strcmp(w, "--") == 0 || strcmp(w, "-") == 0) {
			i++;
			break;
		}
		if (w[0] != '-' && w[0] != '+')
			break;
		if (w[1] == '-') {
			/* --rcfile FILE / --init-file FILE take an argument */
			if ((strcmp(w, "--rcfile") == 0 || strcmp(w, "--init-file") == 0) &&
			    i + 1 < n)
				i++;
			/* fish --command STRING / --command=STRING */
			if (strncmp(w, "--command=", 10) == 0) {
				*script_word = i;
				*script_offset = 10;
				return SHELL_SCRIPT_ARG;
			}
			if (strcmp(w, "--command") == 0 && i + 1 < n) {
				*script_word = i + 1;
				return SHELL_SCRIPT_ARG;
			}
			continue;
		}
		bool takes_arg = false;
		for (size_t k = 1; w[k]; k++) {
			if (w[k] == 'c')
				dash_c = true;
			else if (w[k] == 's')
				dash_s = true;
			else if (w[k] == 'o' || w[k] == 'O')
				takes_arg = true;
		}
		if (takes_arg && i + 1 < n)
			i++;
	}
	if (dash_c) {
		if (i >= n)
			return SHELL_SCRIPT_STDIN; /* bash -c with no string: an error in bash */
		*script_word = i;
		return SHELL_SCRIPT_ARG;
	}
	if (dash_s || i >= n)
		return SHELL_SCRIPT_STDIN;
	*script_word = i;
	return SHELL_SCRIPT_FILE;
}
