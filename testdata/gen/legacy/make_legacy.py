#!/usr/bin/env python3
"""Writes the hand-made legacy profiles of testdata/legacy/ from the formats'
descriptions in pprof's legacy readers (profile/legacy_profile.go and
legacy_java_profile.go): gperftools contentionz and threadz, Java heapz,
contentionz and the Java binary CPU profile. No producer of these is
packaged for Debian, so, as pprof's own tests do, the files are written by
hand: small, with every field the readers look at. Rerunning gives the same
bytes.

    python3 testdata/gen/legacy/make_legacy.py
"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "legacy")

# A C++ server's memory map: a PIE main binary and libc (pprof's brief form
# and /proc/self/maps lines are both accepted; this uses the latter).
MAPS = """\
555555554000-555555556000 r--p 00000000 08:01 1311 /srv/bin/lockserver
555555556000-555555560000 r-xp 00002000 08:01 1311 /srv/bin/lockserver
7ffff7dd0000-7ffff7f65000 r-xp 00028000 08:01 2021 /lib/x86_64-linux-gnu/libc.so.6
"""

CONTENTIONZ = """\
--- contentionz 1 ---
cycles/second = 2000000000
sampling period = 100
ms since reset = 60000
discarded samples = 0
  4000000 20 @ 0x555555557a10 0x555555558b24 0x555555559c30 0x7ffff7df1d90
  1000000 5 @ 0x555555557a10 0x555555558d44 0x555555559c30 0x7ffff7df1d90
   250000 2 @ 0x555555557f00 0x555555558e50 0x7ffff7df1d90
  3000000 7 @ 0x7ffff7e91234 0x555555558b24 0x555555559c30 0x7ffff7df1d90
--- Memory map: ---
""" + MAPS

THREADZ = """\
--- threadz 1 ---
# 5 threads; stacks leaf first

--- Thread 7ffff7d8a740 (name: lockserver/4101) stack: ---
  PC: 0x7ffff7e91234 0x7ffff7e91234 0x555555559c31 0x7ffff7df1d91
--- Thread 7ffff7589640 (name: worker/4102) stack: ---
  0x555555557a10 0x555555558b25 0x555555559d01
  0x7ffff7e5a0c1
--- Thread 7ffff6d88640 (name: worker/4103) stack: ---
  same as previous thread
--- Thread 7ffff6587640 (name: worker/4104) stack: ---
  same as previous thread
--- Thread 7ffff5d86640 (name: poller/4105) stack: ---
  0x7ffff7ea1ffe 0x555555558e51 0x7ffff7e5a0c1
--- Memory map: ---
""" + MAPS

# Java: sample lines are "value count @ ids", then one line per id.
JAVA_LOCATIONS = """\
0x0000000000000001 java.util.Arrays.copyOf (Arrays.java:3512)
0x0000000000000002 java.util.ArrayList.grow (ArrayList.java:237)
0x0000000000000003 com.example.cache.LruCache.put (LruCache.java:88)
0x0000000000000004 com.example.server.Handler.handle (Handler.java:41)
0x0000000000000005 java.lang.Thread.run (Thread.java:833)
0x0000000000000006 com.example.cache.LruCache.evict (LruCache.java:120)
0x0000000000000007 Java_java_util_zip_Inflater_inflateBytes (/usr/lib/jvm/java-17/lib/libzip.so)
0x0000000000000008 generated stub/JIT
0x0000000000000009 GC
0x000000000000000a com.example.cache.LruCache.get (LruCache.java:-1)
"""

JAVA_HEAPZ = """\
--- heapz 1 ---
format = java
resolution = bytes
 8388608 16 @ 0x1 0x2 0x3 0x4 0x5
 1048576 256 @ 0x1 0x3 0x4 0x5
  524288 4 @ 0x6 0x3 0x4 0x5
 2097152 2 @ 0x7 0x4 0x5
""" + JAVA_LOCATIONS

JAVA_CONTENTIONZ = """\
--- contentionz 1 ---
format = java
resolution = microseconds
sampling period = 100
ms since reset = 30000
 1200 30 @ 0x3 0x4 0x5
  300 12 @ 0xa 0x4 0x5
   50 1 @ 0x6 0x3 0x4 0x5
""" + JAVA_LOCATIONS


# A tcmalloc heap profile whose memory map names its files through pprof's
# attribute lines: a line that is no mapping but "name = value" makes
# "$name" stand for value in every line after it (the value itself after
# the substitutions of the names before it). The map also has a glog
# prefix (dropped), a name assigned twice (the first assignment is used),
# "$bin" assigned before "$binary" (at "$binary" the first assigned name
# that matches wins: "$bin" then "ary"), an unassigned "$name" (kept as
# it is), a line with '=' that is a mapping (it starts with a range:
# "cafe=1" is the range caf-e), CRLF line ends and pprof's brief form with
# an offset and a build id.
SUBST_HEAP = """\
heap profile:      6:   614400 [    40:  2457600] @ heapprofile
     3:   393216 [    20:  1572864] @ 0x555555557a10 0x555555558b24 0x7ffff7df1d90
     2:   204800 [    12:   819200] @ 0x7ffff7a41234 0x555555558d44 0x7ffff7df1d90
     1:    16384 [     8:    65536] @ 0x7ffff7c10ab0 0x7ffff7a41300 0x555555558e50 0x7ffff7df1d90

MAPPED_LIBRARIES:
I1205 09:14:33.123456  4101 heap-profiler.cc:210] root = /srv/heapserver-1.4
build=$root/build\r
build=/elsewhere
bin=$root/bin
binary=/not/used
libdir = $build/lib
bid=4fa3c2d1e0b9a8877665544332211000
# undefined: $nothing
cafe=1
555555554000-555555556000 r--p 00000000 08:01 1311 $root/bin/heapserver
555555556000-555555560000 r-xp 00002000 08:01 1311 $root/bin/heapserver
7ffff7a00000-7ffff7a80000 r-xp 00010000 08:01 2202 $libdir/libcache.so.3
7ffff7c00000-7ffff7c40000 r-xp 00000000 08:01 2203 $binary/libz$nothing.so.1
7ffff7dd0000-7ffff7f65000 $libdir/libc.so.6 (@28000) $bid
"""


def java_cpu():
    """The profilez binary header (0, 3, 1 for Java, period in
    microseconds, 0) in 64-bit little-endian words, records of count,
    depth and ids, the end record (0, 1, 0), then the id lines."""
    words = [0, 3, 1, 10000, 0]
    for count, stack in [(120, [0x8, 0x3, 0x4, 0x5]), (45, [0x9]),
                         (30, [0x2, 0x3, 0x4, 0x5]), (7, [0x7, 0x4, 0x5]),
                         (12, [0xa, 0x4, 0x5])]:
        words += [count, len(stack)] + stack
    words += [0, 1, 0]
    return struct.pack("<%dQ" % len(words), *words) + JAVA_LOCATIONS.encode()


def main():
    os.makedirs(OUT, exist_ok=True)
    files = {
        "cpp.contentionz": CONTENTIONZ.encode(),
        "cpp.threadz": THREADZ.encode(),
        "java.heapz": JAVA_HEAPZ.encode(),
        "java.contentionz": JAVA_CONTENTIONZ.encode(),
        "java.cpu": java_cpu(),
        "cpp-subst.heap": SUBST_HEAP.encode(),
    }
    for name, data in files.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


main()
