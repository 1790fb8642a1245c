#!/usr/bin/env python3
"""testdata/columns/columns.pb.gz: a small hand-made profile for the options
that shape frames rather than values.

- Lines carry columns (profile.proto's Line.column): one function is sampled
  at two columns of one line and at a second line (-showcolumns, -lines).
- One location holds an inlined frame (inl inlined into b).
- Function c is reached through two call paths, a and b, so that a call
  tree (-call_tree) has two c nodes where the call graph has one.
- Samples carry string labels (thread, and region on some) and a numeric
  label with a unit (request_bytes in bytes) for -tagroot / -tagleaf.

Run `python3 testdata/gen/columns/make_columns.py` from the repository root;
the output is byte-identical on every run (no time, fixed gzip mtime).
"""
import gzip
import io


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(num, wire):
    return varint(num << 3 | wire)


def vint(num, v):
    return key(num, 0) + varint(v & 0xFFFFFFFFFFFFFFFF)


def ld(num, payload):
    return key(num, 2) + varint(len(payload)) + payload


def packed(num, vals):
    return ld(num, b"".join(varint(v & 0xFFFFFFFFFFFFFFFF) for v in vals))


strings = [""]


def s(text):
    if text not in strings:
        strings.append(text)
    return strings.index(text)


# Functions: id -> (name, file, start line)
functions = {
    1: ("main", "src/main.go", 8),
    2: ("a", "src/a.go", 18),
    3: ("b", "src/b.go", 28),
    4: ("inl", "src/inl.go", 3),
    5: ("c", "src/c.go", 38),
}
# Locations: id -> (address, [(function, line, column)], innermost first)
locations = {
    1: (0x401010, [(1, 10, 5)]),
    2: (0x402020, [(2, 20, 3)]),
    3: (0x403030, [(4, 5, 2), (3, 30, 7)]),
    4: (0x404040, [(5, 40, 9)]),
    5: (0x404050, [(5, 41, 1)]),
    6: (0x402030, [(2, 20, 11)]),
}
# Samples: (locations leaf first, [count, nanoseconds], string labels,
# numeric labels (key, value, unit))
samples = [
    ([4, 2, 1], [10, 100000000], [("thread", "t1")], [("request_bytes", 512, "bytes")]),
    ([4, 3, 1], [20, 200000000], [("thread", "t2"), ("region", "eu")], []),
    ([5, 3, 2, 1], [5, 50000000], [("thread", "t1")], [("request_bytes", 2048, "bytes")]),
    ([6, 1], [7, 70000000], [], []),
    ([3, 6, 1], [3, 30000000], [("thread", "t2")], []),
    ([5, 2, 1], [4, 40000000], [("region", "us")], [("request_bytes", 512, "bytes")]),
]

p = b""
p += ld(1, vint(1, s("samples")) + vint(2, s("count")))
p += ld(1, vint(1, s("cpu")) + vint(2, s("nanoseconds")))
for locs, vals, labels, nums in samples:
    body = packed(1, locs) + packed(2, vals)
    for k, v in labels:
        body += ld(3, vint(1, s(k)) + vint(2, s(v)))
    for k, v, u in nums:
        body += ld(3, vint(1, s(k)) + vint(3, v) + vint(4, s(u)))
    p += ld(2, body)
p += ld(3, vint(1, 1) + vint(2, 0x400000) + vint(3, 0x500000) + vint(5, s("/usr/bin/columns"))
        + vint(7, 1) + vint(8, 1) + vint(9, 1) + vint(10, 1))
for lid, (addr, lines) in locations.items():
    body = vint(1, lid) + vint(2, 1) + vint(3, addr)
    for fn, line, col in lines:
        body += ld(4, vint(1, fn) + vint(2, line) + vint(3, col))
    p += ld(4, body)
for fid, (name, fname, start) in functions.items():
    p += ld(5, vint(1, fid) + vint(2, s(name)) + vint(3, s(name)) + vint(4, s(fname)) + vint(5, start))
period_type = ld(11, vint(1, s("cpu")) + vint(2, s("nanoseconds")))
period = vint(12, 10000000)
duration = vint(10, 1000000000)
for text in strings:
    p += ld(6, text.encode())
p += duration + period_type + period

buf = io.BytesIO()
with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="") as f:
    f.write(p)
with open("testdata/columns/columns.pb.gz", "wb") as f:
    f.write(buf.getvalue())
