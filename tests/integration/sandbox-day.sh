#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A day's work in the default sandbox plus one [network] allow line: the
# tools' own clients, not curl, against local stand-ins for a package
# registry and a git host on the host's loopback (127.0.0.2): `npm install`
# of a package from a registry-like server (its metadata and tarball, the
# cache npm writes under the home), a `git clone` and `git fetch` over
# HTTP, `pip download` from a simple index (where pip is installed). Each
# first without the allowlist, where it must fail, and fail at once; then
# with it, where it must work; the user's real home untouched throughout.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="a day's work through the allowlist"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
need_host_loopback
command -v npm >/dev/null || skip_rest "$sandbox_subject" "npm is not installed"

www=$TEST_TMP/www
mkdir -p "$www/tarballs" "$www/simple/day-py"
port=$(free_port 127.0.0.2)
base="http://127.0.0.2:$port"
token="day-$RANDOM$RANDOM"

# --- the registry: one package, packed by npm itself, and its metadata as
# a registry serves it (GET /NAME: versions, dist.tarball, dist.integrity)
pkg=$TEST_TMP/day-pkg
mkdir -p "$pkg"
printf '{"name":"day-pkg","version":"1.0.0","main":"index.js"}\n' >"$pkg/package.json"
printf 'module.exports = "%s";\n' "$token" >"$pkg/index.js"
(cd "$pkg" && npm pack --silent --pack-destination "$www/tarballs" >/dev/null 2>&1)
[ -f "$www/tarballs/day-pkg-1.0.0.tgz" ]
report $? "control: npm packed the test package" "$(ls "$www/tarballs")"
python3 - "$www" "$base" <<'EOF'
import base64, hashlib, json, sys
www, base = sys.argv[1], sys.argv[2]
tgz = open(f"{www}/tarballs/day-pkg-1.0.0.tgz", "rb").read()
meta = {"name": "day-pkg", "dist-tags": {"latest": "1.0.0"}, "versions": {"1.0.0": {
    "name": "day-pkg", "version": "1.0.0", "main": "index.js", "dist": {
        "tarball": f"{base}/tarballs/day-pkg-1.0.0.tgz",
        "shasum": hashlib.sha1(tgz).hexdigest(),
        "integrity": "sha512-" + base64.b64encode(hashlib.sha512(tgz).digest()).decode()}}}}
open(f"{www}/day-pkg", "w").write(json.dumps(meta))
EOF

# --- the git host: a bare repository served over HTTP (git's dumb protocol)
git init -q --bare "$www/repo.git"
new_repo "$TEST_TMP/upstream"
git -C "$TEST_TMP/upstream" push -q "$www/repo.git" main
git -C "$www/repo.git" update-server-info

# --- the package index: one wheel, made by hand (a wheel is a zip)
python3 - "$www" <<'EOF'
import sys, zipfile
www = sys.argv[1]
with zipfile.ZipFile(f"{www}/simple/day-py/day_py-1.0-py3-none-any.whl", "w") as z:
    z.writestr("day_py.py", "TOKEN = 1\n")
    z.writestr("day_py-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: day-py\nVersion: 1.0\n")
    z.writestr("day_py-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    z.writestr("day_py-1.0.dist-info/RECORD", "")
open(f"{www}/simple/day-py/index.html", "w").write(
    '<html><body><a href="day_py-1.0-py3-none-any.whl">day_py-1.0-py3-none-any.whl</a></body></html>\n')
EOF

(cd "$www" && exec python3 -m http.server "$port" --bind 127.0.0.2 >/dev/null 2>&1) &
server=$!
wait_for 20 curl -sf -o /dev/null "$base/day-pkg"
report $? "control: the stand-in registry answers on the host's loopback, outside the sandbox"

printf '[network]\nallow = 127.0.0.2:%s\n' "$port" >"$TEST_TMP/allow.ini"
ws=$TEST_TMP/ws
new_repo "$ws"
printf '{"name":"day-app","version":"0.0.0","private":true,"dependencies":{"day-pkg":"1.0.0"}}\n' >"$ws/package.json"
printf 'registry=%s/\n' "$base" >"$ws/.npmrc"
git -C "$ws" add package.json .npmrc
git -C "$ws" commit -q -m app
# the user's real home as it is before the day: what the sandbox must not change
home_state() { (cd "$HOME" && find . -path ./.cache/sluice -prune -o -printf '%p %s %T@\n' | sort); }
before=$(home_state)

# --- npm install
# "at once": npm's retries take 70 s and more; 30 s leaves room for a
# machine under load, where npm's own start can take 10
timed "$SLUICE" run -C "$ws" --format json -- "npm install --no-audit --no-fund"
ran "without [network] allow, npm install fails at once" &&
  [ "$(json_get "$out" 'd["exitCode"]')" != 0 ] && [ ! -e "$ws/node_modules/day-pkg" ] && under 30
report $? "without [network] allow, npm install fails, and at once (${secs}s)" "$out" "$err"

timed "$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" --format json -- \
  "npm install --no-audit --no-fund && node -e 'console.log(require(\"day-pkg\"))'"
ran "with the registry allowed, npm install works" &&
  [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] && grep -q "$token" <<<"$out"
report $? "with the registry on [network] allow, npm install fetches the package and node requires it (${secs}s)" "$out" "$err"

# --- git clone and fetch over HTTP
run "$SLUICE" run -C "$ws" --format json -- "git clone -q $base/repo.git clone"
ran "without [network] allow, git clone fails" &&
  [ "$(json_get "$out" 'd["exitCode"]')" != 0 ] && [ ! -e "$ws/clone/README" ]
report $? "without [network] allow, git clone over HTTP fails" "$out" "$err"
run "$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" --format json -- "git clone -q $base/repo.git clone"
ran "with the host allowed, git clone works" && [ -f "$ws/clone/README" ]
report $? "with the git host on [network] allow, git clone over HTTP works" "$out" "$err"
echo two >"$TEST_TMP/upstream/README"
git -C "$TEST_TMP/upstream" commit -q -am two
git -C "$TEST_TMP/upstream" push -q "$www/repo.git" main
git -C "$www/repo.git" update-server-info
run "$SLUICE" run -C "$ws/clone" --config "$TEST_TMP/allow.ini" --format json -- "git pull -q --ff-only && cat README"
ran "with the host allowed, git pull works" && grep -q two <<<"$(json_get "$out" 'd["stdout"]')"
report $? "with the git host on [network] allow, git pull brings the new commit" "$out" "$err"

# --- pip download from a simple index
if python3 -m pip --version >/dev/null 2>&1; then
  pipcmd="python3 -m pip download -q --no-deps --disable-pip-version-check -d wheels --index-url $base/simple/ day-py"
  # "at once": pip is told not to retry (PIP_RETRIES=0), which its output
  # shows, whatever the machine's load does to the time; the control shows
  # that a retry would show
  run "$SLUICE" run -C "$ws" --format json -- "PIP_RETRIES=1 $pipcmd"
  grep -q 'Retrying' <<<"$out"
  report $? "control: a pip told to retry says so in its output" "$out" "$err"
  timed "$SLUICE" run -C "$ws" --format json -- "$pipcmd"
  ran "without [network] allow, pip download fails" &&
    [ "$(json_get "$out" 'd["exitCode"]')" != 0 ] && [ ! -e "$ws/wheels/day_py-1.0-py3-none-any.whl" ] &&
    ! grep -q 'Retrying' <<<"$out" && under 60
  report $? "without [network] allow, pip download fails, and at once: no retry (${secs}s)" "$out" "$err"
  run "$SLUICE" run -C "$ws" --config "$TEST_TMP/allow.ini" --format json -- "$pipcmd"
  ran "with the index allowed, pip download works" && [ -f "$ws/wheels/day_py-1.0-py3-none-any.whl" ]
  report $? "with the index on [network] allow, pip download fetches the wheel" "$out" "$err"
else
  skip "pip download without and with the allowlist" "pip is not installed for $(command -v python3)"
fi

after=$(home_state)
[ "$before" = "$after" ]
report $? "the user's home is as it was (only sluice's own folder may change)" \
  "$(diff <(echo "$before") <(echo "$after") | head -20)"
kill "$server" 2>/dev/null
