#!/bin/bash
# Install what building needs (install-deps.sh), then the tools the tests
# use (scripts/packages/test.txt), Node.js and the browser test's npm
# packages. Run as root. Only the build packages are required: an optional
# step that fails says what it skipped and why, the tests that need it
# report SKIP, and the script still exits 0.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/apt-packages.sh"
bash "$here/install-deps.sh" || exit 1

skipped=()
skip() {
	echo "== SKIPPED: $1" >&2
	skipped+=("$1")
}

mapfile -t tests < <(package_list "$here/packages/test.txt")
if ! apt_install "for the tests" "${tests[@]}"; then
	# One package that cannot be installed must not cost the others:
	# try them one by one and name those that fail.
	for p in $(missing_packages "${tests[@]}"); do
		apt-get install -y --no-install-recommends "$p" ||
			skip "$p (apt-get install failed, see above); the tests that need it report SKIP"
	done
fi

# Node.js for the browser test's driver: Debian's, unless the machine
# already has a node and npm (a NodeSource nodejs bundles its own npm, and
# Debian's npm package would conflict with it).
if ! command -v npm >/dev/null; then
	apt_install "Node.js for the browser test" nodejs npm ||
		skip "nodejs, npm (apt-get install failed, see above); the browser test reports SKIP"
fi

# The browser test's driver, playwright-core (pinned to a version that
# runs on Debian 12's node 18), and speedscope's app, from the lock file;
# it uses Debian's chromium and downloads no browser of its own.
browser_dir="$here/../tests/browser"
if [ -d "$browser_dir/node_modules/playwright-core" ] &&
	[ -d "$browser_dir/node_modules/speedscope" ]; then
	echo "== tests/browser: npm packages already installed" >&2
elif command -v npm >/dev/null; then
	echo "== tests/browser: npm ci (playwright-core, speedscope)" >&2
	npm ci --prefix "$browser_dir" --no-audit --no-fund ||
		skip "npm ci in tests/browser (failed, see above; needs network access to registry.npmjs.org); the browser test reports SKIP"
fi

# The test reference, Go 1.24's go tool pprof, unpacked from Debian 13's
# packages into a cache directory (installs nothing; see the script).
echo "== the reference: Go 1.24's go tool pprof (tests/reference-go.sh)" >&2
sh "$here/../tests/reference-go.sh" >/dev/null ||
	skip "Go 1.24's go tool pprof (tests/reference-go.sh failed, see above); the tests that compare with it report SKIP"

if [ ${#skipped[@]} -gt 0 ]; then
	echo "== install-test-deps: done, but skipped:" >&2
	printf '   %s\n' "${skipped[@]}" >&2
else
	echo "== install-test-deps: done" >&2
fi
exit 0
