#!/bin/bash
# Install the Debian 12 packages bench/ needs (scripts/packages/bench.txt),
# only those missing, with apt's own progress. Run as root. The go tool
# pprof rows use the tests' reference Go (scripts/install-test-deps.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/apt-packages.sh"
if ! install_list "to run bench/" "$here/packages/bench.txt"; then
	echo "install-bench-deps: apt-get failed; bench/ reports the rows whose tool is missing as skipped" >&2
	exit 1
fi
echo "== ready to measure: bash bench/run.sh" >&2
