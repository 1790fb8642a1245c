#!/bin/sh
# Builds the native test programs into testdata/native/. Run from anywhere:
#   sh testdata/gen/native/build.sh
# Needs: gcc, g++, binutils (objcopy, strip), libgoogle-perftools-dev.
#
# Every binary is -O2 -g with a GNU build-id. Compiles run from the repository
# root with -ffile-prefix-map=$ROOT=. so DWARF names our sources
# "testdata/gen/native/..." (comp_dir ".") whatever the checkout path: the
# result does not depend on where the repository lives.
#
# Profilers: all programs link libprofiler (CPUPROFILE=...) and libtcmalloc
# (HEAPPROFILE=..., and cxxprog's GetHeapSample) directly, with
# --no-as-needed so the linker keeps them though nothing calls them by name.
# No LD_PRELOAD is needed.
#
# libhot.so is found at run time through RUNPATH $ORIGIN, so profiles record
# testdata/native/libhot.so (as an absolute path) in their maps.
set -eu
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
SRC=testdata/gen/native
OUT=testdata/native
mkdir -p "$OUT/debug"

CC=${CC:-gcc}
CXX=${CXX:-g++}
COMMON="-O2 -g -Wall -ffile-prefix-map=$ROOT=. -Wl,--build-id=sha1"
PROF="-Wl,--no-as-needed -lprofiler -ltcmalloc -Wl,--as-needed"

$CC $COMMON -fPIC -shared -o "$OUT/libhot.so" $SRC/hot.c

$CC $COMMON -fPIE -pie -I$SRC -o "$OUT/cprog-pie" $SRC/cprog.c \
	-L"$OUT" -lhot -Wl,-rpath,'$ORIGIN' $PROF
$CC $COMMON -fno-pie -no-pie -I$SRC -o "$OUT/cprog-nopie" $SRC/cprog.c \
	-L"$OUT" -lhot -Wl,-rpath,'$ORIGIN' $PROF
$CXX $COMMON -fPIE -pie -o "$OUT/cxxprog" $SRC/cxxprog.cc $PROF

# Separate debug info: cprog-stripped is cprog-pie without DWARF or .symtab
# and with a .gnu_debuglink naming "cprog-pie.debug"; the debug file lives in
# testdata/native/debug/ (not beside the binary, so a symbolizer must be told
# where to look, or find it by build-id under debug/.build-id/).
objcopy --only-keep-debug "$OUT/cprog-pie" "$OUT/debug/cprog-pie.debug"
strip --strip-all -o "$OUT/cprog-stripped" "$OUT/cprog-pie"
(cd "$OUT/debug" && objcopy --add-gnu-debuglink=cprog-pie.debug ../cprog-stripped)
id=$(readelf -n "$OUT/cprog-pie" | sed -n 's/.*Build ID: *//p')
d=$(echo "$id" | cut -c1-2)
f=$(echo "$id" | cut -c3-)
rm -rf "$OUT/debug/.build-id"
mkdir -p "$OUT/debug/.build-id/$d"
ln -s ../../cprog-pie.debug "$OUT/debug/.build-id/$d/$f.debug"
# The same debug file with zlib-compressed sections, as distributions ship
# them, by build-id only.
rm -rf "$OUT/debugz"
mkdir -p "$OUT/debugz/.build-id/$d"
objcopy --compress-debug-sections=zlib "$OUT/debug/cprog-pie.debug" "$OUT/debugz/.build-id/$d/$f.debug"

for b in libhot.so cprog-pie cprog-nopie cxxprog cprog-stripped debug/cprog-pie.debug; do
	printf '%-22s %s\n' "$b" "$(readelf -n "$OUT/$b" 2>/dev/null | sed -n 's/.*Build ID: *//p')"
done
