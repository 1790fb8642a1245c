#!/bin/sh
# Regenerates every profile in testdata/go/ from testdata/gen/goprog.
# Run from anywhere: sh testdata/gen/regen-go.sh
# Needs Go 1.19 (the profiles' format and runtime frames are Go 1.19's);
# standard library only, no network.
#
# Then regenerate the goldens that read them: sh tests/golden/regen.sh
#
# What is pinned, so runs differ only in timing-dependent values (sample
# counts, delays, timestamps) and not in names or shapes:
#   -trimpath         file names are "testdata/gen/goprog/main.go" (the
#                     module path is testdata/gen/goprog, so they resolve
#                     from the repository root) and "runtime/proc.go", not
#                     this machine's absolute paths
#   BUILD             the binary is built at a fixed path, recorded as the
#                     main mapping's file name (pprof prints "File: goprog");
#                     it is deleted afterwards so nothing can symbolize
#                     against a stale binary
#   GOMAXPROCS=2      the machine the committed files came from has 2 CPUs
#   GOPROXY=off, GOFLAGS=, GOWORK=off, CGO_ENABLED=0: no downloads, no
#                     user flags, a static binary with one mapping
#   GODEBUG, GOGC unset: runtime defaults
#   fixed iteration counts and seeded math/rand inside the program
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/testdata/go
BUILD=/tmp/pprof-c-gen
export GOMAXPROCS=2 GOPROXY=off GOFLAGS= GOWORK=off CGO_ENABLED=0 GO111MODULE=on
unset GODEBUG GOGC 2>/dev/null || true

case $(go version) in
*go1.19*) ;;
*) echo "regen-go.sh: warning: not Go 1.19: $(go version)" >&2 ;;
esac

rm -rf "$BUILD"
mkdir -p "$BUILD" "$OUT"
trap 'rm -rf "$BUILD"' EXIT INT TERM
(cd "$ROOT/testdata/gen/goprog" && go build -trimpath -o "$BUILD/goprog" .)

rm -f "$OUT"/*.pb.gz
"$BUILD/goprog" -out "$OUT"              # cpu heap allocs mutex block goroutine threadcreate
"$BUILD/goprog" -out "$OUT" -set before  # cpu_before heap_before
"$BUILD/goprog" -out "$OUT" -set after   # cpu_after heap_after

# Two profiles merged by go tool pprof itself, the base that pprof's
# driver makes of two -base/-diff_base files (go tool pprof's flag package
# keeps only the last of a repeated flag, so the goldens of two bases are
# made with these; see tests/golden/README.md).
# The reference pprof (Go 1.24, tests/reference-go.sh) merges them; Go
# 1.19's, which made the committed files, merges to the same profile.
refroot=$(sh "$ROOT/tests/reference-go.sh")
refpprof() { GOROOT=$refroot GOTOOLCHAIN=local "$refroot/bin/go" tool pprof "$@"; }
refpprof -proto "$OUT/cpu_before.pb.gz" "$OUT/cpu.pb.gz" >"$OUT/merged_cpu_before_cpu.pb.gz"
refpprof -proto "$OUT/heap_before.pb.gz" "$OUT/heap.pb.gz" >"$OUT/merged_heap_before_heap.pb.gz"

# The httpserver is not run here; just make sure it still builds.
(cd "$ROOT/testdata/gen/httpserver" && go build -trimpath -o "$BUILD/httpserver" .)

ls -l "$OUT"
du -sh "$OUT"
