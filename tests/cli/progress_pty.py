#!/usr/bin/env python3
"""Progress of long work on stderr (src/cli/progress.c), through a pty.

With stderr a terminal, reading, decoding, symbolizing, fetching and
drawing show one line that updates ("\\rpprof-c: reading F, 0.0 s\\x1b[K")
and is erased ("\\r\\x1b[K") when the work is over; a warning is never
printed on that line. With stderr a pipe there is no line at all, and the
bytes of stdout are the same either way.

PPROF_C_PROGRESS_DELAY=0 shows the line at once (by default work shorter
than half a second shows nothing, and these profiles are small).

usage: progress_pty.py PPROF_C SRCDIR TMPDIR
"""
import fcntl
import functools
import http.server
import os
import re
import struct
import subprocess
import sys
import termios
import threading

pprof_c, srcdir, tmp = sys.argv[1:4]
pprof_c, srcdir = os.path.abspath(pprof_c), os.path.abspath(srcdir)
go = os.path.join(srcdir, "testdata", "go")
native = os.path.join(srcdir, "testdata", "native")
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)


def run_tty(args, delay="0", env_extra=None, cols=0):
    """pprof-c ARGS with stderr on a pty (cols wide, if given): (stdout
    bytes, pty bytes, rc)."""
    master, slave = os.openpty()
    if cols:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    env = dict(os.environ, TERM="xterm")
    env.pop("PPROF_C_PROGRESS_DELAY", None)
    if delay is not None:
        env["PPROF_C_PROGRESS_DELAY"] = delay
    env.update(env_extra or {})
    p = subprocess.Popen([pprof_c] + args, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=slave, env=env,
                         cwd=tmp)
    os.close(slave)
    got = bytearray()
    reader = threading.Thread(target=lambda: got.extend(drain(master)))
    reader.start()
    out = p.stdout.read()
    rc = p.wait(timeout=120)
    reader.join(timeout=10)
    os.close(master)
    return out, bytes(got), rc


def drain(fd):
    data = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return data
        if not chunk:
            return data
        data += chunk


def run_pipe(args, delay="0", env_extra=None):
    env = dict(os.environ, PPROF_C_PROGRESS_DELAY=delay)
    env.update(env_extra or {})
    p = subprocess.run([pprof_c] + args, stdin=subprocess.DEVNULL,
                       capture_output=True, env=env, cwd=tmp, timeout=120)
    return p.stdout, p.stderr, p.returncode


def line_re(what):
    return re.compile(rb"\rpprof-c: " + what + rb"[^\r\n]*, \d+\.\d s\x1b\[K")


ERASE = b"\r\x1b[K"
cpu = os.path.join(go, "cpu.pb.gz")

# Reading and decoding a profile: the line, then erased before the end.
out, err, rc = run_tty(["top", "-nodecount=3", cpu])
check(rc == 0, "top on a tty: status %d" % rc)
check(line_re(rb"reading " + re.escape(cpu.encode())).search(err),
      "reading: no progress line on the tty: %r" % err[:300])
check(err.endswith(ERASE), "the line is erased when done: %r" % err[-80:])
check(b"File: goprog" in out, "the report still on stdout")
want_out, want_err, _ = run_pipe(["top", "-nodecount=3", cpu])
check(out == want_out, "stdout is the same with stderr on a tty")
check(want_err == b"", "piped stderr is empty: %r" % want_err[:200])

# A narrow terminal: the line never wraps (a wrapped line could not be
# erased); the path gives way, the verb and the time stay.
out, err, rc = run_tty(["top", "-nodecount=3", cpu], cols=40)
drawn = [l[:-3] for l in err.split(b"\r") if l.endswith(b"\x1b[K") and len(l) > 3]
check(rc == 0 and drawn and all(len(l.decode()) <= 39 for l in drawn) and
      re.match(rb"pprof-c: reading \.\.\..*cpu\.pb\.gz, \d+\.\d s$", drawn[0]),
      "40 columns: the line fits: %r" % drawn)

# Drawing the call graph and the flame graph.
svg = os.path.join(tmp, "g.svg")
out, err, rc = run_tty(["svg", "-output=" + svg, cpu])
check(rc == 0 and line_re(rb"drawing the call graph").search(err),
      "svg: drawing the call graph: %r" % err[-300:])
# The line is erased before pprof's "Generating report in FILE".
said = b"Generating report in " + svg.encode() + b"\r\n"
check(err.endswith(ERASE + said), "svg: erased, then said: %r" % err[-120:])
out, err, rc = run_tty(["flame", "-output=" + os.path.join(tmp, "f.svg"),
                        cpu])
check(rc == 0 and line_re(rb"drawing the flame graph").search(err),
      "flame: drawing the flame graph: %r" % err[-300:])
for args in (["svg", "-output=" + svg, cpu],
             ["flame", "-output=" + os.path.join(tmp, "f.svg"), cpu]):
    _, perr, prc = run_pipe(args)
    said = b"Generating report in " + args[1][len("-output="):].encode() + b"\n"
    check(prc == 0 and perr == said, "%s piped: stderr %r" % (args[0], perr))

# Symbolizing a native profile with its binary.
binary = os.path.join(native, "cprog-pie")
heap = os.path.join(native, "cprog-pie.heap")
if os.path.exists(binary) and os.path.exists(heap):
    out, err, rc = run_tty(["top", binary, heap])
    check(rc == 0 and line_re(rb"symbolizing: \d+/\d+ locations").search(err),
          "symbolizing: %r" % err[-300:])
    # A warning during the work starts a line of its own: the progress
    # line is erased first, and comes back after it.
    moved = os.path.join(tmp, "moved.heap")
    with open(heap, "rb") as f:
        text = f.read()
    with open(moved, "wb") as f:
        f.write(re.sub(rb"/[^ \n]*/testdata/native/", b"/nonexistent/dir/",
                       text))
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty, exist_ok=True)
    out, err, rc = run_tty(["top", moved],
                           env_extra={"PPROF_BINARY_PATH": empty})
    warn = err.find(b"pprof-c: warning: mapping /nonexistent/dir/cprog-pie")
    check(rc == 0 and warn > 0, "missing binary: a warning: %r" % err[:300])
    check(err[:warn].endswith(ERASE),
          "the warning follows an erased line: %r" % err[max(0, warn - 80):warn])
    _, perr, _ = run_pipe(["top", moved],
                          env_extra={"PPROF_BINARY_PATH": empty})
    check(b"\r" not in perr and b"\x1b" not in perr,
          "piped warnings hold no progress: %r" % perr[:200])

# Fetching over HTTP.
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


handler = functools.partial(Quiet, directory=go)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = "http://127.0.0.1:%d/cpu.pb.gz" % server.server_address[1]
out, err, rc = run_tty(["top", "-nodecount=3", url],
                       env_extra={"PPROF_TMPDIR": tmp})
check(rc == 0 and line_re(rb"fetching " + re.escape(url.encode())).search(err),
      "fetching: %r" % err[:400])
# pprof's own lines start at the left, never on the progress line.
i = err.find(b"Saved profile in")
check(i > 0 and err[i - 1:i] in (b"\n", b"K"),
      "Saved profile in: on a line of its own: %r" % err[max(0, i - 60):i + 20])
_, perr, prc = run_pipe(["top", "-nodecount=3", url],
                       env_extra={"PPROF_TMPDIR": tmp})
check(prc == 0 and b"\r" not in perr and b"\x1b" not in perr and
      b"Fetching profile over HTTP" in perr,
      "fetch piped: pprof's lines only: %r" % perr[:300])
server.shutdown()

# Short work with the default delay (half a second) shows nothing.
out, err, rc = run_tty(["top", "-nodecount=3", cpu], delay=None)
check(rc == 0 and b"pprof-c:" not in err and b"\x1b" not in err,
      "a short run shows no progress: %r" % err[:200])

print("progress: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
