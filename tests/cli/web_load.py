#!/usr/bin/env python3
"""A bounded load on the web UI: CLIENTS threads, each asking for the
PATHS in turn (each starting at its own), for SECONDS, over loopback.

    python3 tests/cli/web_load.py BASE_URL SECONDS CLIENTS PATH...

Prints "REQUESTS ERRORS" and then up to five errors, one a line. An error
is an answer other than 200, an empty body, or a failed connection.
"""
import sys
import threading
import time
import urllib.request


def main():
    base, secs, clients = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    paths = sys.argv[4:]
    lock = threading.Lock()
    done = [0]
    errors = []

    def client(first):
        i = first
        end = time.monotonic() + secs
        while time.monotonic() < end:
            path = paths[i % len(paths)]
            i += 1
            try:
                with urllib.request.urlopen(base + path, timeout=120) as r:
                    body = r.read()
                    what = None if r.status == 200 and body else \
                        "status %d, %d bytes" % (r.status, len(body))
            except Exception as e:  # each failure is counted, none ends it
                what = repr(e)
            with lock:
                done[0] += 1
                if what:
                    errors.append("%s: %s" % (path, what))

    threads = [threading.Thread(target=client, args=(k,))
               for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(done[0], len(errors))
    for e in errors[:5]:
        print(e)


if __name__ == "__main__":
    main()
