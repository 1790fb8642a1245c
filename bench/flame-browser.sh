#!/bin/bash
# The flame graph of a big profile in a real browser: makes the flame SVG of
# PROFILE (default: the large bench profile) with pprof-c and drives it in
# Debian's headless Chromium (bench/flame-browser.mjs): render, click to
# zoom, Reset Zoom, search, each timed. Manual, not part of the tests (a
# large profile takes a minute). Needs what tests/browser needs
# (scripts/install-test-deps.sh).
#
#   bash bench/flame-browser.sh [--pprof-c PATH] [PROFILE]
#
# Screenshots and the SVG go to a temporary directory, which is printed.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH/.." && pwd)
PPROF_C=${PPROF_C:-$ROOT/build/pprof-c}
if [ "${1:-}" = --pprof-c ]; then
	PPROF_C=$2
	shift 2
fi
PROFILE=${1:-$BENCH/data/large.pb.gz}
[ -r "$PROFILE" ] || { echo "flame-browser: $PROFILE: missing (bench/run.sh --sizes large makes it)" >&2; exit 2; }
[ -d "$ROOT/tests/browser/node_modules/playwright-core" ] || { echo "flame-browser: tests/browser/node_modules missing (scripts/install-deps.sh)" >&2; exit 2; }
OUT=$(mktemp -d "${TMPDIR:-/tmp}/flame-browser.XXXXXX")
t0=$EPOCHREALTIME
"$PPROF_C" flame -output="$OUT/flame.svg" "$PROFILE"
t1=$EPOCHREALTIME
echo "flame-browser: $PROFILE -> $OUT/flame.svg ($(stat -c %s "$OUT/flame.svg") bytes, $(grep -c '<g class="f"' "$OUT/flame.svg") frames, made in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s)"
timeout 600 node "$BENCH/flame-browser.mjs" "$OUT/flame.svg" "$OUT"
echo "flame-browser: screenshots in $OUT"
