#!/usr/bin/env python3
"""Profiles with hostile names, for tests of what reports make of them.

usage: hostile_names.py OUT NAME_HEX   one sample, one function named by the
                                       given bytes (hex digits)
       hostile_names.py --every OUT    names holding every byte value
                                       0x00-0xff, invalid UTF-8, markup
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


def uint(num, n):
    return varint(num << 3) + varint(n)


def profile(name):
    strings = [b"", b"samples", b"count", name, b"file\x1b.go"]
    p = field(1, b"\x08\x01\x10\x02")  # sample_type samples/count
    p += field(2, field(1, b"\x01") + field(2, b"\x05"))  # 1 sample, value 5
    p += field(4, b"\x08\x01" + field(4, b"\x08\x01\x10\x07"))  # location 1
    p += field(5, b"\x08\x01\x10\x03\x20\x04")  # function 1: name, file
    for s in strings:
        p += field(6, s)
    return p


def hostile_names():
    """Names that together hold every byte value (NUL last, as it ends a
    name), invalid UTF-8, characters XML or JavaScript refuse, and markup
    and escapes of every output format."""
    names = []
    for i in range(16):
        chunk = bytes(b for b in range(16 * i, 16 * i + 16) if b)
        names.append(b"f%x_" % i + chunk + (b"\x00tail" if i == 0 else b""))
    names += [
        b"overlong \xc0\xaf \xe0\x80\xaf \xf0\x80\x80\xaf",
        b"surrogate \xed\xa0\x80\xed\xbf\xbf",
        b"too big \xf4\x90\x80\x80 \xf8\x88\x80\x80\x80 \xfe\xff",
        b"cut short \xe2\x82",
        b"lone \x80\xbf continuation",
        b"valid \xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80",
        b"nonchars \xef\xbf\xbe \xef\xbf\xbf \xef\xbb\xbf",
        b"c1 \xc2\x85 \xc2\x9b[31m \xc2\x9f",
        b"separators \xe2\x80\xa8 \xe2\x80\xa9",
        b"</script><script>alert(1)</script>",
        b"<!-- ]]> <![CDATA[ x ]]> -->",
        b"<svg onload=alert(1)> & &amp; &#0; &#x1b; &lt;",
        b"quotes \" ' ` ${x} \\\" \\' \\",
        b"dot \\l \\n \\N \\G \\E \\H \\T \\L \\\\ { } | < >",
        b"lines\nnext\rline\tend",
        b"json \\u0000 \\ud800 \x7f",
        b"esc \x1b]0;title\x07 \x1b]52;c;AAAA\x07 \x1b[2J",
    ]
    return names


def every_profile():
    names = hostile_names()
    strings = [b"", b"samples", b"count", b"cpu", b"nanoseconds"]

    def s(b):
        if b not in strings:
            strings.append(b)
        return strings.index(b)

    p = field(1, uint(1, s(b"samples")) + uint(2, s(b"count")))
    p += field(1, uint(1, s(b"cpu")) + uint(2, s(b"nanoseconds")))
    n = len(names)
    # One mapping named by each name (its build id another), a function
    # per name with a file named by the next one, a location per function.
    # The main mapping's file (the header's "File:", the graph's title)
    # holds every name, the one with NUL last.
    every = b"".join(names[1:]).replace(b"/", b"|") + names[0]
    for i, name in enumerate(names):
        m = uint(1, i + 1) + uint(2, 0x100000 * (i + 1))
        m += uint(3, 0x100000 * (i + 2))
        m += uint(5, s(b"/lib/" + (every if i == 0 else name)))
        m += uint(6, s(names[(i + 1) % n]))
        m += uint(7, 1) + uint(8, 1) + uint(9, 1) + uint(10, 1)
        p += field(3, m)
    for i, name in enumerate(names):
        p += field(5, uint(1, i + 1) + uint(2, s(name)) +
                   uint(3, s(b"sys_" + name)) +
                   uint(4, s(names[(i + 1) % n] + b".go")) + uint(5, i + 1))
        loc = uint(1, i + 1) + uint(2, i + 1)
        loc += uint(3, 0x100000 * (i + 1) + 0x10 * (i + 1))
        loc += field(4, uint(1, i + 1) + uint(2, i + 10))
        p += field(4, loc)

    def packed(vals):
        return b"".join(varint(v) for v in vals)

    # A sample per function (root, the function), with string and numeric
    # labels named by the names, and one stack through every function.
    for i, name in enumerate(names):
        smp = field(1, packed([i + 1, (i + 1) % n + 1]))
        smp += field(2, packed([i + 1, 1000 * (i + 1)]))
        smp += field(3, uint(1, s(name)) + uint(2, s(names[-1 - i])))
        smp += field(3, uint(1, s(b"n_" + name)) + uint(3, i) +
                     uint(4, s(names[(i + 3) % n])))
        p += field(2, smp)
    p += field(2, field(1, packed(range(1, n + 1))) + field(2, packed([7, 7000])))
    p += field(11, uint(1, s(b"cpu")) + uint(2, s(b"nanoseconds")))
    p += uint(12, 1000)
    p += field(13, packed([s(names[0]), s(names[-1]), s(names[9])]))
    for st in strings:
        p += field(6, st)
    return p


if __name__ == "__main__":
    if sys.argv[1] == "--every":
        data, out = every_profile(), sys.argv[2]
    else:
        data, out = profile(bytes.fromhex(sys.argv[2])), sys.argv[1]
    with open(out, "wb") as f:
        f.write(data)
