#!/bin/sh
# Re-make testdata/perf/cxxprog.perf.txt: `perf script` text of a call-chain
# recording of testdata/native/cxxprog (user space only, so no kernel
# symbols of the recording machine; about a thousand samples).
#
#   sh testdata/gen/perf/run.sh      (needs Debian's linux-perf; as root, or
#                                     with kernel.perf_event_paranoid <= 2)
#
# The repository's path in the DSO names is replaced by "." so the file is
# the same whichever checkout made it.
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
perf record -q -e cpu-clock:u -F 997 -g -o "$tmp/perf.data" -- "$root/testdata/native/cxxprog" >/dev/null
perf script -i "$tmp/perf.data" 2>/dev/null | sed "s#$root/#./#g" >"$root/testdata/perf/cxxprog.perf.txt"
echo "wrote testdata/perf/cxxprog.perf.txt ($(grep -c '^[^[:space:]]' "$root/testdata/perf/cxxprog.perf.txt") samples)"
