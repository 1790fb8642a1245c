#!/usr/bin/env python3
"""Write testdata/names/nul.pb.gz: a CPU profile whose names hold NUL bytes
and invalid UTF-8, for the goldens that check such names are kept whole
(tests/golden/nul.cases): no name is cut at a NUL, and names that differ
only after a NUL stay apart.

    python3 testdata/gen/names/make_nul.py [OUT]
    python3 testdata/gen/names/make_nul.py --types [OUT]
    python3 testdata/gen/names/make_nul.py --units [OUT]
    python3 testdata/gen/names/make_nul.py --colors [OUT]

With --types (testdata/names/nul_types.pb.gz) the NUL bytes are in the
sample types, their units, the period type, the default sample type and
drop_frames too ("a\\0x|\\0lead": two of the functions, named whole).
The second type's unit, "nano\\0s\\xc3\\xa9conds\\xff", is no unit pprof
knows, so it follows every value whole; its two-byte rune and its
invalid byte count one column each where pprof pads values.

With --units (testdata/names/nul_units.pb.gz) the NUL bytes are in the
units of values and numeric labels, and the units are long: the second
sample type's unit is LONG_UNIT (200 bytes, a NUL, a two-byte rune), so
every value label is longer than a fixed buffer of a few dozen bytes; the
numeric labels "n\\0um" and "bytes" (the one key the call graph draws)
have the unit "bytes\\0tail" (no unit pprof knows, though "bytes" is),
"big" has LONG_UNIT, and "request\\0x" has none, so it is its own unit
(pprof infers "bytes" only for the whole key "request").

With --colors (testdata/names/nul_colors.pb.gz) the functions are
COLOR_FUNCS, whose kind for flame's -colors=js and perl shows only after
a NUL: "f\\0.js" and "h\\0/x" are JavaScript, "g\\0Perl" and "p\\0.pl"
Perl, "plain\\0x" neither.

Functions "a\\0x" and "a\\0y" differ only after a NUL and "a" is their
prefix; "\\0lead" starts with one; "b\\xff\\xfe", "c\\xc0\\xafd" (overlong)
and "cut\\xe2\\x82" (cut short) are invalid UTF-8. Their files hold NUL bytes
and invalid UTF-8 too (f\\0one.go and f\\0two.go differ only after the NUL),
as does the mapping's file, and the samples carry string and numeric labels
whose keys and values differ only after a NUL. Most functions have no
system name, so pprof's load-time simplification leaves them alone; one
named as its system name "ns::Pool<T>::get(int)\\0tail" is simplified
around its NUL, and one with only a system name ("sys\\0only") takes it
whole. The output
depends on nothing but this file (gzip with mtime 0).
"""
import gzip
import sys

# (name, file[, system name]); index + 1 is the function id
FUNCS = [
    (b"main", b"main.go"),
    (b"a\x00x", b"f\x00one.go"),
    (b"a\x00y", b"f\x00two.go"),
    (b"a", b"f.go"),
    (b"\x00lead", b"f\x00one.go"),
    (b"b\xff\xfe", b"bad\xc3.go"),
    (b"c\xc0\xafd", b"bad\xc3.go"),
    (b"cut\xe2\x82", b"f"),
    (b"ok \xc3\xa9", b"f.go"),
    (b"ns::Pool<T>::get(int)\x00tail", b"p.cc", b"ns::Pool<T>::get(int)\x00tail"),
    (b"", b"p.cc", b"sys\x00only"),
]

# Stacks by function index, leaf first (main, index 0, is added as the
# root), each with its value (ns), its label value and its numeric label.
STACKS = [
    ([1], 100, b"v\x00one", 1),
    ([2], 200, b"v\x00two", 2),
    ([3, 1], 300, b"v\x00one", 3),
    ([3, 2], 400, b"v\x00two", 4),
    ([3], 50, b"v", 5),
    ([4], 250, b"v\x00one", 6),
    ([5, 1], 150, b"\xff", 7),
    ([6, 2], 120, b"\xff", 8),
    ([7], 90, b"v\x00two", 9),
    ([8, 3, 1], 60, b"v", 10),
    ([9, 8], 40, b"v", 13),
    ([10], 20, b"v", 14),
    ([2, 1], 70, b"v\x00one", 11),
    ([1], 30, b"v\x00one", 12),
]


# 200 bytes: "long\0unit-\xc3\xa9" and x up to the length.
LONG_UNIT = b"long\x00unit-\xc3\xa9"
LONG_UNIT += b"x" * (200 - len(LONG_UNIT))


# --colors: main calls each, worth its value.
COLOR_FUNCS = [
    (b"main", b"main.go", 0),
    (b"f\x00.js", b"f.js", 500),
    (b"h\x00/x", b"h.js", 400),
    (b"g\x00Perl", b"g.pl", 300),
    (b"p\x00.pl", b"p.pl", 200),
    (b"plain\x00x", b"plain.c", 100),
]


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field_varint(num, v):
    return varint(num << 3) + varint(v)


def field_bytes(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data


def packed(num, values):
    return field_bytes(num, b"".join(varint(v) for v in values))


class Strings:
    """A profile's string table: s(b) is b's index, added when new."""

    def __init__(self):
        self.table = [b""]

    def __call__(self, b):
        if b not in self.table:
            self.table.append(b)
        return self.table.index(b)

    def encode(self):
        return b"".join(field_bytes(6, b) for b in self.table)


def mapping(s, file):
    """The main mapping, [0x400000, 0x500000) of file, symbolized."""
    return field_bytes(3, field_varint(1, 1) + field_varint(2, 0x400000) +
                       field_varint(3, 0x500000) + field_varint(5, s(file)) +
                       field_varint(7, 1) + field_varint(8, 1) +
                       field_varint(9, 1))


def location(i):
    """Location i + 1: one line of function i + 1, at line 10 + i."""
    line = field_varint(1, i + 1) + field_varint(2, 10 + i)
    return field_bytes(4, field_varint(1, i + 1) + field_varint(2, 1) +
                       field_varint(3, 0x401000 + 16 * i) +
                       field_bytes(4, line))


def main():
    args = sys.argv[1:]
    mode = args[0] if args and args[0] in ("--types", "--units",
                                            "--colors") else ""
    if mode:
        args = args[1:]
    types, units = mode == "--types", mode == "--units"
    funcs, stacks = FUNCS, STACKS
    if mode == "--colors":
        funcs = [(name, filename) for name, filename, _ in COLOR_FUNCS]
        stacks = [([i], value, b"v", 1)
                  for i, (_, _, value) in enumerate(COLOR_FUNCS) if i]
    default = "testdata/names/nul%s.pb.gz" % mode.replace("--", "_")
    out = args[0] if args else default
    s = Strings()
    prof = bytearray()
    if types:
        st = field_varint(1, s(b"samp\x00les")) + field_varint(2, s(b"count"))
        vt = (field_varint(1, s(b"cpu\x00x")) +
              field_varint(2, s(b"nano\x00s\xc3\xa9conds\xff")))
    elif units:
        st = field_varint(1, s(b"samples")) + field_varint(2, s(b"count"))
        vt = field_varint(1, s(b"cpu")) + field_varint(2, s(LONG_UNIT))
    else:
        st = field_varint(1, s(b"samples")) + field_varint(2, s(b"count"))
        vt = field_varint(1, s(b"cpu")) + field_varint(2, s(b"nanoseconds"))
    prof += field_bytes(1, st)
    prof += field_bytes(1, vt)
    for stack, value, label, num in stacks:
        locs = [i + 1 for i in stack] + [1]
        smp = packed(1, locs) + packed(2, [value // 10, value * 1000000])
        smp += field_bytes(3, field_varint(1, s(b"k\x00ey")) +
                           field_varint(2, s(label)))
        if units:
            smp += field_bytes(3, field_varint(1, s(b"n\x00um")) +
                               field_varint(3, num) +
                               field_varint(4, s(b"bytes\x00tail")))
            smp += field_bytes(3, field_varint(1, s(b"big")) +
                               field_varint(3, num * 1000) +
                               field_varint(4, s(LONG_UNIT)))
            smp += field_bytes(3, field_varint(1, s(b"request\x00x")) +
                               field_varint(3, num * 512))
            smp += field_bytes(3, field_varint(1, s(b"bytes")) +
                               field_varint(3, num * 1536) +
                               field_varint(4, s(b"bytes\x00tail")))
        else:
            smp += field_bytes(3, field_varint(1, s(b"n\x00um")) +
                               field_varint(3, num))
        prof += field_bytes(2, smp)
    prof += mapping(s, b"/bin/pr\x00og\xff")
    for i in range(len(funcs)):
        prof += location(i)
    for i, (name, filename, *sysname) in enumerate(funcs):
        fn = field_varint(1, i + 1) + field_varint(2, s(name))
        if sysname:
            fn += field_varint(3, s(sysname[0]))
        fn += field_varint(4, s(filename)) + field_varint(5, 10 + i)
        prof += field_bytes(5, fn)
    prof += field_bytes(11, vt) + field_varint(12, 10000000)
    prof += field_varint(9, 1700000000 * 10**9)
    prof += field_varint(10, 10**9)
    prof += packed(13, [s(b"comment \x00 with NUL"), s(b"bad \xff")])
    if types:
        prof += field_varint(7, s(b"a\x00x|\x00lead"))
        prof += field_varint(14, s(b"samp\x00les"))
    prof += s.encode()
    with open(out, "wb") as f:
        f.write(gzip.compress(bytes(prof), mtime=0))


if __name__ == "__main__":
    main()
