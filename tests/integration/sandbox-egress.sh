#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The network through an allowlist ([network] allow, docs/launcher.md "The
# egress proxy"): local servers on the host's loopback (127.0.0.2 allowed,
# 127.0.0.3 not), reached from sandboxed runs. Each check first where the
# thing is reachable (outside the sandbox, or with the list naming it), then
# refused: a host not on the list at once with 403 naming it and the key; a
# command that ignores the proxy at once, with no route; a name on the list
# that resolves to the loopback; a proxy the command starts itself; a user
# file the command writes. In the workspace's shared network and in a
# network of the run's own.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the network through an allowlist"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
need_host_loopback
ws=$TEST_TMP/ws
mkdir -p "$ws"
token="egress-$RANDOM$RANDOM"
mkdir -p "$TEST_TMP/www"
echo "$token" >"$TEST_TMP/www/index.html"
serve_on_host_loopback "$TEST_TMP/www"
report $? "control: both servers answer on the host's loopback, outside the sandbox"

allow="127.0.0.2:$port"
printf '[network]\nallow = %s\n' "$allow" >"$TEST_TMP/shared.ini"
printf '[sandbox]\nworkspace_network_idle = 0\n[network]\nallow = %s\n' "$allow" >"$TEST_TMP/own.ini"
printf '[network]\nallow = localhost:%s\n' "$port" >"$TEST_TMP/name.ini"


# --- 1. without the list the run reaches nothing: the protection this key opens
run "$SLUICE" run -C "$ws" --format json -- "curl -sS -m 5 http://127.0.0.2:$port/index.html"
ran "without [network] allow, the allowed server is not reached" &&
  ! grep -q "$token" <<<"$out" && [ "$(json_get "$out" 'd["exitCode"]')" != 0 ] &&
  [ "$(json_get "$out" '"HTTPS_PROXY" in d["stdout"]')" = False ]
report $? "without [network] allow, a sandboxed run does not reach the host's server" "$out" "$err"

for mode in shared own; do
  cfg=$TEST_TMP/$mode.ini
  what=$([ $mode = shared ] && echo "in the workspace's shared network" || echo "in a network of the run's own")
  # --- 2. the allowed host, through the proxy: https-style CONNECT and plain HTTP
  run "$SLUICE" run -C "$ws" --config "$cfg" --format json -- \
    "curl -sS -m 5 -p http://127.0.0.2:$port/index.html && curl -sS -m 5 http://127.0.0.2:$port/index.html && echo \"\$HTTPS_PROXY \$NO_PROXY\""
  [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] &&
    [ "$(grep -o "$token" <<<"$(json_get "$out" 'd["stdout"]')" | wc -l)" -ge 2 ] &&
    grep -q 'http://sluice:[0-9a-f]\{32\}@127.0.0.1:[0-9]* localhost,127.0.0.1,::1' <<<"$out"
  report $? "$what: the host on the list is fetched through the proxy (CONNECT and plain HTTP), HTTPS_PROXY and NO_PROXY set" "$out" "$err"
  [ "$(json_get "$out" 'd["backgroundPids"]')" = "[]" ]
  report $? "$what: the proxy ends with the run (no process left behind)" "$out"
  if [ $mode = shared ]; then
    [ "$(json_get "$out" '"workspace-network" in d["sandbox"]["enforced"]')" = True ]
    report $? "$what: the run joined the workspace's network" "$out"
  fi

  # --- 2b. what passes is whole, and counted: 16 MiB of random bytes
  # fetched through the proxy (through a CONNECT tunnel, and read as plain
  # HTTP's answer), many times what the relay reads at once (1 MiB), and
  # 6 MiB sent up (through a tunnel, and as a plain HTTP request's body,
  # which the proxy frames) to a server that counts what it received, end
  # to end. The audit line counts each download exactly: the server's head
  # (measured outside, the same length each time) and the body. The command
  # ends right after the upload: the run's end gives the proxy's
  # connections a moment to write their last records (monitor.c
  # end_proxy()), and the upload's is whole.
  if [ $mode = shared ]; then
    down=16777216 up=6291456
    head -c $down /dev/urandom >"$TEST_TMP/www/random.bin"
    head -c $up /dev/urandom >"$ws/upload.bin"
    want=$(sha256sum <"$TEST_TMP/www/random.bin" | cut -d' ' -f1)
    head_len=$(curl -sS -D - -o /dev/null "http://127.0.0.2:$port/random.bin" | wc -c)
    echo_port=$(free_port 127.0.0.2)
    python3 "$SLUICE_SRCDIR/tests/integration/egress_echo_http.py" 127.0.0.2 "$echo_port" "$TEST_TMP/echo.log" &
    echo_srv=$!
    wait_for 20 curl -sf -o /dev/null "http://127.0.0.2:$echo_port/ready"
    whole_audit=$TEST_TMP/whole-audit.log
    printf '[network]\nallow = %s 127.0.0.2:%s\n[audit]\nfile = %s\n' "$allow" "$echo_port" "$whole_audit" >"$TEST_TMP/whole.ini"
    run "$SLUICE" run -C "$ws" --config "$TEST_TMP/whole.ini" --format json -- \
      "curl -sS -m 20 -p http://127.0.0.2:$port/random.bin | sha256sum; curl -sS -m 20 http://127.0.0.2:$port/random.bin | sha256sum; curl -sS -m 20 -p --data-binary @upload.bin http://127.0.0.2:$echo_port/up; curl -sS -m 20 --data-binary @upload.bin http://127.0.0.2:$echo_port/plain"
    kill "$echo_srv" 2>/dev/null
    [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] &&
      [ "$(json_get "$out" 'd["stdout"]')" = "$want  -
$want  -
/up 127.0.0.2:$echo_port $up
/plain 127.0.0.2:$echo_port $up" ]
    report $? "$what: 16 MiB come through the proxy whole (CONNECT and plain HTTP), 6 MiB go up whole (CONNECT and plain HTTP)" "$out" "$err"
    net=$(json_get "$(tail -n 1 "$whole_audit")" 'json.dumps(d["network"])')
    [ "$head_len" -gt 0 ] &&
      [ "$(json_get "$net" '[(c["kind"], c["port"], c["reason"], c["bytesDown"]) for c in d[:2]]')" = "[('tunnel', $port, None, $((head_len + down))), ('http', $port, None, $((head_len + down)))]" ] &&
      [ "$(json_get "$net" '[(c["kind"], c["port"], c["reason"], '"$up"' < c["bytesUp"] < '"$up"' + 1024) for c in d[2:]]')" = "[('tunnel', $echo_port, None, True), ('http', $echo_port, None, True)]" ]
    report $? "$what: the audit line counts the downloads' bytes exactly (head of $head_len bytes and body) and the uploads' bodies with their heads" "$net" "$out"
    # The same upload last, with every record write held 100 ms
    # (slow-writes): its last record is written after the client has gone
    # and the run has ended, and must still be there, whole.
    slow_launcher 100
    python3 "$SLUICE_SRCDIR/tests/integration/egress_echo_http.py" 127.0.0.2 "$echo_port" "$TEST_TMP/echo.log" &
    echo_srv=$!
    wait_for 20 curl -sf -o /dev/null "http://127.0.0.2:$echo_port/ready"
    run env SLUICE_LAUNCH="$TEST_TMP/slow-launch" "$SLUICE" run -C "$ws" --config "$TEST_TMP/whole.ini" \
      --format json -- "curl -sS -m 20 -p --data-binary @upload.bin http://127.0.0.2:$echo_port/last"
    kill "$echo_srv" 2>/dev/null
    slow_launcher_stop
    net=$(json_get "$(tail -n 1 "$whole_audit")" 'json.dumps(d["network"])')
    [ "$(json_get "$out" 'd["stdout"]')" = "/last 127.0.0.2:$echo_port $up" ] &&
      [ "$(json_get "$net" '[(c["kind"], c["reason"], '"$up"' < c["bytesUp"] < '"$up"' + 1024) for c in d]')" = "[('tunnel', None, True)]" ]
    report $? "$what: the run's last upload is recorded whole, its record written after the run's end" "$net" "$out" "$err"
    rm -f "$TEST_TMP/www/random.bin" "$ws/upload.bin"
  fi

  # --- 3. a host not on the list: 403 naming it and the key, at once
  # ("at once": under 10 s, half of curl's -m 20 that a held connection
  # would wait out; 0.2 s here when quiet, 3 s was seen at load 14)
  timed "$SLUICE" run -C "$ws" --config "$cfg" --format json -- \
    "curl -sS -m 20 -p http://127.0.0.3:$port/index.html; curl -s -m 20 -x \"\$HTTP_PROXY\" http://127.0.0.3:$port/index.html"
  ! grep -q "$token" <<<"$out" && grep -q 'CONNECT tunnel failed, response 403' <<<"$out" &&
    grep -q "refused 127.0.0.3:$port: it is not in \[network\] allow" <<<"$out" && under 10
  report $? "$what: a host not on the list is refused at once (${secs}s) with 403 naming the host and [network] allow" "$out" "$err"

  # --- 4. a command that ignores the proxy has no route, at once
  timed "$SLUICE" run -C "$ws" --config "$cfg" --format json -- \
    "curl -sS -m 20 --noproxy '*' http://127.0.0.2:$port/index.html; curl -sS -m 20 --noproxy '*' http://192.0.2.1/"
  ! grep -q "$token" <<<"$out" && [ "$(grep -c "Failed to connect\|Couldn't connect\|unreachable" <<<"$(json_get "$out" 'd["output"]')")" -ge 2 ] && under 10
  report $? "$what: a command that connects directly (to the allowed host too) fails at once (${secs}s)" "$out" "$err"
done

# --- 5. a name on the list that resolves to the machine's own address
# --- a background job: its start is known from the launcher's report,
# which the proxy must not hold open
rm -f "$ws/bg.out"
timed "$SLUICE" run -C "$ws" --config "$TEST_TMP/shared.ini" --mode background --format json -- \
  "curl -sS -m 5 -p http://127.0.0.2:$port/index.html >bg.out 2>&1"
[ "$rc" -eq 0 ] && [ "$(json_get "$out" 'd["ok"]')" = True ] && under 10 &&
  wait_for 20 grep -q "$token" "$ws/bg.out"
report $? "a background job with the allowlist starts at once (${secs}s) and fetches the host on the list" \
  "rc=$rc" "$out" "$err" "$(cat "$ws/bg.out" 2>&1)"

run "$SLUICE" run -C "$ws" --config "$TEST_TMP/name.ini" --format json -- \
  "curl -s -m 5 --noproxy '' -x \"\$HTTP_PROXY\" http://localhost:$port/index.html"
! grep -q "$token" <<<"$out" && grep -Eq "localhost:$port: it resolves to (127\.0\.0\.1|::1) \\([^)]*loopback" <<<"$out"
report $? "a name on the list that resolves to the loopback is refused (only an IP written in the list leads there)" "$out" "$err"

# --- 5b. the text a model reads names what the allowlist refused, whatever
# the client made of it: curl's "CONNECT tunnel failed, response 403" and
# npm's "403 Forbidden - GET URL" hold no word the denial note looks for
# (a server's own 403 says the same), and a run that times out is told too
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/shared.ini" -- \
  "curl -sS -m 20 -p http://127.0.0.3:$port/index.html; curl -sS -m 20 -p http://127.0.0.3:$port/index.html"
grep -q 'CONNECT tunnel failed, response 403' <<<"$out" &&
  ! grep -Eiq "permission denied|not permitted|read-only|connection refused|couldn't connect|unreachable|resolve|getaddrinfo|new connection" \
    <<<"$(grep '^curl' <<<"$out")" &&
  ! grep -Eq '\<E(ACCES|PERM|ROFS|AI_AGAIN|NETUNREACH|CONNREFUSED|NOTFOUND)\>' <<<"$(grep '^curl' <<<"$out")"
report $? "control: curl's own words for the refusal hold no word of a denial" "$out" "$err"
grep -qF "[sandbox: the network allowlist refused 2 connections: 127.0.0.3:$port (not in [network] allow); retrying will not help" <<<"$out" &&
  [ "$(grep -c '^\[sandbox: the network allowlist' <<<"$out")" = 1 ]
report $? "the text names the host the allowlist refused, once, with the count and the key" "$out" "$err"
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/name.ini" -- \
  "curl -s -m 5 --noproxy '' -x \"\$HTTP_PROXY\" http://localhost:$port/index.html"
grep -qF "refused 1 connection: localhost:$port (its name resolves to an address of this machine" <<<"$out"
report $? "a name that resolves to the machine is named in the text, with why" "$out" "$err"
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/shared.ini" --timeout 2s -- \
  "curl -s -m 5 -p http://127.0.0.3:$port/index.html; sleep 30"
grep -q '^\[command timed out' <<<"$out" && grep -qF "refused 1 connection: 127.0.0.3:$port" <<<"$out"
report $? "a run that timed out after a refusal is told of it too" "$out" "$err"
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/shared.ini" -- "curl -sS -m 5 -p http://127.0.0.2:$port/index.html"
grep -q "$token" <<<"$out" && ! grep -q 'allowlist refused' <<<"$out"
report $? "a run whose connections were all allowed gets no such line" "$out" "$err"

# --- 6. the list cannot be changed by the command
# its own proxy, made inside: it runs in the sandbox's network, which has no route
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/shared.ini" --format json -- \
  "'$SLUICE_LAUNCH' --profile workspace-write --egress-allow 127.0.0.3:$port -- curl -sS -m 5 -p http://127.0.0.3:$port/index.html"
! grep -q "$token" <<<"$out"
report $? "a proxy the command starts itself (nested sluice-launch --egress-allow) does not reach a host off the list" "$out" "$err"
# the user's configuration, which the broker reads for the next run
user_ini=$XDG_CONFIG_HOME/sluice/sluice.ini
cp "$user_ini" "$TEST_TMP/user.ini.orig"
printf '[network]\nallow = %s\n' "$allow" >>"$user_ini"
run "$SLUICE" run -C "$ws" --format json -- \
  "printf '[network]\nallow = 127.0.0.3:$port\n' >>'$user_ini'"
run "$SLUICE" run -C "$ws" --format json -- "curl -sS -m 5 -p http://127.0.0.3:$port/index.html"
! grep -q "$token" <<<"$out" && ! grep -q 127.0.0.3 "$user_ini" && grep -q "CONNECT tunnel failed, response 403" <<<"$out"
report $? "the command cannot add a host to the user's [network] allow (the file stays as it was; the host stays refused)" "$out" "$(cat "$user_ini")"
cp "$TEST_TMP/user.ini.orig" "$user_ini"

# --- 7. a bad pattern refuses the configuration, naming it and the key
printf '[network]\nallow = https://registry.example.org\n' >"$TEST_TMP/bad.ini"
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/bad.ini" --format json -- true
[ "$(json_get "$out" 'd["error"]["kind"]')" = config_error ] &&
  grep -q "\[network\] allow: the pattern 'https://registry.example.org'" <<<"$out$err"
report $? "a pattern with a scheme refuses the configuration, naming it and [network] allow" "$out" "$err"

# --- 8. sluice doctor says whether the proxy is configured
run "$SLUICE" doctor --config "$TEST_TMP/shared.ini"
grep -q "network egress: through sluice's proxy, to $allow" <<<"$out"
report $? "sluice doctor names the allowlist the proxy serves" "$out"
run "$SLUICE" doctor
grep -q "network egress: none" <<<"$out"
report $? "sluice doctor says there is no egress without [network] allow" "$out"
kill "$allowed_srv" "$other_srv" 2>/dev/null
