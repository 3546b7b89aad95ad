#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An HTTP/1.1 server for the egress proxy's attack checks
(sandbox-egress-attacks.sh): it keeps connections alive, reads a body by
Content-Length or chunked, and logs one line per request it receives,
"PATH HOST BODY-LENGTH", to LOG (flushed at once), answering the same line.
Usage: egress_echo_http.py ADDRESS PORT LOG"""
import http.server
import sys


class Echo(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive unless asked otherwise

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def answer(self):
        body = self.read_body()
        line = f"{self.path} {self.headers.get('Host', '-')} {len(body)}\n"
        with open(sys.argv[3], "a") as log:
            log.write(line)
        data = line.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = answer

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer((sys.argv[1], int(sys.argv[2])), Echo).serve_forever()
