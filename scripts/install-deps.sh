#!/bin/bash
# Install the Debian 12 packages pprof-c needs to build and run (listed in
# scripts/packages/build.txt), only those missing, with apt's own progress.
# Run as root. The test tools are scripts/install-test-deps.sh's job.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/apt-packages.sh"
if ! install_list "to build and run pprof-c" "$here/packages/build.txt"; then
	echo "install-deps: apt-get failed; pprof-c cannot be built without these packages" >&2
	exit 1
fi
echo "== ready to build: meson setup build && meson compile -C build" >&2
