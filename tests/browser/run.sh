#!/bin/sh
# The browser test: makes a flame graph, a call-graph SVG and speedscope
# files with pprof-c, then drives them in headless Chromium (pictures.mjs):
# the speedscope files in speedscope's own app. Screenshots are kept in
# ARTIFACT_DIR (default: the working directory's browser-artifacts/).
#
#   tests/browser/run.sh PPROF_C_BINARY [ARTIFACT_DIR]
#
# Needs Debian's chromium and `npm ci` in tests/browser (scripts/install-test-deps.sh
# does both); without them the test is skipped (exit 77).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=$1
ART=${2:-$PWD/browser-artifacts}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ] || ! command -v node >/dev/null || [ ! -d "$HERE/node_modules/playwright-core" ] ||
	[ ! -d "$HERE/node_modules/speedscope" ]; then
	echo "browser: chromium, node or tests/browser/node_modules missing (run scripts/install-test-deps.sh); skipped"
	exit 77
fi
mkdir -p "$ART" || exit 1
cd "$ROOT" || exit 1
"$BIN" flame -output "$ART/flame.svg" testdata/go/cpu.pb.gz || exit 1
"$BIN" svg -output "$ART/graph.svg" testdata/go/cpu.pb.gz || exit 1
# speedscope files, loaded into speedscope's own app (its npm package):
# a plain profile, -diff_base (new and base) and -base (positive and
# negative stacks), each written as profiles of positive weights.
"$BIN" speedscope -output "$ART/cpu.speedscope.json" testdata/go/cpu.pb.gz || exit 1
"$BIN" speedscope -diff_base=testdata/go/cpu_before.pb.gz -output "$ART/diff.speedscope.json" testdata/go/cpu_after.pb.gz || exit 1
"$BIN" speedscope -base=testdata/go/cpu_before.pb.gz -output "$ART/base.speedscope.json" testdata/go/cpu_after.pb.gz || exit 1
export CHROMIUM
exec timeout 540 node "$HERE/pictures.mjs" "$ART/flame.svg" "$ART/graph.svg" "$ART" \
	"$HERE/node_modules/speedscope/dist/release/index.html"
