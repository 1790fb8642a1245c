#!/usr/bin/env python3
"""Write testdata/names/namesakes.pb.gz: a CPU profile with three functions
named f, two of them in one file (start lines 5 and 20) and one in another,
all called from main, for the [i/n] suffixes that tell namesakes apart in
pprof's callgrind output (tests/golden/callgrind.cases, namesakes). With
--long, the three are named f and 5,000 x's (a C++ template instance can
be that long), written to testdata/names/namesakes_long.pb.gz: the suffix
goes after the whole name (namesakes_long).

    python3 testdata/gen/names/make_namesakes.py [--long] [OUT]

The output depends on nothing but this file (gzip with mtime 0).
"""
import gzip
import sys
args = sys.argv[1:]
long_names = '--long' in args
args = [a for a in args if a != '--long']
F = 'f' + 'x' * 5000 if long_names else 'f'
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f; n >>= 7
        if n: out.append(b | 0x80)
        else: out.append(b); return bytes(out)
def key(f, wt): return varint(f << 3 | wt)
def vint(f, n): return key(f, 0) + varint(n)
def msg(f, b): return key(f, 2) + varint(len(b)) + b
def packed(f, ns): b = b''.join(varint(n) for n in ns); return msg(f, b)
strings = ['']
def s(x):
    if x not in strings: strings.append(x)
    return strings.index(x)
p = b''
p += msg(1, vint(1, s('cpu')) + vint(2, s('nanoseconds')))
# functions: 1 main, 2 f@1, 3 f@10 (same name and file), 4 g in another file
funcs = [(1, 'main', 'a.c', 1), (2, F, 'a.c', 5), (3, F, 'a.c', 20), (4, F, 'b.c', 1)]
for fid, name, fn, sl in funcs:
    p += msg(5, vint(1, fid) + vint(2, s(name)) + vint(3, s(name)) + vint(4, s(fn)) + vint(5, sl))
# mapping
p += msg(3, vint(1, 1) + vint(2, 0x1000) + vint(3, 0x9000) + vint(5, s('/bin/prog')) + vint(7, 1) + vint(8, 1) + vint(9, 1))
locs = [(1, 0x1100, 1, 3), (2, 0x1200, 2, 6), (3, 0x1300, 3, 21), (4, 0x1400, 4, 2), (5, 0x1210, 2, 7)]
for lid, addr, fid, line in locs:
    p += msg(4, vint(1, lid) + vint(2, 1) + vint(3, addr) + msg(4, vint(1, fid) + vint(2, line)))
samples = [([2, 1], 50000000), ([3, 1], 30000000), ([4, 1], 20000000), ([5, 1], 10000000), ([3, 2, 1], 10000000)]
for locs_, v in samples:
    p += msg(2, packed(1, locs_) + packed(2, [v]))
p += msg(11, vint(1, s('cpu')) + vint(2, s('nanoseconds'))) + vint(12, 10000000)
body = b''.join(msg(6, x.encode()) for x in strings)
data = gzip.compress(body + p, mtime=0)
out = args[0] if args else (
    "testdata/names/namesakes_long.pb.gz" if long_names
    else "testdata/names/namesakes.pb.gz")
with open(out, "wb") as fp:
    fp.write(data)
