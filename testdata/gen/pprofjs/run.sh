#!/bin/sh
# Re-makes testdata/pprofjs/*.pb.gz: real Node.js profiles written by the
# npm package pprof (google's pprof-nodejs, pinned by package-lock.json)
# with Debian's node; testdata/gen/node does the same with its fork,
# @datadog/pprof.
#
#   sh testdata/gen/pprofjs/run.sh
#
# The program runs from /tmp/pprof-c-gen/pprofjs so that the file names the
# profiles record are the same on every machine. Needs node and npm
# (scripts/install-test-deps.sh) and the npm registry. Then:
# sh tests/golden/regen.sh tests/golden/producers.cases
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(cd "$HERE/../.." && pwd)/pprofjs
WORK=/tmp/pprof-c-gen/pprofjs
rm -rf "$WORK"
mkdir -p "$WORK" "$OUT"
cp "$HERE/profile.js" "$HERE/package.json" "$HERE/package-lock.json" "$WORK/"
cd "$WORK"
npm ci --no-audit --no-fund >/dev/null
node --version
node profile.js "$OUT"
ls -l "$OUT"
