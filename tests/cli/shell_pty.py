#!/usr/bin/env python3
"""The shell on a terminal: pprof-c driven through a pseudo-terminal as a
person would type at it. Checks the prompt, reports, options, Tab
completion of commands and function names, a picture written to a file,
Ctrl-D and quit, and history carried from one session into the next.

usage: shell_pty.py PPROF_C PROFILE WORKDIR
Prints "shell_pty: N passed, N failed" and exits 1 on any failure.
"""
import os
import pty
import re
import select
import sys
import time

PROMPT = b"(pprof) "
failures = []
passed = 0


def check(cond, what):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(what)
        print("FAIL: " + what)


class Session:
    def __init__(self, argv, env, cwd):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(cwd)
            os.execve(argv[0], argv, env)
        self.buf = b""

    def read_until(self, pattern, timeout=20.0):
        """Read until pattern (bytes regex) matches what arrived since the
        last call; return that text, or None on timeout or EOF."""
        deadline = time.monotonic() + timeout
        while True:
            m = re.search(pattern, self.buf, re.S)
            if m:
                out, self.buf = self.buf[: m.end()], self.buf[m.end():]
                return out
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.fd], [], [], left)
            if not r:
                return None
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # EIO: the child closed the terminal
                return None
            if not data:
                return None
            self.buf += data

    def type(self, text):
        # libedit may switch the terminal mode after printing its prompt,
        # and input typed before that can be flushed: let it settle, as a
        # person's typing does.
        time.sleep(0.1)
        os.write(self.fd, text)

    def command(self, line):
        """Type line and Enter; return everything up to the next prompt."""
        self.type(line + b"\r")
        return self.read_until(re.escape(PROMPT))

    def wait(self, timeout=20.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            self.read_until(b"\0never\0", 0.1)  # drain; kept in self.buf
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        return None


def main():
    pprof_c, profile, work = sys.argv[1:4]
    env = dict(os.environ)
    env["TERM"] = "xterm"
    env["HOME"] = work
    env["PPROF_C_HISTORY"] = os.path.join(work, "history")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    argv = [pprof_c, profile]

    # First session.
    s = Session(argv, env, work)
    start = s.read_until(re.escape(PROMPT))
    check(start is not None and b"Entering interactive mode" in start,
          "the prompt after the header")
    check(start is not None and b"Type: cpu" in start, "the header")

    out = s.command(b"top")
    check(out is not None and b"flat%" in out and b"Showing top 10 nodes" in out,
          "top: %r" % out)

    out = s.command(b"nodecount=3")
    out = s.command(b"top")
    check(out is not None and b"Showing top 3 nodes" in out,
          "an option set with name=value: %r" % out)

    out = s.command(b"nodecount")
    check(out is not None and re.search(rb"nodecount = 3", out) is not None,
          "a bare option name shows its value: %r" % out)

    # Tab completes a command ("tre" -> "tree") ...
    s.type(b"tre\t")
    s.read_until(rb"e $", 5)  # libedit writes only what completion added
    out = s.command(b"")
    check(out is not None and b"calls calls%" in out,
          "Tab completes a command: %r" % out)

    # ... and a function name after list.
    s.type(b"list main.hashLo\t")
    s.read_until(rb"op $", 5)
    out = s.command(b"")
    check(out is not None and b"ROUTINE ======================== main.hashLoop" in out,
          "list after completion: %r" % (out or b"")[:300])

    out = s.command(b"svg > graph.svg")
    check(out is not None and b"Generating report in graph.svg" in out,
          "svg > FILE is announced: %r" % out)
    path = os.path.join(work, "graph.svg")
    check(os.path.exists(path) and b"<svg" in open(path, "rb").read(),
          "the SVG file is written")

    out = s.command(b"frobnicate")
    check(out is not None and b'unrecognized command: "frobnicate"' in out,
          "an unknown command keeps the session: %r" % out)

    out = s.command(b"peek main\\.hashLoop$")
    check(out is not None and b"| main.hashLoop" in out, "peek: %r" % out)

    s.type(b"\x04")  # Ctrl-D on an empty line ends the session
    status = s.wait()
    check(status == 0, "Ctrl-D ends the session with status 0: %r, %r"
          % (status, s.buf[-500:]))

    hist = os.path.join(work, "history")
    saved = open(hist, "rb").read() if os.path.exists(hist) else b""
    check(b"nodecount=3" in saved and b"frobnicate" in saved,
          "history saved: %r" % saved[:300])

    # Second session: the up arrow brings back the last line of the first.
    s = Session(argv, env, work)
    check(s.read_until(re.escape(PROMPT)) is not None, "second session starts")
    s.type(b"\x1b[A")
    s.read_until(rb"Loop\$", 5)
    out = s.command(b"")
    check(out is not None and b"| main.hashLoop" in out,
          "up arrow recalls the previous session's last command: %r" % out)
    s.type(b"quit\r")
    check(s.wait() == 0, "quit ends the session with status 0")

    print("shell_pty: %d passed, %d failed" % (passed, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
