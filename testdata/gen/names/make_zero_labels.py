#!/usr/bin/env python3
"""A profile whose labels are zero on the wire in each way that matters to
pprof's decoder: a label with neither a string, a number nor a unit is no
label at all; a number 0 with a unit is a numeric label worth 0.

usage: make_zero_labels.py [OUT]   (default testdata/names/zero_labels.pb.gz)
"""
import gzip
import sys

from make_nul import field_bytes, field_varint, packed

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
    strings = [b""]

    def s(b):
        if b not in strings:
            strings.append(b)
        return strings.index(b)

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
    mapping = (field_varint(1, 1) + field_varint(2, 0x400000) +
               field_varint(3, 0x500000) + field_varint(5, s(b"/bin/zero")) +
               field_varint(7, 1) + field_varint(8, 1) + field_varint(9, 1))
    prof += field_bytes(3, mapping)
    for i, name in enumerate([b"leaf1", b"leaf2", b"main"]):
        line = field_varint(1, i + 1) + field_varint(2, 10 + i)
        prof += field_bytes(4, field_varint(1, i + 1) + field_varint(2, 1) +
                            field_varint(3, 0x401000 + 16 * i) +
                            field_bytes(4, line))
        prof += field_bytes(5, field_varint(1, i + 1) +
                            field_varint(2, s(name)) +
                            field_varint(4, s(b"zero.c")))
    for b in strings:
        prof += field_bytes(6, b)
    with open(out, "wb") as f:
        f.write(gzip.compress(bytes(prof), mtime=0))


if __name__ == "__main__":
    main()
