#!/usr/bin/env python3
"""Write testdata/names/names.pb.gz: a CPU profile whose functions carry
names that exercise pprof's ShortenFunctionName (the labels of -dot and the
graph pictures): C++ namespaces, classes, templates, destructors,
"(anonymous namespace)::", Go package paths with module versions and type
parameters, Java classes, and plain C.

    python3 testdata/gen/names/make_names.py [OUT]

Each name is one function and one location; each is the leaf of one sample
under main, with its own value, so every name is a node of the graph. The
output depends on nothing but this file (gzip with mtime 0). The golden is
`go tool pprof -dot` on it (tests/golden/pictures/dot.cases, names).
"""
import gzip
import sys

NAMES = [
    "(anonymous namespace)::Parser::parse",
    "(anonymous namespace)::ns::Lexer::next",
    "pprofc::work::Accumulator<unsigned long>::feed(std::vector<unsigned long> const&, int)",
    "std::_Rb_tree<K, V>::_M_lower_bound",
    "a::b::C::~C()",
    "outer::Inner::method<int, std::less<int> >(int) const",
    "__gnu_cxx::__ops::_Iter_comp_iter<Cmp>::operator()<It>(It, It)",
    "ns::_Private::__impl",
    "ns::Dist::operator\"\" _km(unsigned long long)",
    "ns::Widget::operator()(int) const",
    "github.com/user/mod/v3/pkg/sub.(*Server).Handle",
    "example.com/m/v2.Map[...]",
    "com.example.app.Main.run(Main.java)",
    "org.foo.Outer$Inner.<init>",
    "lib/foo::Bar::baz",
    "memcpy",
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


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "testdata/names/names.pb.gz"
    strings = ["", "cpu", "nanoseconds", "names.c", "main"]

    def intern(s):
        if s not in strings:
            strings.append(s)
        return strings.index(s)

    prof = bytearray()
    vt = field_varint(1, intern("cpu")) + field_varint(2, intern("nanoseconds"))
    prof += field_bytes(1, vt)  # sample_type
    funcs, locs, samples = [], [], []
    for i, name in enumerate(["main"] + NAMES):
        fid = i + 1
        # No system_name: pprof leaves a name alone when it differs from
        # the system name (as a symbolizer's demangled name does), but
        # "simplifies" one equal to it, which is not what is tested here.
        funcs.append(field_varint(1, fid) + field_varint(2, intern(name)) +
                     field_varint(4, intern("names.c")))
        line = field_varint(1, fid) + field_varint(2, 10 + i)
        locs.append(field_varint(1, fid) + field_varint(2, 1) +
                    field_varint(3, 0x1000 + 16 * i) + field_bytes(4, line))
    for i in range(len(NAMES)):
        # leaf first: the name's location, then main's (id 1)
        value = (100 + 10 * i) * 1000000
        samples.append(packed(1, [i + 2, 1]) + packed(2, [value]))
    for s in samples:
        prof += field_bytes(2, s)
    mapping = (field_varint(1, 1) + field_varint(2, 0x1000) +
               field_varint(3, 0x100000) + field_varint(5, intern("names")) +
               field_varint(7, 1) + field_varint(8, 1) + field_varint(9, 1))
    prof += field_bytes(3, mapping)
    for loc in locs:
        prof += field_bytes(4, loc)
    for f in funcs:
        prof += field_bytes(5, f)
    for s in strings:
        prof += field_bytes(6, s.encode())
    vt = field_varint(1, intern("cpu")) + field_varint(2, intern("nanoseconds"))
    # period_type, period; the strings they name are already interned
    prof += field_bytes(11, vt) + field_varint(12, 10000000)
    with open(out, "wb") as f:
        f.write(gzip.compress(bytes(prof), mtime=0))


if __name__ == "__main__":
    main()
