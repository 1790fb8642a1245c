#!/bin/bash
# Install the Debian 12 packages pprof-c needs to build and test, only when
# something is missing (so a warm machine pays nothing). Run as root.
set -eu
packages=(
	# build
	gcc meson ninja-build pkg-config
	protobuf-c-compiler libprotobuf-c-dev
	zlib1g-dev libdeflate-dev
	libdw-dev libelf-dev libiberty-dev
	libgraphviz-dev graphviz libpcre2-dev libedit-dev libcurl4-openssl-dev
	# tests
	libcmocka-dev libxml2-utils valgrind gzip tmux clang-format python3
	# the browser test (tests/browser): headless Chromium
	chromium
	# libc symbols and lines in the native tests (tests/cli/native.sh)
	libc6-dbg
	# references and test-data generators (never runtime dependencies)
	golang-go google-perftools libgoogle-perftools-dev binutils
	# sanitizer runtimes come with gcc; clang for the fuzz targets
	clang
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "installing: ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Node.js for the browser test's driver: Debian's, unless the machine
# already has a node and npm (a NodeSource nodejs bundles its own npm, and
# Debian's npm package would conflict with it).
if ! command -v npm >/dev/null; then
	echo "installing: nodejs npm" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
# The browser test's driver, playwright-core, and speedscope's app (which
# the test loads our speedscope files into), pinned by the lock file; it
# uses Debian's chromium above and downloads no browser of its own.
browser_dir="$(dirname "$0")/../tests/browser"
if { [ ! -d "$browser_dir/node_modules/playwright-core" ] ||
	[ ! -d "$browser_dir/node_modules/speedscope" ]; } && command -v npm >/dev/null; then
	echo "installing: playwright-core, speedscope (npm ci in tests/browser)" >&2
	npm ci --prefix "$browser_dir" --no-audit --no-fund >/dev/null
fi
# The test reference, Go 1.24's go tool pprof, unpacked from Debian 13's
# packages into a cache directory (installs nothing; see the script).
sh "$(dirname "$0")/../tests/reference-go.sh" >/dev/null
