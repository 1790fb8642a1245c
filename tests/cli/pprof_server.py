#!/usr/bin/env python3
"""A small net/http/pprof look-alike for tests/cli/tls.sh and symbolz.sh.

    pprof_server.py PROFILE [SYMBOLS] [--tls CERT KEY CA]

Listens on 127.0.0.1 on a free port and prints "listening on PORT", then
serves until killed (or for at most five minutes):

    /debug/pprof/profile   PROFILE as it is (200)
    /debug/pprof/symbol    pprof's symbolz protocol: GET answers
                           "num_symbols: 1"; POST with a body of addresses
                           joined by "+" ("0x4010a0+0x4010b3") answers one
                           "0xADDR NAME" line for each address that falls
                           in a symbol of SYMBOLS (lines "START SIZE NAME",
                           hex start and size); the bodies of the POSTs
                           are appended to the file named by the
                           environment's SYMBOLZ_LOG, if set
    /other/profile         PROFILE again: its symbolz URL is /other/symbolz,
                           which answers 404
    /bad/profile           PROFILE again: its symbolz URL is /bad/symbolz,
                           whose POST answers an address too long for
                           64 bits (pprof's "unexpected parse failure")

With --tls the server speaks HTTPS with CERT and KEY and requires a client
certificate signed by the CA in CA: a client without one fails the
handshake.
"""
import http.server
import os
import ssl
import sys
import threading

args = sys.argv[1:]
tls = None
if "--tls" in args:
    i = args.index("--tls")
    tls = args[i + 1:i + 4]
    args = args[:i]
PROFILE = open(args[0], "rb").read()
SYMBOLS = []
if len(args) > 1:
    for line in open(args[1]):
        start, size, name = line.split(None, 2)
        SYMBOLS.append((int(start, 16), int(size, 16), name.strip()))


def lookup(addr):
    for start, size, name in SYMBOLS:
        if start <= addr < start + size:
            return name
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, code, body):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path in ("/debug/pprof/profile", "/other/profile", "/bad/profile"):
            self.answer(200, PROFILE)
        elif path == "/debug/pprof/symbol":
            self.answer(200, b"num_symbols: 1\n")
        else:
            self.answer(404, b"unknown path\n")

    def do_POST(self):
        path = self.path.split("?")[0]
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if path == "/bad/symbolz":
            self.answer(200, b"0x1234567890abcdef12 toolong\n")
            return
        if path != "/debug/pprof/symbol":
            self.answer(404, b"unknown path\n")
            return
        if os.environ.get("SYMBOLZ_LOG"):
            with open(os.environ["SYMBOLZ_LOG"], "ab") as f:
                f.write(body + b"\n")
        out = []
        for word in body.decode().replace("+", " ").split():
            name = lookup(int(word, 0))
            if name is not None:
                out.append("%#x %s\n" % (int(word, 0), name))
        self.answer(200, "".join(out).encode())


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
if tls:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls[0], tls[1])
    context.load_verify_locations(tls[2])
    context.verify_mode = ssl.CERT_REQUIRED
    server.socket = context.wrap_socket(server.socket, server_side=True)
server.daemon_threads = True
print("listening on %d" % server.server_address[1], flush=True)
# A safety net for a test killed before its EXIT trap; the test stops
# the server itself. An hour, since a whole test under valgrind on a
# loaded machine runs past five minutes (a fresh root's CI did).
threading.Timer(3600, server.shutdown).start()
server.serve_forever()
