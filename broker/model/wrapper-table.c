/* SPDX-License-Identifier: MIT */
/*
 * The wrapper table: one row per command that runs another (sudo, env,
 * timeout, xargs, npx ...), with its options as its manual gives them, and
 * wrapper_find() to look a name up. Adding a wrapper is one row here.
 * Not for: reading a wrapper's words against its row (wrappers.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
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
/* The commands of pnpm and yarn (1 and berry) and their aliases: any other
 * word after the name runs a script of package.json or, when there is
 * none, the project's bin of that name (pnpm rm is its remove) */
#define PNPM_BUILTINS                                                                      \
	"add,audit,bin,c,cat-file,cat-index,config,create,dedupe,deploy,doctor,env,fetch," \
	"find-hash,i,import,init,install,install-test,it,licenses,link,list,ln,ls,m,"      \
	"multi,outdated,pack,patch,patch-commit,patch-remove,prune,publish,rb,rebuild,"    \
	"recursive,remove,rm,root,run,self-update,server,setup,start,store,t,test,un,"     \
	"uninstall,unlink,up,update,upgrade,why,approve-builds,ignored-builds,sbom,"       \
	"help,version"
#define YARN_BUILTINS                                                                          \
	"add,audit,autoclean,bin,cache,check,config,constraints,create,dedupe,explain,global," \
	"help,import,info,init,install,licenses,link,list,login,logout,node,npm,outdated,"     \
	"owner,pack,patch,patch-commit,plugin,policies,publish,rebuild,remove,run,search,"     \
	"set,stage,tag,team,test,unlink,unplug,up,upgrade,upgrade-interactive,version,"        \
	"versions,why,workspace,workspaces,generate-lock-entry,sdks,dlx,exec"

#define NPX_OPTIONS                                                                         \
	.short_with_arg = "pcw", .short_flags = "yq",                                       \
	.longopts = "package=,call=,yes,no,no-install,quiet,silent,workspace=,"             \
	            "workspaces,include-workspace-root,prefix=,registry=,cache=,loglevel=", \
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
	  .subcommands = "exec,dlx",
	  .builtins = PNPM_BUILTINS },
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
	  .subcommands = "dlx,exec",
	  .builtins = YARN_BUILTINS },
};

static int wrapper_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct wrapper *)elem)->name);
}

const struct wrapper *wrapper_find(const char *name)
{
	return bsearch(name, wrappers, ELEMENTSOF(wrappers), sizeof(wrappers[0]), wrapper_cmp);
}
