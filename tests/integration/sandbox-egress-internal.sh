#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Names of the egress allowlist that may lead inside ([network]
# allow_internal, sluice-launch --egress-allow-internal; docs/launcher.md
# "Names that may lead inside"). A name on the list that resolves to an
# address of the machine (here localhost, 127.0.0.1, where a server
# answers): first the positive control that the protection holds without
# the key (refused resolves-local, nothing fetched), then reached with it,
# through CONNECT and plain HTTP, recorded allowed. The key is the system
# layer's: a user layer setting it, a pattern allow does not cover, an IP
# address in it, and a user's allow under the system's allow_internal are
# each a config_error naming it. Last, in a network and mount namespace of
# the script's own (its /etc/hosts bound over with names of its own, the
# addresses on its loopback): a name of the key leads to a private address
# (10.77.0.7) but never to the cloud metadata address 169.254.169.254, where
# a server answers (reached through the list by its IP address, the
# control), nor to its IPv4-mapped spelling.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="names of the egress allowlist that may lead inside"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
need_host_loopback
ws=$TEST_TMP/ws
mkdir -p "$ws"
token="egress-internal-$RANDOM$RANDOM"
mkdir -p "$TEST_TMP/www"
echo "$token" >"$TEST_TMP/www/index.html"

# a server on the host's 127.0.0.1, which localhost names
port=$(free_port 127.0.0.1)
(cd "$TEST_TMP/www" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
local_srv=$!
trap 'kill "$local_srv" 2>/dev/null; tap_end' EXIT
wait_for 20 curl -sf --noproxy '*' -o /dev/null "http://127.0.0.1:$port/index.html" &&
  grep -q "$token" <<<"$(curl -sS --noproxy '*' "http://localhost:$port/index.html")"
report $? "control: the server answers at localhost:$port outside the sandbox"

audit=$TEST_TMP/audit.log
# system NAME LINES: a system layer in $TEST_TMP/etc-NAME with these
# [network] lines and the audit log
system() {
  mkdir -p "$TEST_TMP/etc-$1/sluice"
  printf '[network]\n%b[audit]\nfile = %s\n' "$2" "$audit" >"$TEST_TMP/etc-$1/sluice/sluice.ini"
}
system plain "allow = localhost:$port\n"
system internal "allow = localhost:$port\nallow_internal = localhost:$port\n"
system wide "allow = localhost:$port\nallow_internal = localhost\n"
system literal "allow = 127.0.0.1:$port\nallow_internal = 127.0.0.1:$port\n"
system alone "allow_internal = localhost:$port\n"
as_system() {
  local name=$1
  shift
  SLUICE_SYSCONFDIR="$TEST_TMP/etc-$name" "$@"
}
last_line() { json_get "$(tail -n 1 "$audit")" "$1"; }
# through the proxy by name, CONNECT and plain HTTP (NO_PROXY names
# localhost, which curl would otherwise reach directly, on the run's own
# loopback)
via="--noproxy '' -x \"\$HTTP_PROXY\""
fetch="curl -sS -m 10 $via -p http://localhost:$port/index.html; curl -sS -m 10 $via http://localhost:$port/index.html"

# --- 1. without the key: the name is refused, it resolves to the loopback
run as_system plain "$SLUICE" run -C "$ws" --format json -- "$fetch"
ran "without allow_internal, a listed name that resolves to the loopback is refused" &&
  ! grep -q "$token" <<<"$out" &&
  grep -Eq "localhost:$port: it resolves to (127\.0\.0\.1|::1) \(loopback[^)]*\), an address of this machine or its local networks: only an IP address written in \[network\] allow, or a name in \[network\] allow_internal, may lead there" <<<"$out" &&
  [ "$(last_line '[(c["host"], c["kind"], c["verdict"], c["reason"]) for c in d["network"]]')" = "[('localhost', 'tunnel', 'refused', 'resolves-local'), ('localhost', 'http', 'refused', 'resolves-local')]" ]
report $? "positive control: without allow_internal, localhost:$port is refused (resolves-local, CONNECT and plain HTTP), nothing fetched" \
  "$out" "$err" "$(tail -n 1 "$audit" 2>&1)"

# the text a model reads says what would help: the key, not allow
run as_system plain "$SLUICE" run -C "$ws" -- "$fetch"
grep -qF "[sandbox: the network allowlist refused 2 connections: localhost:$port (its name resolves to an address of this machine or its local networks" <<<"$out" &&
  grep -qF "retrying will not help: ask the user to have the administrator add the name to [network] allow_internal, or work without it]" <<<"$out"
report $? "the text names the refused name and points to [network] allow_internal (the host is in allow already)" "$out" "$err"

# --- 2. with the key: reached, through CONNECT and plain HTTP (each
# connection's last record whole: the run's end lets the proxy write it)
run as_system internal "$SLUICE" run -C "$ws" --format json -- "$fetch"
[ "$(json_get "$out" 'd["exitCode"]')" = 0 ] &&
  [ "$(grep -o "$token" <<<"$(json_get "$out" 'd["stdout"]')" | wc -l)" -eq 2 ] &&
  [ "$(last_line '[(c["host"], c["kind"], c["verdict"], c["reason"]) for c in d["network"]]')" = "[('localhost', 'tunnel', 'allowed', None), ('localhost', 'http', 'allowed', None)]" ]
report $? "with allow_internal = localhost:$port, the name reaches the server on the loopback (CONNECT and plain HTTP, recorded allowed)" \
  "$out" "$err" "$(tail -n 1 "$audit" 2>&1)"
# only on the port it names: another port of the same name is not in allow
run as_system internal "$SLUICE" run -C "$ws" --format json -- \
  "curl -sS -m 10 $via -p http://localhost:$((port == 65535 ? port - 1 : port + 1))/index.html"
! grep -q "$token" <<<"$out" && [ "$(last_line '[c["reason"] for c in d["network"]]')" = "['not-listed']" ]
report $? "the key opens no other port of the name" "$out" "$err"

# --- 3. the key is the administrator's, and within allow
printf '[network]\nallow_internal = localhost:%s\n' "$port" >"$TEST_TMP/user-internal.ini"
run as_system plain "$SLUICE" run -C "$ws" --config "$TEST_TMP/user-internal.ini" --format json -- true
[ "$(json_get "$out" 'd["error"]["kind"]')" = config_error ] &&
  grep -q "'allow_internal' in \[network\] is read only from the system configuration" <<<"$err"
report $? "a user layer (--config) cannot set [network] allow_internal" "$out" "$err"
user_ini=$XDG_CONFIG_HOME/sluice/sluice.ini
cp "$user_ini" "$TEST_TMP/user.ini.orig"
printf '[network]\nallow_internal = localhost:%s\n' "$port" >>"$user_ini"
run as_system plain "$SLUICE" run -C "$ws" --format json -- "$fetch"
cp "$TEST_TMP/user.ini.orig" "$user_ini"
[ "$(json_get "$out" 'd["error"]["kind"]')" = config_error ] && ! grep -q "$token" <<<"$out" &&
  grep -q "'allow_internal' in \[network\] is read only from the system configuration" <<<"$err"
report $? "nor can the user's own file" "$out" "$err"
run as_system wide "$SLUICE" run -C "$ws" --format json -- true
[ "$(json_get "$out" 'd["error"]["kind"]')" = config_error ] &&
  grep -q "etc-wide/sluice/sluice.ini:[0-9]*: \[network\] allow_internal: the pattern 'localhost' is not covered by \[network\] allow" <<<"$err"
report $? "a pattern allow does not cover (another port) is a config_error naming it, at its line" "$out" "$err"
run as_system literal "$SLUICE" run -C "$ws" --format json -- true
[ "$(json_get "$out" 'd["error"]["kind"]')" = config_error ] &&
  grep -q "\[network\] allow_internal: the pattern '127.0.0.1:$port' is an IP address" <<<"$err"
report $? "an IP address in allow_internal is a config_error (allow already leads there)" "$out" "$err"
printf '[network]\nallow = localhost:%s\n' "$port" >"$TEST_TMP/user-allow.ini"
run as_system alone "$SLUICE" run -C "$ws" --config "$TEST_TMP/user-allow.ini" --format json -- "$fetch"
[ "$(json_get "$out" 'd["error"]["kind"]')" = config_error ] && ! grep -q "$token" <<<"$out" &&
  grep -q "'allow' in \[network\] cannot be set here: the system configuration (.*etc-alone/sluice/sluice.ini:[0-9]*) sets \[network\] allow_internal" <<<"$err"
report $? "under the system's allow_internal, a user layer cannot supply the allow that covers it" "$out" "$err"

# --- 4. sluice doctor names the key
run as_system internal "$SLUICE" doctor
grep -q "names that may also lead to this machine or its local networks (never to a link-local or cloud metadata address): localhost:$port (\[network\] allow_internal)" <<<"$out"
report $? "sluice doctor names the names that may lead inside" "$out" "$err"

# --- 5. never to a link-local address: in namespaces of the script's own,
# where the names and the addresses are ours (root: a network and mount
# namespace; another user: in a user namespace of its own, as root there)
if [ "$(id -u)" = 0 ]; then ns=(unshare -nm); else ns=(unshare -rnm); fi
if ! "${ns[@]}" sh -c 'ip link set lo up && ip addr add 169.254.169.254/32 dev lo' 2>/dev/null; then
  skip_rest "names of allow_internal never lead to 169.254.169.254" \
    "cannot make a network namespace with 169.254.169.254 on its loopback here (${ns[*]})"
fi
nsport=$(free_port 127.0.0.1)
{ cat /etc/hosts; printf '10.77.0.7 mirror.corp.example.org\n169.254.169.254 metadata.corp.example.org\n::ffff:169.254.169.254 mapped.corp.example.org\n'; } >"$TEST_TMP/hosts"
mkdir -p "$TEST_TMP/ns"
# inside: the addresses, the hosts file, a server on each address, then
# each case's output in $TEST_TMP/ns/NAME (sluice-launch as sluice runs it,
# the command fetching through the proxy)
cat >"$TEST_TMP/inside.sh" <<'EOF'
set -u
tmp=$1 port=$2 launch=$3
ip link set lo up && ip addr add 169.254.169.254/32 dev lo && ip addr add 10.77.0.7/32 dev lo &&
  mount --bind "$tmp/hosts" /etc/hosts || exit 1
cd "$tmp/www" || exit 1
python3 -m http.server "$port" --bind 169.254.169.254 >/dev/null 2>&1 &
a=$!
python3 -m http.server "$port" --bind 10.77.0.7 >/dev/null 2>&1 &
b=$!
trap 'kill $a $b 2>/dev/null' EXIT
for _ in $(seq 200); do
  curl -sf --noproxy '*' -o /dev/null "http://169.254.169.254:$port/index.html" &&
    curl -sf --noproxy '*' -o /dev/null "http://10.77.0.7:$port/index.html" && break
  sleep 0.05
done
cd "$tmp/ws" || exit 1
curl -sS -m 5 --noproxy '*' "http://metadata.corp.example.org:$port/index.html" >"$tmp/ns/direct" 2>&1
# box OUT LAUNCH-OPTIONS... -- HOST: HOST fetched by CONNECT and plain HTTP
box() {
  local out=$1 host
  shift
  host=${*: -1}
  "$launch" --profile workspace-write "${@:1:$#-2}" -- sh -c \
    "curl -sS -m 10 -p http://$host:$port/index.html; curl -sS -m 10 http://$host:$port/index.html" \
    >"$tmp/ns/$out" 2>&1
}
box literal --egress-allow "169.254.169.254:$port" -- 169.254.169.254
box mirror-plain --egress-allow "mirror.corp.example.org:$port" -- mirror.corp.example.org
box mirror-internal --egress-allow "*.corp.example.org:$port" \
  --egress-allow-internal "mirror.corp.example.org:$port" -- mirror.corp.example.org
box metadata --egress-allow "*.corp.example.org:$port" \
  --egress-allow-internal "*.corp.example.org:$port" -- metadata.corp.example.org
box mapped --egress-allow "*.corp.example.org:$port" \
  --egress-allow-internal "*.corp.example.org:$port" -- mapped.corp.example.org
EOF
run "${ns[@]}" bash "$TEST_TMP/inside.sh" "$TEST_TMP" "$nsport" "$SLUICE_LAUNCH"
[ "$rc" -eq 0 ] && grep -q "$token" "$TEST_TMP/ns/direct" &&
  [ "$(grep -c "$token" "$TEST_TMP/ns/literal")" -eq 2 ]
report $? "control: a server answers at 169.254.169.254 in the namespace, by its name outside the sandbox and through the proxy by the IP address written in --egress-allow" \
  "rc=$rc" "$out" "$err" "$(cat "$TEST_TMP/ns/direct" "$TEST_TMP/ns/literal" 2>&1)"
# refused: curl says "CONNECT tunnel failed, response 403" for the tunnel,
# and shows the 403's text for plain HTTP
refused_both() {
  ! grep -q "$token" "$TEST_TMP/ns/$1" && grep -q 'CONNECT tunnel failed, response 403' "$TEST_TMP/ns/$1" &&
    grep -q "$2" "$TEST_TMP/ns/$1"
}
refused_both mirror-plain "mirror.corp.example.org:$nsport: it resolves to 10.77.0.7 (private 10.0.0.0/8), an address of this machine or its local networks"
report $? "without --egress-allow-internal, a listed name that resolves to a private address is refused" \
  "$(cat "$TEST_TMP/ns/mirror-plain" 2>&1)"
[ "$(grep -c "$token" "$TEST_TMP/ns/mirror-internal")" -eq 2 ]
report $? "with it, the name reaches the server at the private address (CONNECT and plain HTTP)" \
  "$(cat "$TEST_TMP/ns/mirror-internal" 2>&1)"
refused_both metadata "metadata.corp.example.org:$nsport: it resolves to 169.254.169.254 (link-local 169.254.0.0/16 (cloud metadata)), where no name leads, not even one in \[network\] allow_internal"
report $? "a name of --egress-allow-internal that resolves to the cloud metadata address 169.254.169.254 stays refused (CONNECT and plain HTTP)" \
  "$(cat "$TEST_TMP/ns/metadata" 2>&1)"
refused_both mapped "mapped.corp.example.org:$nsport: it resolves to ::ffff:169.254.169.254 (link-local .*where no name leads"
report $? "and so does one that resolves to its IPv4-mapped spelling" "$(cat "$TEST_TMP/ns/mapped" 2>&1)"
