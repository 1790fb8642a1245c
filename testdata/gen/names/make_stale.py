#!/usr/bin/env python3
"""Write testdata/names/stale.pb.gz: one CPU sample at an address of
testdata/native/cxxprog (in pprofc::work::Accumulator<unsigned long>::feed,
the address cxxprog.sym.pb.gz has), in a mapping flagged as symbolized
([FN][FL][LN]) but with a made-up name, stale::feed at old.cc:1. Reading it
with the binary shows which options re-symbolize what a profile already
names: pprof's force and, as in pprof, demangle=full|templates|none
(tests/cli/symbolize_force.sh).

    python3 testdata/gen/names/make_stale.py [OUT]

The output depends on nothing but this file (gzip with mtime 0).
"""
import gzip
import sys


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(f, wt): return varint(f << 3 | wt)
def vint(f, n): return key(f, 0) + varint(n)
def msg(f, b): return key(f, 2) + varint(len(b)) + b
def packed(f, ns): return msg(f, b''.join(varint(n) for n in ns))


strings = ['']


def s(x):
    if x not in strings:
        strings.append(x)
    return strings.index(x)


p = msg(1, vint(1, s('samples')) + vint(2, s('count')))
p += msg(5, vint(1, 1) + vint(2, s('stale::feed')) + vint(3, s('stale::feed')) +
         vint(4, s('old.cc')) + vint(5, 1))
p += msg(3, vint(1, 1) + vint(2, 0x5570f44ed000) + vint(3, 0x5570f44ef000) +
         vint(4, 0x1000) + vint(5, s('/tmp/pprof-c-gen/cxxprog')) +
         vint(7, 1) + vint(8, 1) + vint(9, 1))
p += msg(4, vint(1, 1) + vint(2, 1) + vint(3, 0x5570f44ee2fd) +
         msg(4, vint(1, 1) + vint(2, 1)))
p += msg(2, packed(1, [1]) + packed(2, [7]))
p += msg(11, vint(1, s('samples')) + vint(2, s('count'))) + vint(12, 1)
body = b''.join(msg(6, x.encode()) for x in strings)
out = sys.argv[1] if len(sys.argv) > 1 else "testdata/names/stale.pb.gz"
with open(out, "wb") as fp:
    fp.write(gzip.compress(body + p, mtime=0))
