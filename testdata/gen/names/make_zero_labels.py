#!/usr/bin/env python3
"""A profile whose labels are zero on the wire in each way that matters to
pprof's decoder: a label with neither a string, a number nor a unit is no
label at all; a number 0 with a unit is a numeric label worth 0.

usage: make_zero_labels.py [OUT]   (default testdata/names/zero_labels.pb.gz)
"""
import gzip
import sys

from make_nul import Strings, field_bytes, field_varint, location, \
    mapping, packed

# Per sample: its labels as (key, string or None, number, unit or None).
SAMPLES = [
    [("zero", None, 0, None)],
    [("nz", None, 5, None), ("zero", None, 0, None)],
    [("zu", None, 0, "bytes"), ("bytes", None, 0, "bytes")],
    [("bytes", None, 2048, "bytes"), ("s", "", 0, None), ("t", "x", 0, None)],
    [],
]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else \
        "testdata/names/zero_labels.pb.gz"
    s = Strings()
    prof = bytearray()
    prof += field_bytes(1, field_varint(1, s(b"samples")) +
                        field_varint(2, s(b"count")))
    for i, labels in enumerate(SAMPLES):
        smp = packed(1, [1 + i % 2, 3]) + packed(2, [10 + i])
        for key, string, num, unit in labels:
            label = field_varint(1, s(key.encode()))
            if string:
                label += field_varint(2, s(string.encode()))
            if num:
                label += field_varint(3, num)
            if unit:
                label += field_varint(4, s(unit.encode()))
            smp += field_bytes(3, label)
        prof += field_bytes(2, smp)
    prof += mapping(s, b"/bin/zero")
    for i, name in enumerate([b"leaf1", b"leaf2", b"main"]):
        prof += location(i)
        prof += field_bytes(5, field_varint(1, i + 1) +
                            field_varint(2, s(name)) +
                            field_varint(4, s(b"zero.c")))
    prof += s.encode()
    with open(out, "wb") as f:
        f.write(gzip.compress(bytes(prof), mtime=0))


if __name__ == "__main__":
    main()
