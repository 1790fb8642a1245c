#!/usr/bin/env python3
"""A small HTTP server that answers badly, for tests/cli/http_errors.sh.

    http_server.py PROFILE [CERT KEY]

Listens on 127.0.0.1 on a free port, prints "listening on 127.0.0.1:PORT"
(and with a certificate and its key, "tls on 127.0.0.1:PORT" for the same
answers over HTTPS) and serves until killed (or for at most five minutes):

    /profile      PROFILE, gzip'd as it is (200)
    /404          404 "no such profile"
    /500          500 with a two-line body
    /500-empty    500 with no body
    /ctl          500 whose body holds terminal escape sequences
    /slow         200, two bytes of gzip, then nothing for a minute
    /longdelay    PROFILE after thirty seconds
    /delay        PROFILE after four seconds (each arrival's time in ms
                  appended to the file $DELAY_LOG when it is set)
    /garbage      200 "this is not a profile"
    /empty        200 with no body
    /truncated    200 with the first 300 bytes of PROFILE
    /bomb         200 with 8 MiB of spaces, gzip'd (a zip bomb for --max-size)
    /endless      200, a gzip'd profile that never ends: a sample type, then
                  empty samples (1 MiB of them per 1 KiB of gzip), forever
    /endless-ce   the same as Content-Encoding: gzip (libcurl inflates it)
    /redirect     302 to /profile
    /bigheader    200 with a header line of 300 KB
    /manyheaders  200 with 2,000 headers of 200 bytes
    /hugelength   200 whose Content-Length says 10 GB, then PROFILE
    /auth         PROFILE with "Authorization: Basic" user:secret, else 401
    /echo...      404 whose body is the path and query the server was asked
"""
import base64
import functools
import gzip
import http.server
import os
import ssl
import sys
import threading
import time
import zlib

PROFILE = open(sys.argv[1], "rb").read()
# Spaces, not zeros: zeros are refused by their first kilobytes.
BOMB = gzip.compress(b" " * (8 << 20))


@functools.lru_cache(maxsize=None)
def endless():
    """The start of a gzip stream and a deflate block that may follow it
    any number of times: each ends with a full flush, so no block refers
    back past its own start."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = c.compress(b"\x0a\x04\x08\x01\x10\x02") + c.flush(zlib.Z_FULL_FLUSH)
    block = c.compress(b"\x12\x00" * (512 << 10)) + c.flush(zlib.Z_FULL_FLUSH)
    return head, block

AUTH = "Basic " + base64.b64encode(b"user:secret").decode()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, code, body, headers=()):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/profile":
            self.answer(200, PROFILE)
        elif path == "/404":
            self.answer(404, b"no such profile\n")
        elif path == "/500":
            self.answer(500, b"\n  boom: database down  \r\nsecond line\n")
        elif path == "/500-empty":
            self.answer(500, b"")
        elif path == "/ctl":
            self.answer(500, b"\x1b[31mred\x1b[0m \x9b2J \xff done")
        elif path == "/slow":
            self.send_response(200)
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"\x1f\x8b")
            self.wfile.flush()
            time.sleep(60)
        elif path == "/longdelay":
            # Long enough that waiting for it cannot pass for failing fast,
            # however slow the client (valgrind on a loaded machine).
            time.sleep(30)
            self.answer(200, PROFILE)
        elif path == "/delay":
            # When each request came (DELAY_LOG): whether several were
            # fetched at once shows there, whatever the client's speed.
            if os.environ.get("DELAY_LOG"):
                with open(os.environ["DELAY_LOG"], "a") as log:
                    log.write("%d\n" % int(time.time() * 1000))
            time.sleep(4)
            self.answer(200, PROFILE)
        elif path == "/garbage":
            self.answer(200, b"this is not a profile\n")
        elif path == "/empty":
            self.answer(200, b"")
        elif path == "/truncated":
            self.answer(200, PROFILE[:300])
        elif path == "/bomb":
            self.answer(200, BOMB)
        elif path in ("/endless", "/endless-ce"):
            self.send_response(200)
            if path == "/endless-ce":
                self.send_header("Content-Encoding", "gzip")
            self.end_headers()
            try:
                self.wfile.write(endless()[0])
                deadline = time.time() + 60
                while time.time() < deadline:
                    self.wfile.write(endless()[1] * 16)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/bigheader":
            self.answer(200, PROFILE, [("X-Big", "x" * (300 << 10))])
        elif path == "/manyheaders":
            self.answer(200, PROFILE, [("X-H%d" % i, "y" * 200) for i in range(2000)])
        elif path == "/hugelength":
            self.send_response(200)
            self.send_header("Content-Length", str(10 << 30))
            self.end_headers()
            try:
                self.wfile.write(PROFILE)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/redirect":
            self.answer(302, b"", [("Location", "/profile")])
        elif path == "/auth":
            if self.headers.get("Authorization") == AUTH:
                self.answer(200, PROFILE)
            else:
                self.answer(401, b"who are you?\n")
        elif path.startswith("/echo"):
            self.answer(404, self.path.encode() + b"\n")
        else:
            self.answer(404, b"unknown path\n")


def serve(server):
    server.daemon_threads = True
    # A safety net for a test killed before its EXIT trap; the test stops
    # the server itself. An hour, since a whole test under valgrind on a
    # loaded machine runs past five minutes (a fresh root's CI did).
    threading.Timer(3600, server.shutdown).start()
    server.serve_forever()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("listening on 127.0.0.1:%d" % server.server_address[1], flush=True)
if len(sys.argv) > 3:
    tls = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    tls.socket = context.wrap_socket(tls.socket, server_side=True)
    print("tls on 127.0.0.1:%d" % tls.server_address[1], flush=True)
    threading.Thread(target=serve, args=(tls,), daemon=True).start()
serve(server)
