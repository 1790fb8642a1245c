#!/bin/sh
# Re-makes testdata/fgprof/: a wall-clock profile of a Go workload written
# by fgprof, as profile.proto and in fgprof's folded format.
#
#   sh testdata/gen/fgprof/run.sh
#
# Builds main.go in GOPATH mode against Debian's packaged sources
# (golang-github-felixge-fgprof-dev and golang-github-google-pprof-dev, in
# /usr/share/gocode) with the system's go, from /tmp/pprof-c-gen/fgprof so
# that the file names the profile records are the same on every machine.
# Then: sh tests/golden/regen.sh tests/golden/producers.cases
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(cd "$HERE/../.." && pwd)/fgprof
WORK=/tmp/pprof-c-gen/fgprof
rm -rf "$WORK"
mkdir -p "$WORK" "$OUT"
cp "$HERE/main.go" "$WORK/"
cd "$WORK"
GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= go build -trimpath -o fgprof main.go
go version
./fgprof "$OUT"
ls -l "$OUT"
