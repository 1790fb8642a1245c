#!/bin/sh
# Regenerates the Go runtime's text profiles and goroutine dumps from
# testdata/gen/dumps: testdata/legacy/go-*.txt (debug=1 goroutine,
# threadcreate, mutex and block profiles) and testdata/dumps/*.txt (the
# debug=2 goroutine dump, a panic's and a SIGQUIT's). Then regenerate the
# goldens that read them: sh tests/golden/regen.sh tests/golden/legacy_text.cases
#
#   sh testdata/gen/regen-text.sh
#
# Pinned as in regen-go.sh: -trimpath (file names testdata/gen/dumps/main.go
# and runtime/proc.go), GOMAXPROCS=2, CGO_ENABLED=0, no network. Counts,
# delays and addresses change with timing and the Go version; names and
# stack shapes do not. The hand-made legacy profiles come from
# testdata/gen/legacy/make_legacy.py.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT INT TERM
export GOMAXPROCS=2 GOPROXY=off GOFLAGS= GOWORK=off CGO_ENABLED=0 GO111MODULE=on
unset GODEBUG GOGC GOTRACEBACK 2>/dev/null || true
go version
(cd "$ROOT/testdata/gen/dumps" && go build -trimpath -o "$BUILD/dumps" .)
mkdir "$BUILD/out"
(cd "$BUILD/out" && "$BUILD/dumps" -out .)
mkdir -p "$ROOT/testdata/legacy" "$ROOT/testdata/dumps"
for k in goroutine threadcreate mutex block; do
	cp "$BUILD/out/$k.debug1.txt" "$ROOT/testdata/legacy/go-$k.txt"
done
for k in goroutine.debug2 panic sigquit; do
	cp "$BUILD/out/$k.txt" "$ROOT/testdata/dumps/$k.txt"
done
