#!/usr/bin/env bash
# Class: network outside the allowlist (issue 34). 127.0.0.2:PORT is on
# [network] allow, 127.0.0.3:PORT (same port) is not; each serves a page
# naming itself. Raw requests to the proxy, from inside a default-mode run,
# in spellings where the host judged and the host reached could differ
# (userinfo, fragments, backslashes, other spellings of an address, IPv6
# forms, a port elsewhere, absolute-form inside a tunnel, CONNECT with a
# path). Prints, per variant, what came back; OTHER in a line is a hole.
. "$(dirname "$0")/env.sh"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.2",0)); print(s.getsockname()[1])')
for h in 2 3; do mkdir -p "$RT/w$h"; [ $h = 2 ] && echo ALLOWED >"$RT/w$h/index.html" || echo OTHER >"$RT/w$h/index.html"
  (cd "$RT/w$h" && exec python3 -m http.server "$port" --bind 127.0.0.$h >/dev/null 2>&1) & eval srv$h=\$!; done
trap 'kill $srv2 $srv3 2>/dev/null' EXIT
sleep 1; curl -s http://127.0.0.3:$port/ | sed 's/^/control, direct outside: /'
printf '[network]\nallow = 127.0.0.2:%s\n' "$port" >>"$XDG_CONFIG_HOME/sluice/sluice.ini"
cat >"$REPO/probe.py" <<'PY'
import os, socket, sys
port = sys.argv[1]
proxy = os.environ["HTTP_PROXY"].rsplit(":", 1)
P = (proxy[0].split("//")[1], int(proxy[1]))
A, O = "127.0.0.2:" + port, "127.0.0.3:" + port
def send(data, second=None):
    s = socket.create_connection(P, timeout=5)
    s.sendall(data.encode())
    out = b""
    try:
        while True:
            b = s.recv(65536)
            if not b: break
            out += b
            if second and b" 200 " in out.split(b"\r\n")[0] and b"\r\n\r\n" in out:
                s.sendall(second.encode()); second = None; out += b"|TUNNEL|"
    except socket.timeout: pass
    return out.decode(errors="replace").replace("\r\n", " ")[:160]
V = {
 "control: allowed plain": f"GET http://{A}/ HTTP/1.1\r\nHost: {A}\r\n\r\n",
 "control: other plain": f"GET http://{O}/ HTTP/1.1\r\nHost: {O}\r\n\r\n",
 "userinfo allowed@other": f"GET http://{A}@{O}/ HTTP/1.1\r\nHost: {O}\r\n\r\n",
 "other#@allowed": f"GET http://{O}#@{A}/ HTTP/1.1\r\nHost: {A}\r\n\r\n",
 "other?@allowed": f"GET http://{O}?@{A}/ HTTP/1.1\r\nHost: {A}\r\n\r\n",
 "backslash other\\@allowed": f"GET http://{O}\\@{A}/ HTTP/1.1\r\nHost: {A}\r\n\r\n",
 "decimal 2130706435": f"GET http://2130706435:{port}/ HTTP/1.1\r\nHost: x\r\n\r\n",
 "short 127.3": f"GET http://127.3:{port}/ HTTP/1.1\r\nHost: x\r\n\r\n",
 "octal 0177.0.0.3": f"GET http://0177.0.0.3:{port}/ HTTP/1.1\r\nHost: x\r\n\r\n",
 "ipv6 [::ffff:7f00:3]": f"GET http://[::ffff:7f00:3]:{port}/ HTTP/1.1\r\nHost: x\r\n\r\n",
 "ipv6 [::ffff:127.0.0.2] (allowed, other spelling)": f"GET http://[::ffff:127.0.0.2]:{port}/ HTTP/1.1\r\nHost: x\r\n\r\n",
 "percent 127.0.0.%33": f"GET http://127.0.0.%33:{port}/ HTTP/1.1\r\nHost: x\r\n\r\n",
 "trailing dot 127.0.0.3.": f"GET http://127.0.0.3.:{port}/ HTTP/1.1\r\nHost: x\r\n\r\n",
 "origin-form, Host other": f"GET / HTTP/1.1\r\nHost: {O}\r\n\r\n",
 "origin-form, Host allowed": f"GET / HTTP/1.1\r\nHost: {A}\r\n\r\n",
 "two Host headers": f"GET http://{A}/ HTTP/1.1\r\nHost: {A}\r\nHost: {O}\r\n\r\n",
 "CONNECT other": f"CONNECT {O} HTTP/1.1\r\nHost: {O}\r\n\r\n",
 "CONNECT allowed@other": f"CONNECT {A}@{O} HTTP/1.1\r\n\r\n",
 "CONNECT allowed/../other": f"CONNECT {A}/x HTTP/1.1\r\n\r\n",
 "CONNECT 127.0.0.2:other-port": f"CONNECT 127.0.0.2:{int(port)+1} HTTP/1.1\r\n\r\n",
 "CONNECT with space": f"CONNECT {A} x HTTP/1.1\r\n\r\n",
 "lowercase connect": f"connect {O} HTTP/1.1\r\n\r\n",
 "HTTP/0.9-style": f"GET http://{O}/\r\n\r\n",
 "absolute https:// scheme to other": f"GET https://{O}/ HTTP/1.1\r\nHost: {O}\r\n\r\n",
 "ftp:// scheme": f"GET ftp://{O}/ HTTP/1.1\r\n\r\n",
 "tab separators": f"GET\thttp://{O}/\tHTTP/1.1\r\n\r\n",
 "obs-fold Host": f"GET http://{A}/ HTTP/1.1\r\nX: a\r\n Host: {O}\r\n\r\n",
}
for name, req in V.items():
    print(f"{name:48} -> {send(req)}")
print(f"{'tunnel to allowed, then a proxy request for other':48} -> " + send(f"CONNECT {A} HTTP/1.1\r\n\r\n", f"GET http://{O}/ HTTP/1.1\r\nHost: {O}\r\n\r\n"))
PY
boxed "python3 probe.py $port" | sed 's/Server: SimpleHTTP[^ ]* Python[^ ]* //; s/Date: [^G]*GMT //'
