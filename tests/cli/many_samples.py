#!/usr/bin/env python3
"""A profile of N samples, each with its own two-frame stack, for tests
that need a report that takes a while (tests/cli/shell_interrupt.sh).
With LABEL, every sample has the label k whose value is LABEL 'a's (one
string, so the file stays small): a tag filter with a backtracking regex
then takes a while on each sample.

usage: many_samples.py OUT N [LABEL]
"""
import sys


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


def field(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def main(out, n, label=0):
    nfuncs = 1000
    strings = [b"", b"samples", b"count"]
    lab = b""
    if label:
        strings += [b"k", b"a" * label]
        lab = field(3, b"\x08\x03\x10\x04")
    p = [field(1, b"\x08\x01\x10\x02")]
    for f in range(nfuncs):
        strings.append(b"main.func%04d" % f)
        p.append(field(5, b"\x08" + varint(f + 1) + b"\x10" + varint(len(strings) - 1)))
        p.append(field(4, b"\x08" + varint(f + 1) + field(4, b"\x08" + varint(f + 1))))
    for s in range(n):
        locs = varint(s % nfuncs + 1) + varint((s // nfuncs) % nfuncs + 1)
        p.append(field(2, field(1, locs) + field(2, varint(s % 7 + 1)) + lab))
    for st in strings:
        p.append(field(6, st))
    with open(out, "wb") as f:
        f.write(b"".join(p))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
