#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `sluice run` requests: from arguments and from JSON on stdin; every invalid
# request is refused with invalid_request naming the field, exit status 125.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

run "$SLUICE" run -- 'echo hello'
expect "a command from the arguments runs" 0 '^hello$'

run "$SLUICE" run -- 'exit 3'
expect "the command's exit code is sluice's, with a first line saying so" 3 '^\[command failed: exit code 3\]$'

run "$SLUICE" run -- 'kill -9 $$'
expect "a signal N is 128+N" 137 '^\[command killed by signal 9 \(SIGKILL\)\]$'

# Near the 64 KiB limit, the message to the launcher (the directory, the
# command, their NULs) is larger than a pipe's default 64 KiB, which the
# broker widens: it arrives whole.
long=$(head -c 65500 /dev/zero | tr '\0' A)
run "$SLUICE" run -- "x='$long'; echo \${#x} \${x:65495}"
expect "a command of almost 64 KiB reaches the shell whole" 0 '^65500 AAAAA$'

# A launcher that does not read its command yet must not hold the broker
# before the timeout is watched: a command of the full 64 KiB still goes
# into the pipe in one write, and the timeout fires.
printf '#!/bin/sh\nexec setsid sleep 30\n' >"$TEST_TMP/deaf-launch"
chmod +x "$TEST_TMP/deaf-launch"
full=": $(head -c 65534 /dev/zero | tr '\0' A)"
run env SLUICE_LAUNCH="$TEST_TMP/deaf-launch" timeout -k 5 20 "$SLUICE" run --timeout 300ms -- "$full"
expect "a launcher slow to read a 64 KiB command does not delay the timeout" 124 \
  '^\[command timed out after 300ms\]$'

out=$(echo '{"command":"echo from json","mode":"default"}' | "$SLUICE" run --json --format json) && rc=0 || rc=$?
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["output"]')" = "from json" ] &&
  [ "$(json_get "$out" 'd["ok"] and d["exitCode"] == 0 and d["error"] is None')" = True ]
report $? "a JSON request from stdin gives a JSON result" "rc=$rc" "$out"

refused() { # NAME FIELD-PATTERN (reads the request on stdin)
  local out rc
  out=$("$SLUICE" run --json --format json) && rc=0 || rc=$?
  [ "$rc" -eq 125 ] && [ "$(json_get "$out" 'd["error"]["kind"]')" = invalid_request ] &&
    json_get "$out" 'd["error"]["message"]' | grep -q -- "$2" &&
    [ "$(json_get "$out" 'd["ok"]')" = False ]
  report $? "$1" "rc=$rc" "$out"
}
refused "an unknown field is refused by name" colour <<<'{"command":"true","colour":"red"}'
refused "a bad mode is refused by name" mode <<<'{"command":"true","mode":"fast"}'
refused "a wrong type is refused by name" command <<<'{"command":42}'
refused "a NUL byte in the command is refused" command <<<'{"command":"a\u0000b"}'
refused "a missing command is refused" command <<<'{"mode":"slow"}'
refused "a timeout above the maximum is refused" timeout_ms <<<'{"command":"true","timeout_ms":3600000}'
refused "broken JSON is refused with its position" line <<<'{"command":'
big=$(python3 -c 'import json; print(json.dumps({"command": "x" * 70000}))')
refused "an oversized command is refused" command <<<"$big"

run "$SLUICE" run --timeout 2h -- true
expect "--timeout above the maximum is refused" 125 'invalid_request.*--timeout'

run "$SLUICE" run --sandbox bogus -- true
expect "an unknown sandbox mode is refused" 125 "invalid_request.*--sandbox"

run "$SLUICE" run --config "$TEST_TMP/x.ini" -- true
expect "--config is refused until the configuration lands" 125 'config_error'

run "$SLUICE" run
expect "no command at all is refused" 125 "invalid_request.*command"

# `sluice run` starts its launcher before it reads its configuration (the
# options follow on --spec-fd). A run that never reaches its command must
# leave no launcher behind, and run nothing: a configuration error, a
# request refused, a command the policies refuse, a background job (which
# starts its own). The launcher copied under a name of this test's own, so
# that other tests' launchers do not count.
cp "$SLUICE_LAUNCH" "$TEST_TMP/own-launch"
# (the workspace's network holder, started through the same launcher and
# meant to outlive the run, is not one)
own_launchers() {
  local p
  for p in $(pgrep -f "^$TEST_TMP/own-launch"); do
    tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- '--hold-network' || echo "$p"
  done
}
no_launcher_left() { # NAME
  local left
  left=$(own_launchers)
  [ -z "$left" ] && [ ! -e "$TEST_TMP/ran" ]
  report $? "$1" "launchers left: $left" "$(ls "$TEST_TMP")"
}
printf '[sandbox]\nmode = nonsense\n' >"$TEST_TMP/bad.ini"
run env SLUICE_LAUNCH="$TEST_TMP/own-launch" "$SLUICE" run --config "$TEST_TMP/bad.ini" \
  -- "touch $TEST_TMP/ran"
[ "$rc" -eq 125 ] && grep -q config_error <<<"$out$err"
report $? "a configuration error is reported as such" "rc=$rc" "$out" "$err"
no_launcher_left "a configuration error: the launcher started early is withdrawn, nothing runs"
run env SLUICE_LAUNCH="$TEST_TMP/own-launch" "$SLUICE" run --timeout 0 -- "touch $TEST_TMP/ran"
expect "an invalid request is refused" 125 'invalid_request|--timeout'
no_launcher_left "an invalid request: the launcher started early is withdrawn, nothing runs"
run env SLUICE_LAUNCH="$TEST_TMP/own-launch" "$SLUICE" run -- "touch $TEST_TMP/ran; rm -rf /"
[ "$rc" -ne 0 ]
report $? "a command the policies refuse does not run" "rc=$rc" "$out"
no_launcher_left "a refused command: the launcher started early is withdrawn, nothing runs"
# The launcher gets its options, and builds its sandbox, before the policy
# chain is made for the first decision; a configuration that cannot be made
# ready then (a required audit log that cannot be opened) still refuses the
# command, which never reaches the launcher, in every mode.
printf '[audit]\nfile = %s/no-such-dir/audit.log\nrequired = yes\n' "$TEST_TMP" \
  >"$TEST_TMP/audit-required.ini"
for mode in unrestricted restricted workspace-write; do
  run env SLUICE_LAUNCH="$TEST_TMP/own-launch" "$SLUICE" run --config "$TEST_TMP/audit-required.ini" \
    --sandbox "$mode" -- "touch $TEST_TMP/ran"
  [ "$rc" -eq 125 ] && grep -q '^\[sluice error config_error: the audit log is required' <<<"$out"
  report $? "--sandbox $mode, a required audit log that cannot be opened: refused" "rc=$rc" \
    "$out" "$err"
  no_launcher_left "--sandbox $mode, a required audit log that cannot be opened: the launcher is withdrawn, nothing runs"
done
run env SLUICE_LAUNCH="$TEST_TMP/own-launch" "$SLUICE" run --json \
  <<<"{\"command\":\"touch $TEST_TMP/bg-ran\",\"mode\":\"background\"}"
[ "$rc" -eq 0 ] && wait_for 5 test -e "$TEST_TMP/bg-ran"
report $? "a background request from JSON runs as a job" "rc=$rc" "$out" "$err"
wait_for 5 test -z "$(own_launchers)"
report $? "a background request: the launcher started early is withdrawn" "$(own_launchers)"

# The launcher is started before the request is read: with standard input
# closed, no pipe of it may take descriptor 0 and be read as the request.
# (closed in a shell of its own: with descriptor 0 closed, bash's command
# substitution in run() would put its own pipe there)
run sh -c 'exec 0<&-; exec "$@"' sh timeout 10 "$SLUICE" run --json
[ "$rc" -eq 125 ] && grep -q invalid_request <<<"$out$err"
report $? "--json with standard input closed: refused at once, not read from a launcher's pipe" \
  "rc=$rc" "$out" "$err"
# The launcher that cannot be exec'd is named with the exec's error, as before
# it was started early.
named=0
for _ in 1 2 3 4 5; do
  run env SLUICE_LAUNCH="$TEST_TMP" "$SLUICE" run -- 'echo x'
  [ "$rc" -eq 125 ] && grep -q "starting '$TEST_TMP': Permission denied" <<<"$out" &&
    named=$((named + 1))
done
[ "$named" -eq 5 ]
report $? "a launcher that cannot be exec'd is named, with why, every time" "$named of 5" "$out"
# A launcher that is a wrapper needs its own environment to exec (a loader's
# variables): started early, it still gets the broker's.
printf '#!/bin/sh\n[ "$SLUICE_TEST_WRAPPER" = yes ] || exit 9\nexec "%s" "$@"\n' \
  "$SLUICE_LAUNCH" >"$TEST_TMP/env-wrapper"
chmod +x "$TEST_TMP/env-wrapper"
run env SLUICE_TEST_WRAPPER=yes SLUICE_LAUNCH="$TEST_TMP/env-wrapper" "$SLUICE" run -- 'echo ran'
expect "a wrapping launcher gets the environment it was started with" 0 '^ran$'
# The stand-in that sandboxes nothing (other checks use it as a launcher
# that does not do what it was asked) reads --spec-fd too.
run env SLUICE_LAUNCH="$SLUICE_SRCDIR/tests/integration/fake-launch.sh" "$SLUICE" run \
  --sandbox unrestricted -- 'echo "ran in $PWD"'
expect "the stand-in launcher fake-launch.sh takes its options from --spec-fd" 0 "^ran in "

# Once the mode is known, before the rest of the options, the launcher
# started early is told that they will plan its namespaces (and enters
# them meanwhile): in the sandboxed modes, unless the namespace is off. A
# wrapper records what arrives on --spec-fd, then hands it on.
cat >"$TEST_TMP/spec-recorder" <<EOF
#!/bin/sh
if [ "\$1" = --spec-fd ]; then
  cat <&"\$2" >"$TEST_TMP/spec-recorded"
  exec "$SLUICE_LAUNCH" --spec-fd 9 9<"$TEST_TMP/spec-recorded"
fi
exec "$SLUICE_LAUNCH" "\$@"
EOF
chmod +x "$TEST_TMP/spec-recorder"
printf '[sandbox]\nnamespace = off\n' >"$TEST_TMP/namespace-off.ini"
# A run with a network of its own is told ahead; one that joins its
# workspace's network is not (the join is not made ahead: docs/launcher.md).
printf '[sandbox]\nworkspace_network_idle = 0\n' >"$TEST_TMP/own-network.ini"
first_word() { head -c 18 "$TEST_TMP/spec-recorded" | tr '\0' '|'; }
features_abi=$("$SLUICE_LAUNCH" --print-features 2>/dev/null | sed -n 's/.*"landlock_abi":\([0-9]*\).*/\1/p')
for how in "--sandbox unrestricted:no" "--sandbox restricted --config $TEST_TMP/own-network.ini:yes" \
  "--sandbox workspace-write --config $TEST_TMP/own-network.ini:yes" \
  "--sandbox workspace-write --config $TEST_TMP/namespace-off.ini:no"; do
  args=${how%:*} want=${how##*:}
  if [ "${features_abi:-0}" -lt 1 ] && [ "$args" != "--sandbox unrestricted" ]; then
    skip "$args: the launcher is told ahead of its namespaces: $want" "no Landlock"
    continue
  fi
  rm -f "$TEST_TMP/spec-recorded"
  # shellcheck disable=SC2086 # the options are words
  run env SLUICE_LAUNCH="$TEST_TMP/spec-recorder" "$SLUICE" run -C "$TEST_TMP" $args -- 'echo ran'
  seen=no
  [ "$(first_word)" = "--namespace-ahead|" ] && seen=yes
  [ "$rc" -eq 0 ] && [ "$out" = ran ] && [ "$seen" = "$want" ]
  report $? "$args: the launcher is told ahead of its namespaces: $want" "rc=$rc" \
    "first: $(first_word)" "$out" "$err"
done

# The launcher started early is moved off the broker's CPU while it execs,
# and given back every CPU before it learns its options: the command runs
# on exactly the CPUs sluice was given, in every mode, whatever they are.
abi=$("$SLUICE_LAUNCH" --print-features 2>/dev/null |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["landlock_abi"])' 2>/dev/null || echo 0)
modes="unrestricted"
[ "$abi" -ge 1 ] && modes="$modes restricted workspace-write"
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
first=$(sed 's/[-,].*//' <<<"$cpus")
second=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(c[1] if len(c) > 1 else "")')
masks=("$cpus" "$first")
[ -n "$second" ] && [ "$first-$second" != "$cpus" ] && masks+=("$first,$second")
for mask in "${masks[@]}"; do
  for mode in $modes; do
    seen=()
    for _ in 1 2 3; do
      run taskset -c "$mask" "$SLUICE" run --sandbox "$mode" -- \
        'sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status; nproc'
      seen+=("$(tr '\n' ' ' <<<"$out")")
    done
    want="$(taskset -c "$mask" sh -c 'sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status; nproc' | tr '\n' ' ')"
    [ "$rc" -eq 0 ] && [ "${seen[0]}" = "$want" ] && [ "${seen[1]}" = "$want" ] &&
      [ "${seen[2]}" = "$want" ]
    report $? "--sandbox $mode on CPUs $mask: the command runs on all of them" \
      "rc=$rc" "want: $want" "seen: ${seen[*]}" "$err"
  done
done
[ "$abi" -ge 1 ] || skip "the sandboxed modes keep every CPU" "no Landlock (ABI $abi)"

# --request: the request in one argument, as `sluice hook --route` writes
# it; beside --json or a command it is refused, naming where it comes from.
run "$SLUICE" run --request '{"command":"echo \u0027inline\u0027; exit 4"}'
expect "--request runs the request given inline" 4 '^inline$'
run "$SLUICE" run --request '{"command":"true"}' -- 'echo extra'
expect "--request beside a command is refused" 125 "with --request the request comes from its argument, not the command line"
run "$SLUICE" run --json --request '{"command":"true"}' </dev/null
expect "--request beside --json is refused" 125 "not the command line or standard input"
