# SPDX-License-Identifier: MIT
"""The Python side of mcp-rpc.sh: a `sluice mcp` server on pipes, the
requests its checks send, and the waits they share. The script puts this
directory on PYTHONPATH for its Python snippets. Not a test itself."""
import json
import os
import subprocess
import time


def call_line(i, command, **arguments):
    """A tools/call of bash with id i, as one JSON line (no newline)."""
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                       "params": {"name": "bash", "arguments": dict(arguments, command=command)}})


class Server:
    """`sluice mcp -C root OPTION...`, initialized with the line init
    (its answer read) unless init is None."""

    def __init__(self, sluice, root, *options, init=None):
        self.proc = subprocess.Popen([sluice, "mcp", "-C", root, *options],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.pid = self.proc.pid
        if init is not None:
            self.send(json.loads(init))
            self.read()

    def send(self, msg):
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())

    def call(self, i, command, **arguments):
        self.proc.stdin.write((call_line(i, command, **arguments) + "\n").encode())

    def read(self):
        """The next line the server writes, parsed."""
        return json.loads(self.proc.stdout.readline())

    def workers(self):
        """The server's children's pids."""
        found = subprocess.run(["pgrep", "-P", str(self.pid)], capture_output=True)
        return found.stdout.split()

    def close(self):
        """End of input; the server's exit status."""
        self.proc.stdin.close()
        return self.proc.wait()


def launchers_waiting(root):
    """The pids of the launchers started for workspace root: a launcher that
    made a PID namespace forks its init, which has the same command line;
    only the outer one (whose parent is no launcher of root) counts."""
    found = subprocess.run(["pgrep", "-f", "--", "--workspace " + root], capture_output=True)
    pids = found.stdout.split()
    def parent(pid):
        try:
            return open(f"/proc/{pid.decode()}/stat").read().rsplit(") ", 1)[1].split()[1].encode()
        except OSError:
            return None
    return [p for p in pids if parent(p) not in pids]


def wait_for(cond, seconds):
    """Poll cond until it holds or the time is up; whether it held."""
    for _ in range(int(seconds / 0.025)):
        if cond():
            return True
        time.sleep(0.025)
    return bool(cond())


def marked(mark):
    """The pids of the processes whose argv[0] is mark (a command's
    process, found from outside: the pids it prints are its PID
    namespace's, which name other processes here)."""
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            argv0 = open(f"/proc/{d}/cmdline", "rb").read().split(b"\0", 1)[0]
        except OSError:
            continue
        if argv0 == mark.encode() and not gone(int(d)):
            found.append(int(d))
    return found


def gone(pid):
    """The process has ended (a zombie not yet waited for counts)."""
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(") ", 1)[1][0] in "ZX"
    except OSError:  # FileNotFoundError, or ESRCH when it ends mid-read
        return True
