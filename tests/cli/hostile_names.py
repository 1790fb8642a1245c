#!/usr/bin/env python3
"""Profiles whose function name is the given bytes, for tests of hostile
names: one sample type, one sample, one location, one function.

usage: hostile_names.py OUT NAME_HEX        (the name as hex digits)
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


def profile(name):
    strings = [b"", b"samples", b"count", name, b"file\x1b.go"]
    p = field(1, b"\x08\x01\x10\x02")  # sample_type samples/count
    p += field(2, field(1, b"\x01") + field(2, b"\x05"))  # 1 sample, value 5
    p += field(4, b"\x08\x01" + field(4, b"\x08\x01\x10\x07"))  # location 1
    p += field(5, b"\x08\x01\x10\x03\x20\x04")  # function 1: name, file
    for s in strings:
        p += field(6, s)
    return p


if __name__ == "__main__":
    with open(sys.argv[1], "wb") as f:
        f.write(profile(bytes.fromhex(sys.argv[2])))
