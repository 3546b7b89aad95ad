#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A stand-in for sluice-launch that sandboxes nothing, for the checks of how
# sluice treats a launcher that does not do what it was asked: it reads the
# same options (on the command line or, with --spec-fd, from the
# descriptor), does what the unrestricted profile does (new session, stdin
# from /dev/null, chdir, a report line naming "unrestricted" on the report
# descriptor) and execs the command. Never used in the real launcher's
# place (run-lib.sh fails when that cannot run a command); a check that
# uses it names the stand-in in its description.
set -u
if [ "${1:-}" = --spec-fd ]; then
  # the options, an empty word, the environment, NUL-separated: started
  # again with them, as sluice-launch --spec-fd reads them
  opts=() envs=() in_env='' first=1
  while IFS= read -r -d '' word <&"$2"; do
    if [ -n "$first" ] && [ "$word" = --namespace-ahead ]; then
      first='' # sent first and alone: sluice-launch enters its namespaces there
      continue
    fi
    first=''
    if [ -n "$in_env" ]; then
      envs+=("$word")
    elif [ -z "$word" ]; then
      in_env=1
    else
      opts+=("$word")
    fi
  done
  [ -n "$in_env" ] || { echo "sluice-launch: options: --spec-fd: withdrawn" >&2; exit 125; }
  eval "exec $2<&-"
  exec env -i "${envs[@]}" "$0" "${opts[@]}"
fi
report_fd='' dir='' command_fd=''
while [ $# -gt 0 ]; do
  case $1 in
    --) shift; break ;;
    --report-fd) report_fd=$2; shift 2 ;;
    --command-fd) command_fd=$2; shift 2 ;;
    --chdir) dir=$2; shift 2 ;;
    --profile|--workspace|--rw|--tmpdir|--network|--rlimit|--user|--user-ids|--unix-connect|--die-with-parent) shift 2 ;;
    *) shift ;;
  esac
done
if [ -n "$command_fd" ]; then
  # "DIR\0COMMAND\0", as sluice-launch reads it; nothing at all: withdrawn;
  # no final NUL: incomplete
  IFS= read -r -d '' sent_dir <&"$command_fd" || { echo "sluice-launch: command: withdrawn" >&2; exit 125; }
  IFS= read -r -d '' sent_command <&"$command_fd" ||
    { echo "sluice-launch: command: the command is incomplete" >&2; exit 125; }
  [ -n "$sent_dir" ] && dir=$sent_dir
  set -- "$@" "$sent_command"
fi
if [ -n "$dir" ]; then cd "$dir" || { echo "sluice-launch: chdir: $dir" >&2; exit 125; }; fi
if [ -n "$report_fd" ]; then
  echo '{"profile":"unrestricted","landlock_abi":0,"enforced":["session"],"missing":[]}' >&"$report_fd"
  eval "exec $report_fd>&-"
fi
exec setsid -- "$@" </dev/null
