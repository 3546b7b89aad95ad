#!/bin/bash
# In the workspace's shared network (the default: a holder), socket(AF_UNIX)
# is refused, but socketpair(AF_UNIX, SOCK_DGRAM) still gives a datagram
# socket whose sendto() reaches any pathname datagram socket of the host the
# uid may write: /dev/log, the journal (/run/systemd/journal/socket),
# chronyd's or wpa_supplicant's control sockets, a NOTIFY_SOCKET. Here a
# listener in the home stands for them. Prints HOLE (it got the message).
. "$(dirname "$0")/51a-lib.sh"
mkhome dgram
sock=$H/host-dgram.sock
python3 - "$sock" > "$H/got" <<'PY' &
import socket,sys
s=socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM); s.bind(sys.argv[1]); s.settimeout(15)
try:
    while True: print(s.recv(200).decode(), flush=True)
except Exception: pass
PY
sleep 0.5
send='python3 -c "
import socket,sys
try:
    s=socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM); print(\"socket(AF_UNIX): ok\")
except OSError as e: print(\"socket(AF_UNIX):\",e)
a,b=socket.socketpair(socket.AF_UNIX,socket.SOCK_DGRAM)
a.sendto(b\"<34>sshd[1]: forged by $1\",\"'"$sock"'\"); print(\"sent\")"'
run_unres "${send//\$1/unrestricted}"
run_box "${send//\$1/sandbox}"
sleep 1; kill %1 2>/dev/null; wait 2>/dev/null
echo "outside, the listener got:"; cat "$H/got"
grep -q 'forged by sandbox' "$H/got"; r=$?; rm -rf "$H"
if [ $r = 0 ]; then echo HOLE; exit 1; fi
echo stopped; exit 0
