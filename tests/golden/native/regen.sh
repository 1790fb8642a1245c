#!/bin/sh
# Regenerates the native goldens from the committed binaries and profiles in
# testdata/native/. Run from anywhere: sh tests/golden/native/regen.sh
# Needs: google-pprof (Debian google-perftools; uses binutils addr2line, nm,
# objdump, c++filt), go tool pprof (Go 1.24, from tests/reference-go.sh),
# binutils addr2line.
#
# Commands run from the repository root with relative paths, so the outputs
# name "testdata/native/..." where the tools echo a path. Only stdout is kept:
# both tools chat on stderr ("Using local file ...", "PROFILE: ...").
#
# Files per CPU profile <p> (binary testdata/native/<p>, profile <p>.cpu.prof):
#   <p>.google-pprof.txt          google-pprof --text BIN PROF
#   <p>.google-pprof.lines.txt    google-pprof --text --lines BIN PROF
#   <p>.gopprof.top.txt           go tool pprof -top BIN PROF
#   <p>.gopprof.top-lines.txt     go tool pprof -top -lines BIN PROF
# Heap profiles (<h>.heap), the same four with the heap file, and for the
# go tool pprof ones also -sample_index=alloc_space (<h>.gopprof.top-alloc.txt).
# Plus:
#   cprog-pie.unsym.gopprof.top.txt   go tool pprof -top on the unsymbolized
#                                     profile.proto (symbolizes it locally)
#   cprog-stripped.gopprof.top-debugdir.txt  same as .gopprof.top.txt but with
#                                     PPROF_BINARY_PATH=testdata/native/debug
#   addr2line.tsv                     addr2line -f -i -C answers for chosen
#                                     ELF addresses (see README.md)
set -eu
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
N=testdata/native
G=tests/golden/native
export TZ=UTC
unset PPROF_BINARY_PATH PPROF_TOOLS 2>/dev/null || true
ref=$(sh "$ROOT/tests/reference-go.sh" --env) || { echo "regen.sh: no reference Go (tests/reference-go.sh)" >&2; exit 1; }
eval "$ref"

gp() { google-pprof "$@" 2>/dev/null; }
gop() { go tool pprof "$@" 2>/dev/null; }

for p in cprog-pie cprog-nopie cprog-stripped cxxprog; do
	bin=$N/$p prof=$N/$p.cpu.prof
	gp --text "$bin" "$prof" >"$G/$p.google-pprof.txt"
	gp --text --lines "$bin" "$prof" >"$G/$p.google-pprof.lines.txt"
	gop -top "$bin" "$prof" >"$G/$p.gopprof.top.txt"
	gop -top -lines "$bin" "$prof" >"$G/$p.gopprof.top-lines.txt"
done
PPROF_BINARY_PATH=$N/debug gop -top $N/cprog-stripped $N/cprog-stripped.cpu.prof \
	>"$G/cprog-stripped.gopprof.top-debugdir.txt"
gop -top $N/cprog-pie.unsym.pb.gz >"$G/cprog-pie.unsym.gopprof.top.txt"

for h in cprog-pie cxxprog; do
	bin=$N/$h prof=$N/$h.heap
	gp --text "$bin" "$prof" >"$G/$h.heap.google-pprof.txt"
	gp --text --lines "$bin" "$prof" >"$G/$h.heap.google-pprof.lines.txt"
	gop -top "$bin" "$prof" >"$G/$h.heap.gopprof.top.txt"
	gop -top -lines "$bin" "$prof" >"$G/$h.heap.gopprof.top-lines.txt"
	gop -top -sample_index=alloc_space "$bin" "$prof" >"$G/$h.heap.gopprof.top-alloc.txt"
done
gp --text $N/cxxprog $N/cxxprog.heap_v2.heap >"$G/cxxprog.heap_v2.google-pprof.txt"
gop -top $N/cxxprog $N/cxxprog.heap_v2.heap >"$G/cxxprog.heap_v2.gopprof.top.txt"

sh "$G/addr2line.sh" >"$G/addr2line.tsv"
