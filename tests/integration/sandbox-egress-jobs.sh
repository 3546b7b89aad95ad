#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A background job's egress connections ([network] allow,
# docs/configuration.md "[network]" and "[audit]"): local servers on the
# host's loopback (127.0.0.2 allowed, 127.0.0.3 not). A job that fetches
# the allowed host and is refused the other has both records in its status
# (`sluice jobs --format json`) and in its audit line's end, which has the
# same id as its start; so does a job ended by `sluice kill`, and one ended
# by its timeout. Positive control: without an allowlist neither has a
# network key.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="a background job's egress records"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
need_host_loopback
ws=$TEST_TMP/ws
mkdir -p "$ws" "$TEST_TMP/www"
echo "job-egress-$RANDOM" >"$TEST_TMP/www/index.html"
serve_on_host_loopback "$TEST_TMP/www"
report $? "control: both servers answer on the host's loopback, outside the sandbox"

audit=$TEST_TMP/audit.log
printf '[sandbox]\nworkspace_network_idle = 0\n[network]\nallow = 127.0.0.2:%s\n[audit]\nfile = %s\n' \
  "$port" "$audit" >"$TEST_TMP/allow.ini"
printf '[sandbox]\nworkspace_network_idle = 0\n[audit]\nfile = %s\n' "$audit" >"$TEST_TMP/none.ini"

# start_job CONFIG COMMAND [OPTION...]: COMMAND as a background job; its
# id in job
start_job() {
  local config=$1 command=$2
  shift 2
  run "$SLUICE" run -C "$ws" --config "$config" --mode background --format json "$@" -- "$command"
  job=$(json_get "$out" 'd.get("jobId") or ""' 2>/dev/null)
}
# job_field EXPR: a Python expression on the job's entry d in
# `sluice jobs --format json` ({} when it is not listed)
job_field() {
  "$SLUICE" jobs --format json | python3 -c '
import json, sys
d = ([j for j in json.load(sys.stdin) if j["id"] == sys.argv[1]] + [{}])[0]
print(eval(sys.argv[2]))' "$job" "$1"
}
job_done() { [ "$(job_field 'd.get("status")')" != running ]; }
# audit_lines PHASE: the audit lines of phase PHASE whose command has the
# test's mark, as a JSON list
audit_lines() {
  python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
print(json.dumps([l for l in lines if l.get("phase") == sys.argv[2] and sys.argv[3] in l["command"]]))' \
    "$audit" "$1" "$2"
}

# --- 1. an allowed fetch and a refused one, in a job
mark=mark-fetch
start_job "$TEST_TMP/allow.ini" \
  "curl -sS -m 5 -p -o /dev/null http://127.0.0.2:$port/index.html; curl -sS -m 5 -p http://127.0.0.3:$port/index.html; echo $mark"
[ -n "$job" ]
report $? "the job started" "$out" "$err"
wait_for 30 job_done
net=$(job_field 'json.dumps(d.get("network"))' 2>&1)
[ "$(json_get "$net" '[(c["host"], c["port"], c["kind"], c["verdict"], c["reason"]) for c in d]')" = \
  "[('127.0.0.2', $port, 'tunnel', 'allowed', None), ('127.0.0.3', $port, 'tunnel', 'refused', 'not-listed')]" ] &&
  [ "$(json_get "$net" 'd[0]["bytesDown"] > 0 and d[1]["bytesDown"] == 0')" = True ]
report $? "sluice jobs lists the job's allowed fetch and its refused host" "$net" \
  "$("$SLUICE" jobs --format json)" \
  "$("$SLUICE" logs "$job" 2>&1)"

starts=$(audit_lines start "$mark")
ends=$(audit_lines end "$mark")
[ "$(json_get "$starts" 'len(d)')" = 1 ] && [ "$(json_get "$ends" 'len(d)')" = 1 ] &&
  [ "$(json_get "$starts" 'd[0]["id"]')" = "$(json_get "$ends" 'd[0]["id"]')" ] &&
  [ "$(json_get "$starts" '"network" in d[0]')" = False ] &&
  [ "$(json_get "$ends" 'json.dumps(d[0]["network"])')" = "$net" ] &&
  [ "$(json_get "$ends" 'd[0]["exitCode"]')" = 0 ]
report $? "the audit log has the job's start line and, at its end, a line with the same id, its exit code and the same records" \
  "starts: $starts" "ends: $ends"

# --- 2. without an allowlist (the positive control): no key
mark=mark-none
start_job "$TEST_TMP/none.ini" "echo $mark; curl -sS -m 5 http://127.0.0.2:$port/index.html"
wait_for 30 job_done
ends=$(audit_lines end "$mark")
[ "$(job_field 'd.get("status")')" = failed ] &&
  [ "$(job_field '"network" in d')" = False ] &&
  [ "$(json_get "$ends" 'len(d)')" = 1 ] && [ "$(json_get "$ends" '"network" in d[0]')" = False ]
report $? "without [network] allow, the job's fetch fails and neither sluice jobs nor the audit line has a network key" \
  "ends: $ends" "$("$SLUICE" jobs --format json)"

cat >"$ws/look-for-channel.sh" <<'EOS'
curl -sS -m 5 -p -o /dev/null "http://127.0.0.2:$1/index.html"
for fd in /proc/self/fd/*; do
  case $(readlink "$fd" 2>/dev/null) in *memfd*) echo "channel found: $fd" ;; esac
done
echo "looked at every descriptor"
touch fetched
sleep 60
EOS
# --- 3. a job ended by sluice kill, and one by its timeout, still have
# the connection made before
for how in kill timeout; do
  mark=mark-$how
  rm -f "$ws/fetched"
  if [ "$how" = kill ]; then
    start_job "$TEST_TMP/allow.ini" "bash look-for-channel.sh $port; echo $mark"
    wait_for 20 test -e "$ws/fetched"
    # the monitor (ID.json names it) holds the channel, the command not
    monitor=$(json_get "$(cat "$XDG_RUNTIME_DIR/sluice/jobs/$job.json")" 'd["monitor"]')
    held=no
    for fd in /proc/$monitor/fd/*; do
      [ "$(readlink "$fd")" = "/memfd:sluice-egress-audit (deleted)" ] && held=yes
    done
    # (the script wrote its findings before the mark)
    output=$(cat "$XDG_RUNTIME_DIR/sluice/jobs/$job.out")
    [ "$held" = yes ] && grep -q 'looked at every descriptor' <<<"$output" &&
      ! grep -q 'channel found' <<<"$output"
    report $? "while the job runs its monitor holds the audit channel, and no descriptor of the command's is it" \
      "held by the monitor ($monitor): $held" "$output"
    "$SLUICE" kill "$job" >/dev/null
  else
    start_job "$TEST_TMP/allow.ini" \
      "curl -sS -m 5 -p -o /dev/null http://127.0.0.2:$port/index.html; touch fetched; sleep 60; echo $mark" \
      --timeout 3s
  fi
  wait_for 30 job_done
  status=$(job_field 'd.get("status")')
  hosts=$(job_field '[(c["host"], c["verdict"]) for c in d.get("network", [])]')
  ends=$(audit_lines end "$mark")
  expected_status=killed
  [ "$how" = timeout ] && expected_status=timed_out
  [ "$status" = "$expected_status" ] && [ "$hosts" = "[('127.0.0.2', 'allowed')]" ] &&
    [ "$(json_get "$ends" '[(c["host"], c["verdict"]) for c in d[0]["network"]]')" = "$hosts" ]
  report $? "a job ended by its $how ($status) still has its connection in sluice jobs and the audit line" \
    "hosts: $hosts" "ends: $ends"
done
