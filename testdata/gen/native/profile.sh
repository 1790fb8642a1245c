#!/bin/sh
# Runs the programs built by build.sh and writes their profiles into
# testdata/native/. Run from anywhere: sh testdata/gen/native/profile.sh
#
#   <bin>.cpu.prof        gperftools legacy CPU profile (CPUPROFILE), for
#                         cprog-pie, cprog-nopie, cprog-stripped, cxxprog
#   cprog-pie.heap        tcmalloc heap profile text, "heap profile: ... @ heapprofile"
#                         (HEAPPROFILE; every allocation, dumped at exit)
#   cxxprog.heap          the same for cxxprog
#   cxxprog.heap_v2.heap  tcmalloc sampled heap, "... @ heap_v2/262144"
#                         (MallocExtension::GetHeapSample, TCMALLOC_SAMPLE_PARAMETER)
#   cprog-pie.unsym.pb.gz cprog-pie.cpu.prof converted to profile.proto by
#                         go tool pprof -proto -symbolize=none (addresses only)
#
# The profiles embed the process's /proc/self/maps, so they name absolute
# paths: this checkout's testdata/native/... and the system's libc, libstdc++,
# libprofiler, libtcmalloc, ld-linux. Addresses differ run to run (ASLR), and
# a re-run changes every golden: run tests/golden/native/regen.sh after it.
#
# CPUPROFILE_FREQUENCY=1000 is asked for and recorded in the header (period
# 1000 us), but ITIMER_PROF fires on scheduler ticks, so with a 250 Hz kernel
# the program gets ~250 samples per CPU second: pprof's "ms" are then a
# quarter of the real CPU time. That is what real profiles look like.
set -eu
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT=$ROOT/testdata/native
cd "$OUT"
export CPUPROFILE_FREQUENCY=1000

for b in cprog-pie cprog-nopie cprog-stripped cxxprog; do
	rm -f "$b.cpu.prof"
	CPUPROFILE="$OUT/$b.cpu.prof" "$OUT/$b" >/dev/null
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for b in cprog-pie cxxprog; do
	HEAPPROFILE="$tmp/$b" "$OUT/$b" >/dev/null 2>"$tmp/$b.log"
	# The at-exit dump is the last numbered file.
	last=$(ls "$tmp/$b".*.heap | sort | tail -n 1)
	mv "$last" "$OUT/$b.heap"
done
TCMALLOC_SAMPLE_PARAMETER=262144 CXXPROG_HEAP_SAMPLE="$OUT/cxxprog.heap_v2.heap" \
	"$OUT/cxxprog" >/dev/null

# Unsymbolized profile.proto: -symbolize=none keeps addresses and mappings
# and adds no functions.
go tool pprof -proto -symbolize=none "$OUT/cprog-pie" "$OUT/cprog-pie.cpu.prof" \
	>"$OUT/cprog-pie.unsym.pb.gz" 2>/dev/null

ls -l "$OUT"/*.prof "$OUT"/*.heap "$OUT"/*.pb.gz
