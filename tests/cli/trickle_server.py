#!/usr/bin/env python3
"""A profile server for tests/cli/fetch_signal.sh, slow where it is asked
to be.

    trickle_server.py PROFILE

Listens on 127.0.0.1 on a free port, prints "listening on PORT", then
serves until killed (or for at most five minutes):

    /fast        PROFILE at once (200)
    /trickle     PROFILE's length in Content-Length, then its bytes 512 at
                 a time, one piece every 50 ms (minutes for a large file);
                 "trickling" is printed when the first piece is sent
"""
import http.server
import sys
import threading
import time

PROFILE = open(sys.argv[1], "rb").read()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        path = self.path.split("?")[0]
        if path not in ("/fast", "/trickle"):
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(PROFILE)))
        self.end_headers()
        try:
            if path == "/fast":
                self.wfile.write(PROFILE)
                return
            for at in range(0, len(PROFILE), 512):
                self.wfile.write(PROFILE[at:at + 512])
                self.wfile.flush()
                if at == 0:
                    print("trickling", flush=True)
                time.sleep(0.05)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("listening on %d" % server.server_address[1], flush=True)
# A safety net for a test killed before its EXIT trap; the test stops
# the server itself. An hour, since a whole test under valgrind on a
# loaded machine runs past five minutes (a fresh root's CI did).
threading.Timer(3600, server.shutdown).start()
server.serve_forever()
