#!/usr/bin/env bash
# Class: limits (issue 30 §7). rlimit_pids (default 4096) is the pid_max
# of each run's PID namespace: per run, not per workspace or user, and the
# number of background jobs is not capped. The host's pid_max here is
# 32768, so eight background jobs of a fork loop (a prompt-injected agent
# asks for them one after the other) take every PID of the machine; as
# root RLIMIT_NPROC does not apply, and sluicedev's (96364) is above
# pid_max. NOT run at full size on a shared machine: here the cap is
# rlimit_pids = 40 and three jobs each hold 35 sleeps: 105 tasks at once
# from one workspace, against a cap of 40.
. "$(dirname "$0")/env.sh"
printf '[sandbox]\nrlimit_pids = 40\n' >>"$XDG_CONFIG_HOME/sluice/sluice.ini"
boxed 'for i in $(seq 60); do sleep 30 & done 2>/dev/null; echo "one run: $(jobs -p | wc -l) started (the cap holds)"'
for j in 1 2 3; do
  boxed 'for i in $(seq 35); do sleep 40 & done; wait' --mode background >/dev/null
done
sleep 3
n=$(ps -u "$(id -u)" -o args= | grep -c "^sleep 40$")
echo "tasks 'sleep 40' now, from this workspace's three jobs: $n (cap per run: 40)"
[ "$n" -gt 40 ] && echo "HOLE: the workspace's tasks exceed rlimit_pids; the host's pid_max is $(cat /proc/sys/kernel/pid_max)"
for id in $("$SLUICE" jobs --format json 2>/dev/null | grep -o '"id": *"[^"]*"' | cut -d'"' -f4); do "$SLUICE" kill "$id" >/dev/null 2>&1; done
