#!/bin/sh
# The browser test: makes a flame graph and a call-graph SVG with pprof-c,
# then drives them in headless Chromium (pictures.mjs). Screenshots are kept
# in ARTIFACT_DIR (default: the working directory's browser-artifacts/).
#
#   tests/browser/run.sh PPROF_C_BINARY [ARTIFACT_DIR]
#
# Needs Debian's chromium and `npm ci` in tests/browser (scripts/install-deps.sh
# does both); without them the test is skipped (exit 77).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=$1
ART=${2:-$PWD/browser-artifacts}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ] || ! command -v node >/dev/null || [ ! -d "$HERE/node_modules/playwright-core" ]; then
	echo "browser: chromium, node or tests/browser/node_modules missing (run scripts/install-deps.sh); skipped"
	exit 77
fi
mkdir -p "$ART" || exit 1
cd "$ROOT" || exit 1
"$BIN" flame -output "$ART/flame.svg" testdata/go/cpu.pb.gz || exit 1
"$BIN" svg -output "$ART/graph.svg" testdata/go/cpu.pb.gz || exit 1
export CHROMIUM
exec timeout 120 node "$HERE/pictures.mjs" "$ART/flame.svg" "$ART/graph.svg" "$ART"
