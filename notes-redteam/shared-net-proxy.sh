#!/usr/bin/env bash
# Class: per-workspace state used to affect another run (issue 34; the known
# "no per-run proxy token"). The runs and jobs of a workspace share one
# network namespace, and each run's egress relay listens on that loopback,
# so a background job finds a later run's relay in /proc/net/tcp and sends
# its own requests through it: it reaches what only that run may reach,
# and its connections are recorded (and would be asked about, with that
# run's command shown to the approver) as the other run's.
# Here job A has no [network] allow at all; run B has 127.0.0.2:PORT
# (a --config of its own: a session's yes, a project's extra host).
. "$(dirname "$0")/env.sh"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.2",0)); print(s.getsockname()[1])')
mkdir -p "$RT/www"; echo "INTERNAL-DATA" >"$RT/www/index.html"
(cd "$RT/www" && exec python3 -m http.server "$port" --bind 127.0.0.2 >/dev/null 2>&1) & srv=$!
trap 'kill $srv 2>/dev/null' EXIT
sleep 1
printf '[network]\nallow = 127.0.0.2:%s\n' "$port" >"$RT/b.ini"
# job A: the direct way is refused (control), then it waits for a relay that is not its own
boxed "curl -s -m 3 http://127.0.0.2:$port/ || echo 'A direct: refused';
  for i in \$(seq 200); do
    for p in \$(ss -Hltn 2>/dev/null | awk '{n=split(\$4,a,\":\"); print a[n]}'); do
      if out=\$(curl -s -m 3 -x http://127.0.0.1:\$p http://127.0.0.2:$port/); then echo \"A via relay \$p: \$out\"; exit 0; fi
    done; sleep 0.1; done; echo 'A: nothing'" --mode background --timeout 60s
sleep 3
# run B: an ordinary command that lasts a few seconds, with its own allowlist
"$SLUICE" run -C "$REPO" --format json --config "$RT/b.ini" -- 'sleep 6; echo B done' >"$RT/b.json"
sleep 1
echo "--- job A's output:"; cat "$XDG_RUNTIME_DIR"/sluice/jobs/*.out
echo "--- run B's network record:"; python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("network"))' "$RT/b.json"
